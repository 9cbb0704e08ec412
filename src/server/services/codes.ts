// One mechanism for every e-mail code, keyed by purpose (login, email_register,
// password_change, email_change). Limits come from config; the reasoning is docs/decisions/004.
import { randomInt, randomUUID } from 'node:crypto';
import type { Db } from '../db/connect';
import { ApiError } from '../errors';
import { hashCode, sameText } from './secrets';
import { iso, inSeconds, now } from './clock';
import type { RateLimits } from '../limits/rate-limits';
import type { Mailer, MailTemplate } from '../mail/mailer';

export type CodePurpose = 'login' | 'email_register' | 'password_change' | 'email_change';

export interface CodeLimits {
  secret: string;
  codeTtlSeconds: number;
  codeMaxAttempts: number;
  codesPerHour: number;
  /** Digits of a code: the schemas' code field says how many (src/server/schema-settings.ts). */
  codeLength: number;
}

/** How many different codes of `length` digits there are: the denominator of every guessing bound. */
export const codeSpace = (length: number) => 10 ** length;

/** Where a code goes: the address and the mail template that carries it. */
export interface CodeMail {
  to: string;
  template: MailTemplate;
  /** For an address that must not be told apart from a free one (already registered): the
   *  mail is a notice without a code, and the stored code matches no input. Everything else —
   *  quotas, timing, the answer — is the same as for a real code. */
  decoy?: boolean;
}

export function createCodes(db: Db, limits: CodeLimits, rateLimits: RateLimits, mailer: Mailer) {
  return {
    /** Mails a fresh code for (purpose, email) and, once the relay has accepted the mail, stores
     *  it in place of any earlier one. A failed send stores nothing: the earlier code stays
     *  valid and the hourly quota is not used. */
    async issue(purpose: CodePurpose, email: string, userId: string | null, mail: CodeMail): Promise<void> {
      const hourAgo = iso(new Date(now().getTime() - 3600_000));
      const { count } = await db
        .selectFrom('email_codes')
        .select((eb) => eb.fn.countAll<string | number>().as('count'))
        .where('email', '=', email)
        .where('purpose', '=', purpose)
        .where('created_at', '>', hourAgo)
        .executeTakeFirstOrThrow();
      if (Number(count) >= limits.codesPerHour) throw new ApiError('CODE_RATE_LIMITED');
      await rateLimits.hit('mail', 'all');

      const code = mail.decoy ? randomUUID() : String(randomInt(0, codeSpace(limits.codeLength))).padStart(limits.codeLength, '0');
      try {
        await mailer.send(mail.to, mail.template, mail.decoy ? {} : { code, minutes: Math.round(limits.codeTtlSeconds / 60) });
      } catch (error) {
        await rateLimits.giveBack('mail', 'all');
        throw error;
      }
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
    },

    /** Consumes the live code for (purpose, email) if `code` matches; otherwise counts a wrong try.
     *  Wrong: CODE_INVALID (400). The try that reaches the limit, and any after it: CODE_LOCKED (429). */
    async consume(purpose: CodePurpose, email: string, code: string): Promise<{ userId: string | null }> {
      // Every try counts against the address over all its codes (docs/decisions/015), before
      // anything is compared; a right code takes its try back.
      await rateLimits.hit('code', email);
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
        await rateLimits.giveBack('code', email);
        return { userId: row.user_id };
      }
      throw new ApiError(Number(reserved.attempts) >= limits.codeMaxAttempts ? 'CODE_LOCKED' : 'CODE_INVALID');
    },
  };
}

export type Codes = ReturnType<typeof createCodes>;
