// Opening and ending back-office sessions (docs/decisions/030). The cookie carries a random
// token; the database keeps only its hash, the CSRF token and the two ends.
import type { FastifyReply } from 'fastify';
import type { Db } from '../db/connect';
import { hashToken, randomToken } from '../services/secrets';
import { iso, inSeconds, now } from '../services/clock';
import { ADMIN_COOKIE, type AdminSettings } from './settings';

export interface OpenedSession {
  token: string;
  csrfToken: string;
  expiresAt: string;
  endsAt: string;
}

export async function openOperatorSession(db: Db, operatorId: string, settings: AdminSettings): Promise<OpenedSession> {
  const token = randomToken();
  const session = { token, csrfToken: randomToken(), expiresAt: inSeconds(settings.sessionSeconds), endsAt: inSeconds(settings.sessionMaxSeconds) };
  await db
    .insertInto('operator_sessions')
    .values({ token_hash: hashToken(token), operator_id: operatorId, csrf_token: session.csrfToken, created_at: iso(now()), expires_at: session.expiresAt, ends_at: session.endsAt, revoked_at: null })
    .execute();
  return session;
}

/** Ends every live session of an operator (disabling them, a new password). */
export async function endOperatorSessions(db: Db, operatorId: string): Promise<void> {
  await db.updateTable('operator_sessions').set({ revoked_at: iso(now()) }).where('operator_id', '=', operatorId).where('revoked_at', 'is', null).execute();
}

/** The cookie: HttpOnly, Secure, SameSite=Strict, Path=/ (a __Host- cookie), gone when the
 *  browser closes or the absolute end passes, whichever is first for the browser. */
export function setSessionCookie(reply: FastifyReply, session: OpenedSession): void {
  reply.setCookie(ADMIN_COOKIE, session.token, { httpOnly: true, secure: true, sameSite: 'strict', path: '/' });
}

export function clearSessionCookie(reply: FastifyReply): void {
  reply.clearCookie(ADMIN_COOKIE, { httpOnly: true, secure: true, sameSite: 'strict', path: '/' });
}
