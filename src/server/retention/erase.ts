// The retention run (docs/decisions/041): withdrawn members whose retention period has passed
// lose their personal data, and so do visitors' inquiries past theirs. What the statistics count
// is kept (registration time, purposes, desired municipality, the prefecture of the address, the
// birth month), as is what is no one's data (applications' numbers, statuses and dates); the rest
// of the member's row is blanked, their e-mail address becomes one that names only the row, and
// their sessions, trusted devices, passkeys, codes, search keys and personal notices go. Each
// erased member or inquiry gets one audit entry, in the transaction that erased it.
//
// Batches of RETENTION_BATCH rows (fewer on SQLite), one transaction each, read by keyset from a
// partial index of what is still to erase (migration 024), with a turn of the event loop between:
// a run never holds the event loop or a table long, and its cost grows with the rows due, not
// with the table.
// Every write is conditional on the row not being erased yet (and on PostgreSQL the rows are
// locked first), so two runs at once (two instances, the job and the command line) erase each
// row once and write one entry for it.
import { PostgresAdapter, sql, type ExpressionBuilder } from 'kysely';
import type { Db } from '../db/connect';
import type { Database, User } from '../db/types';
import { PROFILE_COLUMNS } from '../db/migrations';
import { audited } from '../admin/audit';
import type { Who } from '../admin/services/common';
import { statsPrefectureOf } from '../admin/services/stats';
import { iso, now } from '../services/clock';
import { cutoffOf, type RetentionPeriods } from './periods';

/** Rows per transaction. better-sqlite3 runs a transaction's statements without a turn of the
 *  event loop between them (each await is a microtask), so on SQLite a batch is as long as the
 *  loop is held: 200 members held it 37–114 ms, 20 hold it about 3–20 ms (ADR 041). PostgreSQL's
 *  statements wait on the network, and the loop turns between them. */
export const RETENTION_BATCH = { sqlite: 20, postgres: 200 } as const;

export interface ErasedMember {
  kind: 'member';
  id: string;
  /** The member's first register number, if they applied. */
  registerNumber: string | null;
  withdrawnAt: string;
}

export interface ErasedInquiry {
  kind: 'inquiry';
  id: string;
  ticketNo: string;
  updatedAt: string;
}

export type Erased = ErasedMember | ErasedInquiry;

export interface RetentionCounts {
  members: number;
  inquiries: number;
}

export interface RetentionOptions {
  periods: RetentionPeriods;
  /** Whom the audit entries name: the daily job or the command line. */
  who: Who;
  /** The instant the periods are counted back from. */
  at?: Date;
  /** Only read what is due: nothing is written. */
  dryRun?: boolean;
  batch?: number;
  /** Told of each member and inquiry erased (or due, when dry). */
  onErased?: (item: Erased) => void;
  /** Awaited after each batch (the daily job renews its claim there). */
  afterBatch?: () => Promise<void>;
}

/** The address an erased member's row keeps: unique, and naming nothing but the row (.invalid
 *  never delivers, RFC 2606). */
export const erasedEmail = (id: string): string => `erased-${id}@erased.invalid`;

/** The birthday the statistics' age bands are read from, kept to its month (ADR 041). */
export const birthMonthOf = (birthday: string): string => {
  const month = /^(\d{4}-\d{2})-\d{2}$/.exec(birthday)?.[1];
  return month ? `${month}-01` : '';
};

/** What kept of a member's row: every profile column blank but what the statistics read. */
export function erasedUser(row: Pick<User, 'id' | 'purpose' | 'city' | 'address_current' | 'birthday'>, at: string) {
  return {
    ...(Object.fromEntries(PROFILE_COLUMNS.map((column) => [column, ''])) as Record<(typeof PROFILE_COLUMNS)[number], string>),
    purpose: row.purpose,
    city: row.city,
    address_current: statsPrefectureOf(row.address_current) ?? '',
    birthday: birthMonthOf(row.birthday),
    email: erasedEmail(row.id),
    password_hash: '',
    attributes: '{}',
    erased_at: at,
    updated_at: at,
  };
}

