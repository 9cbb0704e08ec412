import type { Db } from '../db/connect';
import type { Database, User } from '../db/types';
import { preparedQuery } from '../db/prepared-query';
import { ApiError } from '../errors';
import { hashToken, randomToken } from './secrets';
import { iso, inSeconds, now } from './clock';

/** The session behind a token hash and its member, read together: every member request makes
 *  this one query (the member's row is the request's, ADR 017). */
const sessionWithMember = preparedQuery<
  Database,
  User & { session_expires_at: string; session_ends_at: string | null; session_revoked_at: string | null },
  [string]
>(
  (db, tokenHash) =>
    db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .selectAll('users')
      .select(['sessions.expires_at as session_expires_at', 'sessions.ends_at as session_ends_at', 'sessions.revoked_at as session_revoked_at'])
      .where('sessions.token_hash', '=', tokenHash),
  1,
);

/** A live session as a member request finds it: its member, its idle end and its absolute end. */
export interface LiveSession {
  member: User;
  expiresAt: string;
  endsAt: string;
}

/** Seconds from now until `at`, rounded down (the device ends a little early rather than late). */
export const secondsUntil = (at: string, from = now()): number => Math.max(0, Math.floor((Date.parse(at) - from.getTime()) / 1000));

const earlier = (a: string, b: string) => (a < b ? a : b);

/** A session slides: each member request moves its idle end to sessionSeconds from now, never
 *  past the absolute end fixed at login, sessionMaxSeconds after it (docs/decisions/024). The
 *  move is written when it gains at least a tenth of sessionSeconds (at most a minute), so an
 *  active member costs one UPDATE a minute, not one per request; the extend call always writes. */
export function createSessions(db: Db, { sessionSeconds, sessionMaxSeconds, trustedDeviceDays }: { sessionSeconds: number; sessionMaxSeconds: number; trustedDeviceDays: number }) {
  const writeStepMs = Math.min(60_000, sessionSeconds * 100);

  /** Moves the idle end forward (never back: a slower request racing a newer one loses). */
  async function slide(tokenHash: string, session: LiveSession, force: boolean): Promise<LiveSession> {
    const target = earlier(inSeconds(sessionSeconds), session.endsAt);
    if (target <= session.expiresAt) return session;
    if (!force && Date.parse(target) - Date.parse(session.expiresAt) < writeStepMs) return session;
    await db
      .updateTable('sessions')
      .set({ expires_at: target })
      .where('token_hash', '=', tokenHash)
      .where('revoked_at', 'is', null)
      .where('expires_at', '<', target)
      .execute();
    return { ...session, expiresAt: target };
  }

  /** The live session behind a bearer token, slid forward by this request; or 401:
   *  UNAUTHENTICATED (unknown, revoked, member gone), SESSION_LIMIT (the absolute end passed),
   *  SESSION_EXPIRED (the idle end passed). With `extend` the idle end is written whatever it gains. */
  async function check(token: string | undefined, { extend = false } = {}): Promise<LiveSession> {
    if (!token) throw new ApiError('UNAUTHENTICATED');
    const tokenHash = hashToken(token);
    const [row] = await sessionWithMember(db, tokenHash);
    if (!row || row.session_revoked_at || row.status !== 'active') throw new ApiError('UNAUTHENTICATED');
    const at = iso(now());
    const endsAt = row.session_ends_at ?? row.session_expires_at;
    if (endsAt <= at) throw new ApiError('SESSION_LIMIT');
    if (row.session_expires_at <= at) throw new ApiError('SESSION_EXPIRED');
    // The member's row, with the session columns beside it.
    return slide(tokenHash, { member: row, expiresAt: row.session_expires_at, endsAt }, extend);
  }

  return {
    check,

    async open(userId: string): Promise<{ token: string; expiresIn: number; endsIn: number }> {
      const token = randomToken();
      const at = now();
      await db
        .insertInto('sessions')
        .values({
          token_hash: hashToken(token),
          user_id: userId,
          created_at: iso(at),
          expires_at: inSeconds(sessionSeconds, at),
          ends_at: inSeconds(sessionMaxSeconds, at),
          revoked_at: null,
        })
        .execute();
      return { token, expiresIn: sessionSeconds, endsIn: sessionMaxSeconds };
    },

    /** The active member behind a bearer token, or 401 (the session slides as in `check`). */
    async memberFor(token: string | undefined): Promise<User> {
      return (await check(token)).member;
    },

    async revoke(token: string): Promise<void> {
      await db
        .updateTable('sessions')
        .set({ revoked_at: iso(now()) })
        .where('token_hash', '=', hashToken(token))
        .where('revoked_at', 'is', null)
        .execute();
    },

    async revokeAll(userId: string, except?: string): Promise<void> {
      let query = db
        .updateTable('sessions')
        .set({ revoked_at: iso(now()) })
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null);
      if (except) query = query.where('token_hash', '!=', hashToken(except));
      await query.execute();
    },

    async trustDevice(userId: string): Promise<{ token: string; maxAge: number }> {
      const token = randomToken();
      const maxAge = trustedDeviceDays * 86400;
      await db
        .insertInto('trusted_devices')
        .values({ token_hash: hashToken(token), user_id: userId, created_at: iso(now()), expires_at: inSeconds(maxAge) })
        .execute();
      return { token, maxAge };
    },

    async isTrusted(userId: string, token: string | undefined): Promise<boolean> {
      if (!token) return false;
      const row = await db
        .selectFrom('trusted_devices')
        .select('expires_at')
        .where('token_hash', '=', hashToken(token))
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return !!row && row.expires_at > iso(now());
    },
  };
}

export type Sessions = ReturnType<typeof createSessions>;
