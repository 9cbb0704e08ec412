// Members, as the back office finds and shows them: search by name, address or register number (the
// search itself is recorded with its words), one member in full with their applications,
// inquiries, notices and their own downloads of their data (the view is recorded), and the CSV of members who agreed to mail
// (recorded with its columns and filter, written out batch by batch).
import type { Db } from '../../db/connect';
import type { User } from '../../db/types';
import { formatDateTime } from '../../../shared/format-date';
import type { SchemaSet } from '../../../shared/validation/schema-files';
import recordMessages from '../../../../messages/operator.ja.json';
import { audited, includeMembers } from '../audit';
import { RecordRefusal, type Who } from './common';
import { decisionsOf, fullName, memberSummary, purposesOf } from './applications';
import { inquiriesOfMember } from './inquiries';
import { noticesOfMember } from './notices';
import { openRequestItems } from './requests';
import { downloadsOf } from '../../disclosure/document';
import { fieldDisplaysOf, optionLists, recordColumns, recordForms } from './member-fields';
import type { ExportColumn, MemberDetail } from '../../../shared/admin-api';
import { RECORD_KINDS, sortOf } from '../../../shared/record-kinds';
import { applyFilters, filtersOf, ordered, type AnyQuery, type Filters, type ListKey } from '../records/list';

/** The most disclosure downloads a member's detail lists. */
const DISCLOSURES_SHOWN = 100;

/** One member in full; the view is recorded (members.view). */
export async function memberDetail(db: Db, set: SchemaSet, who: Who, id: string): Promise<MemberDetail> {
  // A member erased after the retention period (ADR 041) is gone from the office.
  const user = await db.selectFrom('users').selectAll().where('id', '=', id).where('erased_at', 'is', null).executeTakeFirst();
  if (!user) throw new RecordRefusal('RECORD_NOT_FOUND', { id });
  const applications = await db.selectFrom('applications').selectAll().where('user_id', '=', user.id).orderBy('applied_at', 'desc').execute();
  const [member, purposes, inquiries, notices, decisions, disclosures, requests] = await Promise.all([
    memberSummary(db, set, user),
    purposesOf(db, user),
    inquiriesOfMember(db, user.id),
    noticesOfMember(db, user.id),
    Promise.all(applications.map((a) => decisionsOf(db, a.id))),
    downloadsOf(db, user.id, DISCLOSURES_SHOWN),
    openRequestItems(db, user.id, fullName(user)),
  ]);
  return audited(db, who, 'members.view', async () => ({
    memberId: user.id,
    target: applications[0]?.register_number ?? user.email,
    result: {
      member,
      purposes,
      applications: applications.map((a, i) => ({ register_number: a.register_number, status: a.status, applied_at: a.applied_at, decided_at: a.decided_at, decisions: decisions[i] })),
      inquiries,
      notices,
      disclosures,
      requests,
    },
  }));
}

const ACCOUNT_COLUMNS = ['email', 'register_number', 'registered_at'] as const;

/** The columns an export may have: the account's, then every field of the member record. */
export function exportColumns(set: SchemaSet): ExportColumn[] {
  const r = recordMessages.records;
  return [
    { name: 'email', label: r.emailColumn },
    { name: 'register_number', label: r.registerNumberColumn },
    { name: 'registered_at', label: r.registeredAtColumn },
    ...recordColumns(set).filter((column) => !(ACCOUNT_COLUMNS as readonly string[]).includes(column.name)),
  ];
}

/** A cell as RFC 4180 writes it, guarded against formulas: a text starting with = + - @ (in
 *  either width: a spreadsheet reads the full-width equals sign as =), a tab or a carriage
 *  return is prefixed with ' so a spreadsheet shows it as text. */
export function csvCell(value: string): string {
  const guarded = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(guarded) ? `"${guarded.replace(/"/g, '""')}"` : guarded;
}

export const csvLine = (cells: string[]) => `${cells.map(csvCell).join(',')}\r\n`;