const isPostgres = (db: Db) => db.getExecutor().adapter instanceof PostgresAdapter;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

interface Key {
  at: string;
  id: string;
}

/** Withdrawn members due at `cutoff` and not erased, after `after`, oldest withdrawal first
 *  (users_retention: status, withdrawn_at, id of the rows not erased). */
export function dueMembersQuery(db: Db, cutoff: string, after: Key | undefined, limit: number) {
  let query = db
    .selectFrom('users')
    .select(['id', 'withdrawn_at'])
    .where('status', '=', 'withdrawn')
    .where('erased_at', 'is', null)
    .where('withdrawn_at', '<=', cutoff);
  if (after) query = query.where((eb) => eb.or([eb('withdrawn_at', '>', after.at), eb.and([eb('withdrawn_at', '=', after.at), eb('id', '>', after.id)])]));
  return query.orderBy('withdrawn_at').orderBy('id').limit(limit);
}

/** Visitors' inquiries unchanged since `cutoff` and not erased, after `after` (inquiries_retention:
 *  user_id, updated_at, id of the visitors' inquiries not erased). */
export function dueInquiriesQuery(db: Db, cutoff: string, after: Key | undefined, limit: number) {
  let query = db.selectFrom('inquiries').select(['id', 'ticket_no', 'updated_at']).where('user_id', 'is', null).where('erased_at', 'is', null).where('updated_at', '<=', cutoff);
  if (after) query = query.where((eb) => eb.or([eb('updated_at', '>', after.at), eb.and([eb('updated_at', '=', after.at), eb('id', '>', after.id)])]));
  // user_id (null in every row read) leads the order as it leads the index, so neither database sorts.
  return query.orderBy('user_id').orderBy('updated_at').orderBy('id').limit(limit);
}

/** The first register number of each member. */
async function registerNumbersOf(db: Db, ids: string[]): Promise<Map<string, string>> {
  const rows = await db.selectFrom('applications').select(['user_id', 'register_number']).where('user_id', 'in', ids).orderBy('applied_at', 'desc').execute();
  return new Map(rows.map((row) => [row.user_id, row.register_number]));
}

/** The personal fields of inquiries blanked (the inquirer's name, address, job, text and the answer). */
const inquiryScrub = (at: string) => ({
  last_name_kanji: '',
  first_name_kanji: '',
  email: '',
  job: '',
  content: '',
  answer: sql<string | null>`case when answer is null then null else '' end`,
  erased_at: at,
});

/** Which mails were a person's: those to their address (before the next account with it was
 *  made, or about one inquiry, by its ticket number). */
type MailScope = { to: string; before?: string; ticketNo?: string };

const mailsOf = (scope: MailScope) => (eb: ExpressionBuilder<Database, 'mail_outbox'>) => {
  const terms = [eb('to_address', '=', scope.to)];
  if (scope.before !== undefined) terms.push(eb('created_at', '<', scope.before));
  if (scope.ticketNo !== undefined) terms.push(eb('values_json', 'like', `%"ticketNo":${JSON.stringify(scope.ticketNo)}%`));
  return eb.and(terms);
};

/** A person's mail: what was never sent is dropped; what went (or is going) keeps only that it
 *  went (template and times), to the erased row's address. */
async function scrubMails(tx: Db, scope: MailScope, erasedTo: string): Promise<void> {
  if (scope.to === '') return;
  await tx.deleteFrom('mail_outbox').where(mailsOf(scope)).where('status', 'in', ['queued', 'uncertain']).execute();
  await tx.updateTable('mail_outbox').set({ to_address: erasedTo, values_json: '{}' }).where(mailsOf(scope)).execute();
}

