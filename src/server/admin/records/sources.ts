// Where each record kind's rows come from: the tables a declaration's columns, filters and sorts
// name (schemas/records/<kind>.json), and how a row becomes the item of the API's answer. A
// column a declaration adds that the item does not carry is taken from the row as it is.
import type { Db } from '../../db/connect';
import { iso, now } from '../../services/clock';
import type { SchemaSet } from '../../../shared/validation/schema-files';
import { fullName, itemOf as applicationItem, selectApplications, type ApplicationRow } from '../services/applications';
import { itemOf as inquiryItem, labels, selectInquiries, type InquiryRow } from '../services/inquiries';
import { itemsOf as noticeItems, registerNumbers, selectNotices } from '../services/notices';
import { itemOf as requestItem, selectRequests, type RequestRow } from '../services/requests';
import type { MemberItem } from '../../../shared/admin-api';
import type { RecordKind, SourceName } from '../../../shared/record-kinds';
import type { AnyQuery } from './list';

type Row = Record<string, unknown>;

export interface Source {
  base(db: Db): AnyQuery;
  /** A rule beyond the declared filters (a withdrawn member's application is not pending). */
  refine?(query: AnyQuery, filter: Record<string, string>): AnyQuery;
  items(db: Db, set: SchemaSet | undefined, rows: Row[], kind: RecordKind): Promise<Row[]>;
  /** The member a row is the record of (a visitor's inquiry: none), for an audited list page's
   *  audit_members rows (ADR 040). A source without it shows no member's record. */
  memberOf?(row: Row): string | null;
}

const userIdOf = (row: Row): string | null => (typeof row.user_id === 'string' ? row.user_id : null);

/** The declared columns an item lacks, from the row (an empty value left out, as the item does). */
const withDeclared = (kind: RecordKind, row: Row, item: Row): Row => {
  const out = { ...item };
  for (const column of kind.columns) {
    const name = column.field ?? column.name;
    if (!(column.name in out) && row[name] !== undefined && row[name] !== null) out[column.name] = row[name];
  }
  return out;
};

const parsed = (text: string): Record<string, unknown> => {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return {};
  }
};

export const SOURCES: Record<SourceName, Source> = {
  applications: {
    base: (db) => selectApplications(db) as unknown as AnyQuery,
    refine: (query, filter) => (filter.status === 'pending' ? query.where('users.status', '=', 'active') : query),
    items: async (_db, _set, rows, kind) => rows.map((row) => withDeclared(kind, row, applicationItem(row as unknown as ApplicationRow) as unknown as Row)),
    memberOf: userIdOf,
  },
  members: {
    base: (db) =>
      db
        .selectFrom('users')
        .leftJoin('applications', 'applications.user_id', 'users.id')
        .select(['users.id', 'users.email', 'users.status', 'users.created_at', 'users.last_name_kanji', 'users.first_name_kanji', 'users.prefecture', 'users.mail_opt', 'applications.register_number'])
        // A member erased after the retention period (ADR 041) is no longer one the office can find.
        .where('users.erased_at', 'is', null) as unknown as AnyQuery,
    items: async (_db, _set, rows, kind) =>
      rows.map((row) => {
        const item: MemberItem = {
          id: row.id as string,
          ...(row.register_number ? { register_number: row.register_number as string } : {}),
          name: fullName(row as { last_name_kanji: string; first_name_kanji: string }),
          email: row.email as string,
          status: row.status as MemberItem['status'],
          registered_at: row.created_at as string,
          prefecture: (row.prefecture as string | null) ?? '',
        };
        return withDeclared(kind, row, item as unknown as Row);
      }),
    memberOf: (row) => (typeof row.id === 'string' ? row.id : null),
  },
  inquiries: {
    base: (db) => selectInquiries(db) as unknown as AnyQuery,
    items: async (db, _set, rows, kind) => {
      const typeLabel = await labels(db, 'inquiry_type');
      return rows.map((row) => {
        const item = inquiryItem(row as unknown as InquiryRow, typeLabel);
        return withDeclared(kind, row, { ...item, assigned_to_name: item.assigned_to?.name ?? '' } as unknown as Row);
      });
    },
    memberOf: userIdOf,
  },
  notices: {
    base: (db) => selectNotices(db) as unknown as AnyQuery,
    items: async (db, _set, rows, kind) => {
      const numbers = await registerNumbers(db, [...new Set(rows.flatMap((row) => (row.user_id ? [row.user_id as string] : [])))]);
      const items = noticeItems(rows as never, numbers, iso(now()));
      return items.map((item, i) => withDeclared(kind, rows[i]!, item as unknown as Row));
    },
  },
  audit: {
    base: (db) =>
      db
        .selectFrom('audit_log')
        .leftJoin('users', 'users.id', 'audit_log.member_id')
        .select([
          'audit_log.id', 'audit_log.at', 'audit_log.actor_type', 'audit_log.actor_label', 'audit_log.actor_role', 'audit_log.action',
          'audit_log.member_id', 'audit_log.target', 'audit_log.detail', 'audit_log.ip', 'users.last_name_kanji', 'users.first_name_kanji',
        ]) as unknown as AnyQuery,
    items: async (_db, _set, rows, kind) =>
      rows.map((row) =>
        withDeclared(kind, row, {
          id: row.id,
          at: row.at,
          actor_type: row.actor_type,
          actor_label: row.actor_label,
          actor_role: row.actor_role,
          action: row.action,
          member_id: row.member_id,
          ...(row.last_name_kanji != null && row.first_name_kanji != null
            ? { member_name: fullName({ last_name_kanji: row.last_name_kanji as string, first_name_kanji: row.first_name_kanji as string }) }
            : {}),
          target: row.target,
          detail: parsed(row.detail as string),
          ip: row.ip,
        }),
      ),
  },
  requests: {
    base: (db) => selectRequests(db) as unknown as AnyQuery,
    items: async (_db, _set, rows, kind) => {
      const at = iso(now());
      return rows.map((row) => withDeclared(kind, row, requestItem(row as unknown as RequestRow, at) as unknown as Row));
    },
    memberOf: userIdOf,
  },
  operators: {
    base: (db) => db.selectFrom('operators').select(['operators.id', 'operators.email', 'operators.name', 'operators.role', 'operators.status', 'operators.created_at']) as unknown as AnyQuery,
    items: async (_db, _set, rows, kind) => rows.map((row) => withDeclared(kind, row, { id: row.id, email: row.email, name: row.name, role: row.role, status: row.status })),
  },
};
