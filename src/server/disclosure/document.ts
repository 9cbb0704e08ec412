// Everything the programme holds about one member, as one JSON document (issue 37 point 1,
// docs/decisions/040), described by schemas/api/user-disclosure.json. Each group reads the
// member's rows of one or two tables (src/server/disclosure/coverage.ts says which columns);
// the member record comes from the forms (src/server/admin/services/member-fields.ts, as the
// back office and /user/info show it). Secrets (password and code hashes, session tokens, the
// passkey's key) are never in it.
import type { Db } from '../db/connect';
import type { User } from '../db/types';
import type { SchemaSet } from '../../shared/validation/schema-files';
import mail from '../../../messages/mail.ja.json';
import { iso, now } from '../services/clock';
import { subjectOf } from '../mail/mailer';
import { fullName } from '../admin/services/applications';
import { labels } from '../admin/services/inquiries';
import { memberFieldValues, optionLists, recordForms } from '../admin/services/member-fields';
import { memberRequestsOf } from './requests';

/** The newest office accesses a disclosure lists (each of the two ways in reads its own index
 *  range, so the cost stays this many rows however long the member has been one). */
export const ACCESSES_SHOWN = 500;

/** The member's own actions in the audit log: theirs, not the office's. */
export const OWN_ACTIONS = ['disclosure.download'] as const;

export type Disclosure = Record<string, unknown> & { format: 'member-disclosure'; version: 1; generated_at: string };

/** The office as a member reads it: the name every mail is signed with, never an operator's. */
export const OFFICE_NAME = mail.operator;

const parsed = (text: string): Record<string, unknown> => {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return {};
  }
};

/** Rows newest first by `key` (a time as ISO text). Sorted here: each group is one member's rows,
 *  read by one index range, and the database sorts none of a growing table's rows (ADR 026). */
const newestBy =
  <K extends string>(key: K) =>
  <R extends Record<K, string>>(rows: R[]): R[] =>
    rows.sort((a, b) => b[key].localeCompare(a[key]));

export interface Access {
  id: string;
  at: string;
  office: string;
  role: string;
  action: string;
  target: string | null;
  columns: string[];
}

/** The office's views, searches, exports and changes of the member's record, newest first: the
 *  entries that name the member, and those whose list page or export included them
 *  (audit_members). Column names of an export by the labels the export gave them. */
export async function accessesOf(db: Db, memberId: string, columnLabel: (name: string) => string = (name) => name): Promise<Access[]> {
  const columns = ['audit_log.id', 'audit_log.at', 'audit_log.actor_type', 'audit_log.actor_role', 'audit_log.action', 'audit_log.target', 'audit_log.detail'] as const;
  const [named, included] = await Promise.all([
    db
      .selectFrom('audit_log')
      .select(columns)
      .where('audit_log.member_id', '=', memberId)
      .where('audit_log.actor_type', '<>', 'member')
      .orderBy('audit_log.at', 'desc')
      .orderBy('audit_log.id', 'desc')
      .limit(ACCESSES_SHOWN)
      .execute(),
    db
      .selectFrom('audit_members')
      .innerJoin('audit_log', 'audit_log.id', 'audit_members.audit_id')
      .select(columns)
      .where('audit_members.member_id', '=', memberId)
      .orderBy('audit_members.at', 'desc')
      .limit(ACCESSES_SHOWN)
      .execute(),
  ]);
  const seen = new Set<string>();
  return [...named, ...included]
    .filter((row) => !seen.has(row.id) && seen.add(row.id))
    .sort((a, b) => (a.at === b.at ? b.id.localeCompare(a.id) : b.at.localeCompare(a.at)))
    .slice(0, ACCESSES_SHOWN)
    .map((row) => {
      const detail = parsed(row.detail);
      return {
        id: row.id,
        at: row.at,
        office: OFFICE_NAME,
        role: row.actor_type === 'cli' ? 'cli' : (row.actor_role ?? 'cli'),
        action: row.action,
        target: row.target,
        columns: Array.isArray(detail.columns) ? detail.columns.map((name) => columnLabel(String(name))) : [],
      };
    });
}