/** Everything of the erased members beside their row. */
async function eraseAround(tx: Db, ids: string[], at: string): Promise<void> {
  await tx.deleteFrom('sessions').where('user_id', 'in', ids).execute();
  await tx.deleteFrom('trusted_devices').where('user_id', 'in', ids).execute();
  await tx.deleteFrom('passkeys').where('owner_type', '=', 'member').where('owner_id', 'in', ids).execute();
  await tx.deleteFrom('webauthn_challenges').where('owner_id', 'in', ids).execute();
  await tx.deleteFrom('email_codes').where('user_id', 'in', ids).execute();
  await tx.deleteFrom('member_search').where('user_id', 'in', ids).execute();
  // Notices to the member alone (those to everyone are no one's data).
  await tx.deleteFrom('notifications').where('user_id', 'in', ids).execute();
  await tx.updateTable('withdrawals').set({ reason: '' }).where('user_id', 'in', ids).execute();
  await tx
    .updateTable('application_decisions')
    .set({ reason: '' })
    .where('application_id', 'in', (eb) => eb.selectFrom('applications').select('applications.id').where('applications.user_id', 'in', ids))
    .execute();
  const inquiries = (eb: ExpressionBuilder<Database, 'inquiry_answers'>) => eb.selectFrom('inquiries').select('inquiries.id').where('inquiries.user_id', 'in', ids);
  await tx.updateTable('inquiry_answers').set({ answer: '', note: sql<string | null>`case when note is null then null else '' end` }).where('inquiry_id', 'in', inquiries).execute();
  await tx.updateTable('inquiries').set(inquiryScrub(at)).where('user_id', 'in', ids).where('erased_at', 'is', null).execute();
}

/** Erases the due members among `ids`, in one transaction: each row not erased meanwhile (by
 *  another run) is erased, with what is around it and one audit entry. */
async function eraseMembers(db: Db, ids: string[], cutoff: string, options: RetentionOptions): Promise<ErasedMember[]> {
  return db.transaction().execute(async (tx) => {
    let query = tx.selectFrom('users').selectAll().where('id', 'in', ids).where('status', '=', 'withdrawn').where('erased_at', 'is', null).where('withdrawn_at', '<=', cutoff);
    if (isPostgres(tx)) query = query.forUpdate();
    const rows = await query.orderBy('withdrawn_at').orderBy('id').execute();
    if (rows.length === 0) return [];
    const numbers = await registerNumbersOf(tx, rows.map((row) => row.id));
    const at = iso(now());
    const erased: ErasedMember[] = [];
    for (const row of rows) {
      const done = await tx.updateTable('users').set(erasedUser(row, at)).where('id', '=', row.id).where('erased_at', 'is', null).executeTakeFirst();
      if (Number(done.numUpdatedRows) !== 1) continue;
      // The member's mail: to their address until the next account with it was made (the address
      // is free again at withdrawal, ADR 009: later mail to it is someone else's).
      const next = await tx
        .selectFrom('users')
        .select((eb) => eb.fn.min('created_at').as('at'))
        .where('email', '=', row.email)
        .where('created_at', '>', row.created_at)
        .executeTakeFirst();
      await scrubMails(tx, { to: row.email, ...(next?.at ? { before: next.at } : {}) }, erasedEmail(row.id));
      erased.push({ kind: 'member', id: row.id, registerNumber: numbers.get(row.id) ?? null, withdrawnAt: row.withdrawn_at! });
    }
    if (erased.length > 0) await eraseAround(tx, erased.map((member) => member.id), at);
    for (const member of erased) {
      await audited(tx, options.who, 'members.erase', async () => ({
        result: undefined,
        memberId: member.id,
        target: member.registerNumber,
        detail: { withdrawn_at: member.withdrawnAt, retention_days: options.periods.afterWithdrawalDays },
      }));
    }
    return erased;
  });
}

