// A member's own account: changing the e-mail address with a code sent to the new address,
// and withdrawing.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { ApiError } from '../errors';
import { bearerToken, currentMember } from '../auth';
import { hashToken } from '../services/secrets';
import { mailCode, useCode } from '../code-flow';
import { isUniqueViolation } from '../db/errors';
import { verifyPassword } from '../services/passwords';
import { iso, now } from '../services/clock';
import type { VerifyFlow } from '../verify-flow';
import messages from '../../../messages/ja.json';
import { apiBody } from '../route-schemas';
import { writeSearchKeys } from '../member-search-keys';
import { refusal } from '../server-checks';

const taken = () => refusal('emailTaken', { email: [messages.api.EMAIL_TAKEN] });

/** POST /v1/user/verify for an e-mail change: a code to the new address (routes/verify.ts). */
export const emailChangeVerify: VerifyFlow = {
  auth: 'member',
  async handle(ctx, request, reply) {
    const { email } = ctx.parse<{ email: string }>('api.user-verify-email-change.json', request.body);
    const member = currentMember(request);
    const owner = await ctx.db.selectFrom('users').select('id').where('email', '=', email).where('status', '=', 'active').executeTakeFirst();
    // Another member's address gets the same answer after the same work, and that member hears
    // of the attempt (no enumeration of members; docs/decisions/015).
    const mail = owner ? { to: email, template: 'emailChangeAttempted' as const, decoy: true } : { to: email, template: 'emailChangeCode' as const };
    await mailCode(ctx, request, reply, { purpose: 'email_change', email, userId: member.id, mail });
    return { message: 'sent' };
  },
};

export function accountRoutes(app: FastifyInstance, ctx: AppContext) {
  app.post('/v1/user/email/change', { schema: { body: apiBody('api.user-email-change.json') }, config: { auth: 'member' } }, async (request) => {
    const { email, code } = request.body as { email: string; code: string };
    const member = currentMember(request);
    // The code belongs to the flow (the member's tab) that asked for it, and to the member.
    await useCode(ctx, request, 'email_change', email, code, async (userId) => userId === member.id);
    const noticeId = await ctx.db
      .transaction()
      .execute(async (tx) => {
        const owner = await tx.selectFrom('users').select('id').where('email', '=', email).where('status', '=', 'active').executeTakeFirst();
        if (owner) throw taken();
        const at = iso(now());
        await tx.updateTable('users').set({ email, updated_at: at }).where('id', '=', member.id).execute();
        await writeSearchKeys(tx, member.id);
        // Whatever was pending for the old address (a login or reset code) dies with it, and
        // devices trusted under the old address must prove the new one with a code.
        await tx.updateTable('email_codes').set({ consumed_at: at }).where('email', '=', member.email).where('consumed_at', 'is', null).execute();
        await tx.deleteFrom('trusted_devices').where('user_id', '=', member.id).execute();
        // As after a reset: every other session ends (whoever held one knew the old address),
        // this one goes on.
        await tx
          .updateTable('sessions')
          .set({ revoked_at: at })
          .where('user_id', '=', member.id)
          .where('revoked_at', 'is', null)
          .where('token_hash', '!=', hashToken(bearerToken(request)!))
          .execute();
        // The old address hears of the change, so a hijacked account does not go unnoticed;
        // queued with the change itself, so the one is never without the other.
        return ctx.outbox.queue(tx, member.email, 'emailChanged', { name: `${member.last_name_kanji} ${member.first_name_kanji}`, newEmail: email });
      })
      .catch((error: unknown) => {
        throw isUniqueViolation(error) ? taken() : error;
      });
    await ctx.outbox.sendQueued(noticeId);
    return { email };
  });

  app.post('/v1/user/withdraw', { schema: { body: apiBody('api.user-withdraw.json') }, config: { auth: 'member' } }, async (request) => {
    const { password, reason = '' } = request.body as { password: string; reason?: string };
    const member = currentMember(request);
    // Only the session's holder types here: their wrong passwords count against this member's
    // withdrawal alone, never against the address's login (docs/decisions/015).
    const right = await ctx.passwords.attempt({ key: `withdraw:${member.id}` }, async () => ((await verifyPassword(member.password_hash, password)) ? true : undefined));
    if (!right) throw refusal('wrongPassword', { password: [messages.api.WRONG_PASSWORD] });
    const at = iso(now());
    const noticeId = await ctx.db.transaction().execute(async (tx) => {
      const done = await tx
        .updateTable('users')
        .set({ status: 'withdrawn', withdrawn_at: at, updated_at: at })
        .where('id', '=', member.id)
        .where('status', '=', 'active')
        .executeTakeFirst();
      // A second request racing the first (a double click) finds the member already gone.
      if (Number(done.numUpdatedRows) !== 1) throw new ApiError('UNAUTHENTICATED');
      await tx.insertInto('withdrawals').values({ id: randomUUID(), user_id: member.id, reason, created_at: at }).execute();
      await tx.updateTable('sessions').set({ revoked_at: at }).where('user_id', '=', member.id).where('revoked_at', 'is', null).execute();
      await tx.deleteFrom('trusted_devices').where('user_id', '=', member.id).execute();
      // A withdrawn member has no way in: their passkeys go with the account (ADR 031).
      await tx.deleteFrom('passkeys').where('owner_type', '=', 'member').where('owner_id', '=', member.id).execute();
      return ctx.outbox.queue(tx, member.email, 'withdrawn', { name: `${member.last_name_kanji} ${member.first_name_kanji}` });
    });
    await ctx.outbox.sendQueued(noticeId);
    return { message: 'withdrawn' };
  });
}
