// Password reminder: identity (e-mail, birthday, phone) → a code to the address → a new
// password. An unknown address and a wrong birthday or phone get the same answer, after the
// same work, and guessing is throttled per address and requesting network.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { hashPassword } from '../services/passwords';
import { sameText } from '../services/secrets';
import { samePhone } from '../services/phone-match';
import { iso, now } from '../services/clock';
import { mailCode, useCode } from '../code-flow';
import { requesterOf } from '../limits/requester';
import type { VerifyFlow } from '../verify-flow';
import { apiBody } from '../route-schemas';
import { refusal } from '../server-checks';

const SCOPE = 'password_identity';

/** POST /v1/user/verify for a password change: identity check, then a code (routes/verify.ts). */
export const passwordChangeVerify: VerifyFlow = {
  auth: 'client',
  async handle(ctx, request, reply) {
    const { email, birthday, phone } = ctx.parse<{ email: string; birthday: string; phone: string }>(
      'api.user-verify-password-change.json',
      request.body,
    );
    // Wrong identities are counted per address and requesting network, recorded before anything
    // is compared, so parallel guesses each see the others; a right one takes its record back.
    // A stranger's guesses therefore hold only the stranger's network, never the member's own
    // reset: the identity is not the secret that matters, the mailed code is (docs/decisions/015).
    const scope = `${SCOPE}:${requesterOf(request).network}`;
    const attemptId = randomUUID();
    await ctx.db.insertInto('failed_attempts').values({ id: attemptId, scope, subject: email, created_at: iso(now()) }).execute();
    const hourAgo = iso(new Date(now().getTime() - 3600_000));
    const { attempts } = await ctx.db
      .selectFrom('failed_attempts')
      .select((eb) => eb.fn.countAll<string | number>().as('attempts'))
      .where('scope', '=', scope)
      .where('subject', '=', email)
      .where('created_at', '>', hourAgo)
      .executeTakeFirstOrThrow();
    if (Number(attempts) > ctx.config.limits.identityFailuresPerHour) throw refusal('identityFailures');

    const user = await ctx.db
      .selectFrom('users')
      .select(['id', 'email', 'birthday', 'phone'])
      .where('email', '=', email)
      .where('status', '=', 'active')
      .executeTakeFirst();
    // Both comparisons always run, against empty strings when there is no member.
    const birthdayOk = sameText(user?.birthday ?? '', birthday);
    const phoneOk = samePhone(user?.phone ?? '', phone);
    if (!user || !birthdayOk || !phoneOk) throw refusal('identityFailed');
    await ctx.db.deleteFrom('failed_attempts').where('id', '=', attemptId).execute();
    await mailCode(ctx, request, reply, { purpose: 'password_change', email: user.email, userId: user.id, mail: { to: user.email, template: 'passwordResetCode' } });
    return { message: 'sent' };
  },
};

export function passwordResetRoutes(app: FastifyInstance, ctx: AppContext) {
  app.post('/v1/user/set-password', { schema: { body: apiBody('api.user-set-password.json') }, config: { auth: 'client' } }, async (request) => {
    const { email, code, new_password: password } = request.body as { email: string; code: string; new_password: string };
    const { userId } = await useCode(ctx, request, 'password_change', email, code);
    if (!userId) throw refusal('codeWrong');
    const hash = await hashPassword(password);
    const noticeId = await ctx.db.transaction().execute(async (tx) => {
      const user = await tx.selectFrom('users').selectAll().where('id', '=', userId).where('status', '=', 'active').executeTakeFirst();
      if (!user) throw refusal('codeWrong');
      const at = iso(now());
      await tx.updateTable('users').set({ password_hash: hash, updated_at: at }).where('id', '=', userId).execute();
      // A reset is what a member does when someone else may know the password: sign out everywhere.
      await tx.updateTable('sessions').set({ revoked_at: at }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
      await tx.deleteFrom('trusted_devices').where('user_id', '=', userId).execute();
      return ctx.outbox.queue(tx, user.email, 'passwordChanged', { name: `${user.last_name_kanji} ${user.first_name_kanji}` });
    });
    // The member has proved the mailbox, and the password strangers were guessing is gone: the
    // slow-down on the address ends, and so does every network's run of wrong passwords for it.
    await ctx.limits.reset('passwordAddress', email);
    await ctx.limits.forgetEndingIn('password', email);
    await ctx.outbox.sendQueued(noticeId);
    return { message: 'changed' };
  });
}