type AllUsers = ReturnType<typeof usersQuery>;
function usersQuery(db: Db) {
  return db.selectFrom('users').selectAll().where('erased_at', 'is', null);
}

/** The export's filter when none is given: active members who agreed to mail. */
export const EXPORT_FILTER: Record<string, string> = { mail_opt: 'true', status: 'active' };

/** The export's filter: the members list's (schemas/records/members.json, but the search), or
 *  EXPORT_FILTER when `raw` names none. */
export function exportFilterOf(raw: Filters): Record<string, string> {
  const { q: _search, ...filter } = filtersOf(RECORD_KINDS.members, raw);
  return Object.keys(filter).length > 0 ? filter : EXPORT_FILTER;
}

/** Members read per query (keyset on users_list: created_at, id), and rows turned into text
 *  between two turns of the event loop: a batch never holds it for long (docs/decisions/030). */
export const EXPORT_BATCH = 250;
export const EXPORT_ROWS_PER_TURN = 10;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The CSV (UTF-8 with BOM, CRLF) of the members `filter` keeps (by default active members who agreed to mail), with `columns` (names
 *  from exportColumns), as text written batch by batch: memory stays one batch whatever the
 *  number of members, and the first rows leave before the last are read. The export is recorded
 *  (columns and filter) before any row leaves, and each batch's members (audit_members) before its
 *  rows leave. */
export async function exportMembers(db: Db, set: SchemaSet, who: Who, columns: string[], filter: Record<string, string> = EXPORT_FILTER): Promise<AsyncIterable<string>> {
  const known = exportColumns(set);
  const chosen = columns.map((name) => known.find((c) => c.name === name));
  if (columns.length === 0 || chosen.some((c) => !c)) throw new RecordRefusal('VALIDATION', {}, { columns: [recordMessages.records.unknownColumn] });
  const entry = await audited(db, who, 'members.export', async (_tx, entry) => ({ result: entry, detail: { columns, filter: { ...filter, ...(filter.mail_opt ? { mail_opt: true } : {}) } } }));
  const displays = fieldDisplaysOf(set, await optionLists(db, recordForms(set)), columns);
  return (async function* rows() {
    yield `\uFEFF${csvLine(chosen.map((c) => c!.label))}`;
    // Oldest first through the members list's own keyset (its sort 'oldest': created_at, id).
    const oldest = sortOf(RECORD_KINDS.members, 'oldest');
    let after: ListKey | undefined;
    for (;;) {
      const query = ordered(applyFilters(RECORD_KINDS.members, usersQuery(db) as unknown as AnyQuery, filter), oldest, after) as unknown as AllUsers;
      const users = await query.limit(EXPORT_BATCH).execute();
      if (users.length === 0) return;
      const numbers = new Map<string, string>();
      const applications = await db.selectFrom('applications').select(['user_id', 'register_number']).where('user_id', 'in', users.map((u) => u.id)).orderBy('applied_at').execute();
      for (const row of applications) numbers.set(row.user_id, row.register_number);
      // The members of this batch are recorded as included before any of its rows leaves (ADR 040).
      await includeMembers(db, entry.id, entry.at, users.map((u) => u.id));
      const cellOf = (user: User, shown: Record<string, string>, name: string): string => {
        if (name === 'email') return user.email;
        if (name === 'register_number') return numbers.get(user.id) ?? '';
        if (name === 'registered_at') return formatDateTime(user.created_at);
        return shown[name] ?? '';
      };
      for (let i = 0; i < users.length; i += EXPORT_ROWS_PER_TURN) {
        let text = '';
        for (const user of users.slice(i, i + EXPORT_ROWS_PER_TURN)) {
          const shown = displays(user);
          text += csvLine(columns.map((name) => cellOf(user, shown, name)));
        }
        yield text;
        await nextTurn();
      }
      if (users.length < EXPORT_BATCH) return;
      const last = users.at(-1)!;
      after = { k0: last.created_at, k1: last.id };
    }
  })();
}