/** The member's downloads of their disclosure, newest first (audit_log_member: one index range).
 *  The office's member detail shows them too. */
export async function downloadsOf(db: Db, memberId: string, limit?: number): Promise<Array<{ id: string; at: string; format: string }>> {
  const query = db
    .selectFrom('audit_log')
    .select(['id', 'at', 'detail'])
    .where('member_id', '=', memberId)
    .where('actor_type', '=', 'member')
    .where('action', 'in', [...OWN_ACTIONS])
    .orderBy('at', 'desc')
    .orderBy('id', 'desc');
  const rows = await (limit === undefined ? query : query.limit(limit)).execute();
  return rows.map((row) => ({ id: row.id, at: row.at, format: String(parsed(row.detail).format ?? 'json') }));
}

/** The mail each code purpose sends (src/server/routes: mailCode's templates). */
const CODE_TEMPLATES: Record<string, string> = { login: 'loginCode', email_register: 'registerCode', password_change: 'passwordResetCode', email_change: 'emailChangeCode' };

/** The mails sent to `address`, newest first: those queued in the outbox, and the code and link
 *  mails, sent at once, of which only the code's or link's row is kept (never the code). */
async function mailsTo(db: Db, address: string) {
  const [queued, codes, links] = await Promise.all([
    db.selectFrom('mail_outbox').select(['created_at', 'sent_at', 'template', 'values_json', 'to_address', 'status']).where('to_address', '=', address).execute(),
    db.selectFrom('email_codes').select(['created_at', 'purpose', 'email']).where('email', '=', address).execute(),
    db.selectFrom('registration_links').select(['created_at', 'email']).where('email', '=', address).execute(),
  ]);
  return [
    ...queued.map((m) => ({ created_at: m.created_at, sent_at: m.sent_at, subject: subjectOf(m.template, parsed(m.values_json) as Record<string, string | number>), to: m.to_address, status: m.status })),
    ...codes
      .filter((c) => CODE_TEMPLATES[c.purpose])
      .map((c) => ({ created_at: c.created_at, sent_at: c.created_at, subject: subjectOf(CODE_TEMPLATES[c.purpose]!, {}), to: c.email, status: 'sent' })),
    ...links.map((l) => ({ created_at: l.created_at, sent_at: l.created_at, subject: subjectOf('registerLink', {}), to: l.email, status: 'sent' })),
  ].sort((a, b) => b.created_at.localeCompare(a.created_at));
}

