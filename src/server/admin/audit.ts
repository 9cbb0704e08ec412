// The audit log (docs/decisions/030): one row per operator action and per view, list view or
// export of a member's data, written in the same transaction as what it records, never updated or
// deleted (the database refuses: migration 014's triggers). The only way to it is audited(): the
// work and its entry in one transaction, by construction (Keycloak's AdminEventBuilder is the
// model): the work says what it touched, the wrapper writes who, when, from where and what. An
// action is a key of messages/admin.ja.json labels.actions (its type), so no entry goes unlabelled.
// The back office shows the log to `admin`.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/types';
import { iso, now } from '../services/clock';
import type { Role } from './permissions';

/** Who did it: an operator in the back office, or someone at the server's command line. */
export type AuditActor =
  | { type: 'operator'; id: string; email: string; name: string; role: Role }
  | { type: 'cli'; /** The system user running the tool (os.userInfo().username). */ user: string }
  /** The member themself, on their own data (a download of it: issue 37, ADR 040). */
  | { type: 'member'; id: string }
  | { type: 'system'; /** The server's own scheduled job that acted (e.g. 'retention', ADR 041). */ job: string };

/** Every key an entry's detail may hold. The back office's audit log shows each by its label
 *  (messages/admin.ja.json labels.auditDetail); a contract test fails on a key with none, so a
 *  new key is added here, and the type below refuses one that is not. */
export const AUDIT_DETAIL_KEYS = [
  'decision',
  'reason',
  'from',
  'answer',
  'to',
  'corrects',
  'note',
  'operator_id',
  'operator',
  'previous',
  'q',
  'page',
  'results',
  'columns',
  'filter',
  'rows',
  'audience',
  'register_number',
  'email',
  'recipients',
  'publish_at',
  'message',
  'name',
  'role',
  'status',
  'method',
  'passkey',
  'retracted',
  'sort',
  'format',
  'kind',
  'withdrawn_at',
  'retention_days',
] as const;
export type AuditDetail = { [key in (typeof AUDIT_DETAIL_KEYS)[number]]?: unknown };

/** What was done: a key of the actions' labels (messages/admin.ja.json labels.actions). */
export type AuditAction = keyof (typeof import('../../../messages/admin.ja.json'))['labels']['actions'];

export interface AuditEntry {
  actor: AuditActor;
  /** What was done, e.g. 'applications.approve', 'members.view', 'members.export'. */
  action: AuditAction;
  /** The member whose data was changed, viewed or exported, when there is one. */
  memberId?: string | null;
  /** What it was done to, as an operator reads it: a register number, a ticket number, a notice id. */
  target?: string | null;
  /** Anything more that says what was done (a reason, the filter of an export); no secrets. */
  detail?: AuditDetail;
  /** The address the request came from (request.ip); null from the command line and the server's jobs. */
  ip?: string | null;
}

export const actorLabel = (actor: AuditActor): string =>
  actor.type === 'operator' ? `${actor.name} <${actor.email}>` : actor.type === 'cli' ? `cli:${actor.user}` : actor.type === 'member' ? `member:${actor.id}` : `system:${actor.job}`;

/** Who does it and from where (an operator's request, or the command line with ip null). */
export interface AuditBy {
  actor: AuditActor;
  ip?: string | null;
}

/** What audited work answers: its result, and what it touched (the entry's member, target and detail). */
export interface Recorded<T> {
  result: T;
  memberId?: string | null;
  target?: string | null;
  detail?: AuditDetail;
  /** The members a list page or an export showed (none named in memberId): each gets a row of
   *  audit_members, so the member's "who looked" finds the entry (ADR 040). */
  members?: readonly string[];
}

/** Does `work` and appends its entry, in one transaction (the one `db` is, or a new one): the
 *  change and its record stand or fall together, and a view is recorded with what it read. */
export async function audited<T>(
  db: Kysely<Database>,
  by: AuditBy,
  action: AuditAction,
  /** `entry`: the id and time the entry will have (an export names them for the members it writes later). */
  work: (tx: Kysely<Database>, entry: { id: string; at: string }) => Promise<Recorded<T>>,
): Promise<T> {
  const run = async (tx: Kysely<Database>) => {
    const [id, at] = [randomUUID(), iso(now())];
    const done = await work(tx, { id, at });
    await append(tx, id, at, { actor: by.actor, ip: by.ip ?? null, action, memberId: done.memberId, target: done.target, detail: done.detail });
    await includeMembers(tx, id, at, done.members ?? []);
    return done.result;
  };
  return db.isTransaction ? run(db) : db.transaction().execute(run);
}

/** Appends one entry (only audited() calls it). */
async function append(db: Kysely<Database>, id: string, at: string, entry: AuditEntry): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      id,
      at,
      actor_type: entry.actor.type,
      operator_id: entry.actor.type === 'operator' ? entry.actor.id : null,
      actor_label: actorLabel(entry.actor),
      actor_role: entry.actor.type === 'operator' ? entry.actor.role : null,
      action: entry.action,
      member_id: entry.memberId ?? null,
      target: entry.target ?? null,
      detail: JSON.stringify(entry.detail ?? {}),
      ip: entry.ip ?? null,
    })
    .execute();
}

/** Rows of audit_members per statement. Each row lands at a random place of the member index,
 *  so a statement of 250 held SQLite's connection (the event loop) 50 ms and more on 100,000
 *  members; 25 rows, with a turn of the loop between statements, keep each hold short. */
const INCLUDED_PER_INSERT = 25;

/** Records that the entry `auditId` (made at `at`) showed `members`: a list page's rows in its
 *  transaction, an export's batch by batch as it writes them (each member once per entry). */
export async function includeMembers(db: Kysely<Database>, auditId: string, at: string, members: readonly string[]): Promise<void> {
  const unique = [...new Set(members)];
  for (let i = 0; i < unique.length; i += INCLUDED_PER_INSERT) {
    if (i > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    const rows = unique.slice(i, i + INCLUDED_PER_INSERT).map((member_id) => ({ audit_id: auditId, member_id, at }));
    await db.insertInto('audit_members').values(rows).onConflict((c) => c.doNothing()).execute();
  }
}
