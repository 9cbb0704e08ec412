// The audit log (docs/decisions/030): one row per operator action and per view or export of a
// member's data, written in the same transaction as what it records, never updated or deleted
// (the database refuses: migration 014's triggers). The back office and the command-line tool
// write it through recordAudit; the back office shows it to `admin`.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/types';
import { iso, now } from '../services/clock';
import type { Role } from './permissions';

/** Who did it: an operator in the back office, or someone at the server's command line. */
export type AuditActor =
  | { type: 'operator'; id: string; email: string; name: string; role: Role }
  | { type: 'cli'; /** The system user running the tool (os.userInfo().username). */ user: string };

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
] as const;
export type AuditDetail = { [key in (typeof AUDIT_DETAIL_KEYS)[number]]?: unknown };

export interface AuditEntry {
  actor: AuditActor;
  /** What was done, e.g. 'applications.approve', 'members.view', 'members.export'. */
  action: string;
  /** The member whose data was changed, viewed or exported, when there is one. */
  memberId?: string | null;
  /** What it was done to, as an operator reads it: a register number, a ticket number, a notice id. */
  target?: string | null;
  /** Anything more that says what was done (a reason, the filter of an export); no secrets. */
  detail?: AuditDetail;
  /** The address the request came from (request.ip); null from the command line. */
  ip?: string | null;
}

export const actorLabel = (actor: AuditActor): string => (actor.type === 'operator' ? `${actor.name} <${actor.email}>` : `cli:${actor.user}`);

/** Appends one entry. Pass the transaction that makes the change, so the two stand or fall together. */
export async function recordAudit(db: Kysely<Database>, entry: AuditEntry): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      id: randomUUID(),
      at: iso(now()),
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
