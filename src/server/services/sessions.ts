import type { Db } from '../db/connect';
import type { Database, User } from '../db/types';
import { preparedQuery } from '../db/prepared-query';
import { ApiError } from '../errors';
import { hashToken, randomToken } from './secrets';
import { iso, inSeconds, now } from './clock';

/** The session behind a token hash and its member, read together: every member request makes
 *  this one query (the member's row is the request's, ADR 017). */
const sessionWithMember = preparedQuery<Database, User & { session_expires_at: string; session_revoked_at: string | null }, [string]>(
  (db, tokenHash) =>
    db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .selectAll('users')
      .select(['sessions.expires_at as session_expires_at', 'sessions.revoked_at as session_revoked_at'])
      .where('sessions.token_hash', '=', tokenHash),
  1,
);

export function createSessions(db: Db, sessionSeconds: number, trustedDeviceDays: number) {
  return {
    async open(userId: string): Promise<{ token: string; expiresIn: number }> {
      const token = randomToken();
      await db
        .insertInto('sessions')
        .values({
          token_hash: hashToken(token),
          user_id: userId,
          created_at: iso(now()),
          expires_at: inSeconds(sessionSeconds),
          revoked_at: null,
        })
        .execute();
      return { token, expiresIn: sessionSeconds };
    },

    /** The active member behind a bearer token, or 401. */
    async memberFor(token: string | undefined): Promise<User> {
      if (!token) throw new ApiError('UNAUTHENTICATED');
      const [row] = await sessionWithMember(db, hashToken(token));
      if (!row || row.session_revoked_at || row.status !== 'active') throw new ApiError('UNAUTHENTICATED');
      if (row.session_expires_at <= iso(now())) throw new ApiError('SESSION_EXPIRED');
      return row; // the member's row, with the two session columns beside it
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
