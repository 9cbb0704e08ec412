// What the back office's services share: who acts (an operator from a request, or the
// command line), refusals that say what was not done, paging, and mail queued in the
// transaction of the change it tells of and tried once after the commit.
import os from 'node:os';
import type { Db } from '../../db/connect';
import { ApiError, type ErrorCode } from '../../errors';
import type { FieldErrors } from '../../../shared/validation/field-errors';
import type { Outbox } from '../../mail/outbox';
import type { AuditActor } from '../audit';
import type { MailOutcome } from '../../../shared/admin-api';

/** Who does something, and from where (null from the command line). */
export interface Who {
  actor: AuditActor;
  ip: string | null;
}

/** The command line's actor: the system user running the tool. */
export const cliWho = (): Who => ({ actor: { type: 'cli', user: os.userInfo().username }, ip: null });

export const operatorIdOf = (who: Who): string | null => (who.actor.type === 'operator' ? who.actor.id : null);

/** A refusal: the API's error (its Japanese message says nothing was changed) and what the
 *  command line needs to say it in its own words. */
export class RecordRefusal extends ApiError {
  constructor(
    code: ErrorCode,
    readonly info: Record<string, string | null> = {},
    fields?: FieldErrors,
  ) {
    super(code, fields);
  }
}

export interface Paging {
  page: number;
  size: number;
}

export const DEFAULT_SIZE = 20;

export const pagingOf = (query: { page?: number; size?: number }): Paging => ({ page: query.page ?? 1, size: query.size ?? DEFAULT_SIZE });

/** One try of a mail queued in a committed transaction; a failure leaves it to the worker. */
export async function tryMail(outbox: Outbox, id: string, to: string): Promise<MailOutcome> {
  const sent = await outbox.sendQueued(id).catch(() => false);
  return { id, to, status: sent ? 'sent' : 'queued' };
}

/** A number from count(*) (PostgreSQL answers bigint as text). */
export const countOf = (row: { count: string | number | bigint } | undefined): number => Number(row?.count ?? 0);

// The member search lives in ./member-search (stored keys read by prefix, ADR 032).
export { REGISTER_NUMBER, searchOf, type Search } from './member-search';

export type { Db };