/** The member's disclosure, as of now. */
export async function disclosureOf(db: Db, set: SchemaSet, user: User, columnLabel?: (name: string) => string): Promise<Disclosure> {
  const at = iso(now());
  const masters = await optionLists(db, recordForms(set));
  const [applications, notices, inquiries, mails, sessions, devices, passkeys, withdrawals, requests, downloads, accesses, typeLabel, jobLabel, userTypeLabel] = await Promise.all([
    db.selectFrom('applications').selectAll().where('user_id', '=', user.id).execute().then(newestBy('applied_at')),
    db
      .selectFrom('notifications')
      .select(['created_at', 'message', 'retracted_at'])
      .where('user_id', '=', user.id)
      .where('created_at', '<=', at)
      .execute()
      .then(newestBy('created_at')),
    db.selectFrom('inquiries').selectAll().where('user_id', '=', user.id).execute().then(newestBy('created_at')),
    mailsTo(db, user.email),
    db.selectFrom('sessions').select(['created_at', 'expires_at', 'ends_at', 'revoked_at']).where('user_id', '=', user.id).execute().then(newestBy('created_at')),
    db.selectFrom('trusted_devices').select(['created_at', 'expires_at']).where('user_id', '=', user.id).execute().then(newestBy('created_at')),
    db
      .selectFrom('passkeys')
      .select(['name', 'created_at', 'last_used_at'])
      .where('owner_type', '=', 'member')
      .where('owner_id', '=', user.id)
      .execute()
      .then(newestBy('created_at')),
    db.selectFrom('withdrawals').select(['created_at', 'reason']).where('user_id', '=', user.id).execute().then(newestBy('created_at')),
    memberRequestsOf(db, user.id),
    downloadsOf(db, user.id).then((rows) => rows.map(({ at, format }) => ({ at, format }))),
    accessesOf(db, user.id, columnLabel),
    labels(db, 'inquiry_type'),
    labels(db, 'job'),
    labels(db, 'inquiry_user_category'),
  ]);
  const numbers = new Map(applications.map((a) => [a.id, a.register_number]));
  const decisions =
    applications.length === 0
      ? []
      : await db.selectFrom('application_decisions').select(['application_id', 'kind', 'decision', 'reason', 'at']).where('application_id', 'in', [...numbers.keys()]).execute().then(newestBy('at'));
  const inquiryIds = new Map(inquiries.map((i) => [i.id, i.ticket_no]));
  const answers =
    inquiries.length === 0
      ? []
      : await db.selectFrom('inquiry_answers').select(['inquiry_id', 'at', 'answer', 'note']).where('inquiry_id', 'in', [...inquiryIds.keys()]).execute().then(newestBy('at'));
  const profile = memberFieldValues(set, masters, user);
  const mailOpt = profile.find((row) => row.name === 'mail_opt');

  return {
    format: 'member-disclosure',
    version: 1,
    generated_at: at,
    account: [{ email: user.email, status: user.status, registered_at: user.created_at, updated_at: user.updated_at }],
    profile: profile.map((row) => ({ field: row.names.join(','), label: row.label, value: row.display, stored: row.value })),
    applications: applications.map((a) => ({ register_number: a.register_number.trim(), status: a.status, applied_at: a.applied_at, decided_at: a.decided_at })),
    decisions: decisions.map((d) => ({ register_number: (numbers.get(d.application_id) ?? '').trim(), kind: d.kind, decision: d.decision, reason: d.reason, at: d.at })),
    notices: notices.map((n) => ({ created_at: n.created_at, message: n.message, retracted_at: n.retracted_at ?? null })),
    inquiries: inquiries.map((i) => ({
      ticket_no: i.ticket_no,
      created_at: i.created_at,
      status: i.status,
      name: fullName(i),
      email: i.email,
      inquiry_user_type: userTypeLabel(i.inquiry_user_type),
      job: jobLabel(i.job),
      inquiry_type: typeLabel(i.inquiry_type),
      content: i.content,
    })),
    answers: answers.map((a) => ({ ticket_no: inquiryIds.get(a.inquiry_id) ?? '', at: a.at, answer: a.answer, note: a.note })),
    mails,
    consents: [
      { kind: 'terms', value: 'agreed', at: user.created_at },
      ...(mailOpt ? [{ kind: 'mail', value: mailOpt.value === '1' || mailOpt.value === 'true' ? 'agreed' : 'declined', at: user.updated_at }] : []),
      ...inquiries.map((i) => ({ kind: 'contactPrivacy', value: 'agreed', at: i.created_at })),
    ],
    sessions: sessions.map((s) => ({ created_at: s.created_at, expires_at: s.expires_at, ends_at: s.ends_at, revoked_at: s.revoked_at })),
    trusted_devices: devices,
    passkeys,
    withdrawals,
    requests: requests.map((r) => ({ id: r.id, kind: r.kind, text: r.text, created_at: r.created_at, due_at: r.due_at, status: r.status, handled_at: r.handled_at, answer: r.answer })),
    downloads,
    accesses: accesses.map(({ id: _id, ...access }) => access),
  };
}
