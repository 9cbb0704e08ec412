// One mechanism for every e-mail code, keyed by purpose (login, email_register,
// password_change, email_change). Limits come from config; the reasoning is docs/decisions/004.
import { randomInt, randomUUID } from 'node:crypto';
import type { Db } from '../db/connect';
import { ApiError } from '../errors';
import { hashCode, sameText } from './secrets';
import { iso, inSeconds, now } from './clock';

export type CodePurpose = 'login' | 'email_register' | 'password_change' | 'email_change';

export interface CodeLimits {
  secret: string;
  codeTtlSeconds: number;
  codeMaxAttempts: number;
  codesPerHour: number;
  /** Digits of a code: the schemas' code field says how many (src/server/schema-settings.ts). */
  codeLength: number;
}

export function createCodes(db: Db, limits: CodeLimits) {
  return {
    /** A fresh code for (purpose, email); it replaces any earlier one. */
    async issue(purpose: CodePurpose, email: string, userId: string | null = null): Promise<string> {
      const hourAgo = iso(new Date(now().getTime() - 3600_000));
      const { count } = await db
        .selectFrom('email_codes')
        .select((eb) => eb.fn.countAll<string | number>().as('count'))
        .where('email', '=', email)
        .where('purpose', '=', purpose)
        .where('created_at', '>', hourAgo)
        .executeTakeFirstOrThrow();
      if (Number(count) >= limits.codesPerHour) throw new ApiError('CODE_RATE_LIMITED');

      const code = String(randomInt(0, 10 ** limits.codeLength)).padStart(limits.codeLength, '0');
      await db.transaction().execute(async (tx) => {
        await tx
          .updateTable('email_codes')
          .set({ consumed_at: iso(now()) })
          .where('email', '=', email)
          .where('purpose', '=', purpose)
          .where('consumed_at', 'is', null)
          .execute();
        await tx
          .insertInto('email_codes')
          .values({
            id: randomUUID(),
            purpose,
            email,
            user_id: userId,
            code_hash: hashCode(limits.secret, purpose, email, code),
            created_at: iso(now()),
            expires_at: inSeconds(limits.codeTtlSeconds),
            consumed_at: null,
          })
          .execute();
      });
      return code;
    },

    /** Consumes the live code for (purpose, email) if `code` matches; otherwise counts a wrong try.
     *  Wrong: CODE_INVALID (400). The try that reaches the limit, and any after it: CODE_LOCKED (429). */
    async consume(purpose: CodePurpose, email: string, code: string): Promise<{ userId: string | null }> {
      const row = await db
        .selectFrom('email_codes')
        .selectAll()
        .where('email', '=', email)
        .where('purpose', '=', purpose)
        .where('consumed_at', 'is', null)
        .orderBy('created_at', 'desc')
        .executeTakeFirst();
      if (!row || row.expires_at <= iso(now())) throw new ApiError('CODE_INVALID');

      // Reserve this try in one statement before comparing, so parallel guesses cannot all
      // read the same count and slip past the limit.
      const reserved = await db
        .updateTable('email_codes')
        .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
        .where('id', '=', row.id)
        .where('consumed_at', 'is', null)
        .where('attempts', '<', limits.codeMaxAttempts)
        .returning('attempts')
        .executeTakeFirst();
      if (!reserved) {
        const current = await db.selectFrom('email_codes').select('consumed_at').where('id', '=', row.id).executeTakeFirst();
        throw new ApiError(current?.consumed_at ? 'CODE_INVALID' : 'CODE_LOCKED');
      }

      if (sameText(row.code_hash, hashCode(limits.secret, purpose, email, code))) {
        const done = await db
          .updateTable('email_codes')
          .set({ consumed_at: iso(now()) })
          .where('id', '=', row.id)
          .where('consumed_at', 'is', null)
          .executeTakeFirst();
        if (Number(done.numUpdatedRows) !== 1) throw new ApiError('CODE_INVALID'); // used by a parallel request
        return { userId: row.user_id };
      }
      throw new ApiError(Number(reserved.attempts) >= limits.codeMaxAttempts ? 'CODE_LOCKED' : 'CODE_INVALID');
    },
  };
}

export type Codes = ReturnType<typeof createCodes>;