/** Erases the due visitors' inquiries among `ids`, in one transaction, one audit entry each. */
async function eraseInquiries(db: Db, ids: string[], cutoff: string, options: RetentionOptions): Promise<ErasedInquiry[]> {
  return db.transaction().execute(async (tx) => {
    let query = tx.selectFrom('inquiries').select(['id', 'ticket_no', 'email', 'updated_at']).where('id', 'in', ids).where('user_id', 'is', null).where('erased_at', 'is', null).where('updated_at', '<=', cutoff);
    if (isPostgres(tx)) query = query.forUpdate();
    const rows = await query.orderBy('updated_at').orderBy('id').execute();
    const at = iso(now());
    const erased: ErasedInquiry[] = [];
    for (const row of rows) {
      const done = await tx.updateTable('inquiries').set(inquiryScrub(at)).where('id', '=', row.id).where('erased_at', 'is', null).executeTakeFirst();
      if (Number(done.numUpdatedRows) !== 1) continue;
      await tx.updateTable('inquiry_answers').set({ answer: '', note: sql<string | null>`case when note is null then null else '' end` }).where('inquiry_id', '=', row.id).execute();
      // The acknowledgement and the answers mailed to the visitor carry the ticket number.
      await scrubMails(tx, { to: row.email, ticketNo: row.ticket_no }, erasedEmail(row.id));
      erased.push({ kind: 'inquiry', id: row.id, ticketNo: row.ticket_no, updatedAt: row.updated_at });
      await audited(tx, options.who, 'inquiries.erase', async () => ({
        result: undefined,
        target: row.ticket_no,
        detail: { retention_days: options.periods.visitorInquiryDays },
      }));
    }
    return erased;
  });
}

/** One kind's walk: due rows read `batch` at a time by keyset, each batch erased in its own
 *  transaction (or, dry, only reported), a turn of the event loop between. */
async function walk<Row extends { id: string }, Done extends Erased>(
  read: (after: Key | undefined, limit: number) => Promise<Row[]>,
  keyOf: (row: Row) => Key,
  erase: (ids: string[]) => Promise<Done[]>,
  due: (rows: Row[]) => Promise<Done[]>,
  options: RetentionOptions & { isPostgres: boolean },
): Promise<number> {
  const batch = options.batch ?? RETENTION_BATCH[options.isPostgres ? 'postgres' : 'sqlite'];
  let after: Key | undefined;
  let count = 0;
  for (;;) {
    const rows = await read(after, batch);
    if (rows.length === 0) return count;
    const done = options.dryRun ? await due(rows) : await erase(rows.map((row) => row.id));
    for (const item of done) options.onErased?.(item);
    count += done.length;
    if (!options.dryRun) await options.afterBatch?.();
    if (rows.length < batch) return count;
    after = keyOf(rows.at(-1)!);
    await nextTurn();
  }
}

/** The run: withdrawn members past their period, then visitors' inquiries past theirs. Returns
 *  how many were erased (or, dry, are due). */
export async function runRetention(db: Db, options: RetentionOptions): Promise<RetentionCounts> {
  const at = options.at ?? now();
  const memberCutoff = cutoffOf(options.periods.afterWithdrawalDays, at);
  const inquiryCutoff = cutoffOf(options.periods.visitorInquiryDays, at);
  const walking = { ...options, isPostgres: isPostgres(db) };
  const members = await walk(
    (after, limit) => dueMembersQuery(db, memberCutoff, after, limit).execute(),
    (row) => ({ at: row.withdrawn_at!, id: row.id }),
    (ids) => eraseMembers(db, ids, memberCutoff, options),
    async (rows): Promise<ErasedMember[]> => {
      const numbers = await registerNumbersOf(db, rows.map((row) => row.id));
      return rows.map((row) => ({ kind: 'member', id: row.id, registerNumber: numbers.get(row.id) ?? null, withdrawnAt: row.withdrawn_at! }));
    },
    walking,
  );
  const inquiries = await walk(
    (after, limit) => dueInquiriesQuery(db, inquiryCutoff, after, limit).execute(),
    (row) => ({ at: row.updated_at, id: row.id }),
    (ids) => eraseInquiries(db, ids, inquiryCutoff, options),
    async (rows): Promise<ErasedInquiry[]> => rows.map((row) => ({ kind: 'inquiry', id: row.id, ticketNo: row.ticket_no, updatedAt: row.updated_at })),
    walking,
  );
  return { members, inquiries };
}
