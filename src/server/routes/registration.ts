// Registration: an address proven by a mailed code (POST /v1/email/register, /v1/email/verify),
// then the member and their application written in one transaction (POST /v1/user/register).
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { ApiError } from '../errors';
import { emailTaken, insertMember, isTaken } from '../registrations';
import { unknownMasterFields } from '../masters';
import { oldFlow } from '../old-flow';
import { hashCode } from '../services/secrets';
import { hashPassword } from '../services/passwords';
import { iso, inSeconds, now } from '../services/clock';
import type { RegistrationPayload } from '../../shared/api-types';
import messages from '../../../messages/ja.json';


const VERIFIED = 'email_register_verified';

export function registrationRoutes(app: FastifyInstance, ctx: AppContext) {
  const old = oldFlow(ctx);

  app.post('/v1/email/register', { config: { auth: 'client' } }, async (request) => {
    // The old e-mail authentication screen asks for a link (docs/decisions/006), checked by its
    // own form's schema.
    if ((request.body as { flow?: unknown } | null)?.flow === 'link') {
      const { email } = ctx.parse<{ email: string }>('form.email-auth.json', request.body);
      await old.mailLink(email);
      return { message: 'sent' };
    }
    const { email } = ctx.parse<{ email: string }>('api.email-register.json', request.body);
    if (await isTaken(ctx.db, email)) throw emailTaken();
    const code = await ctx.codes.issue('email_register', email);
    await ctx.mailer.send(email, 'registerCode', { code, minutes: Math.round(ctx.config.codeTtlSeconds / 60) });
    return { message: 'sent' };
  });

  app.post('/v1/email/verify', { config: { auth: 'client' } }, async (request) => {
    const { key, email } = ctx.parse<{ key: string; email: string }>('api.email-verify.json', request.body);
    await ctx.codes.consume('email_register', email, key);
    await ctx.db
      .insertInto('email_verifications')
      .values({
        id: randomUUID(),
        email,
        code_hash: hashCode(ctx.secret, VERIFIED, email, key),
        verified_at: iso(now()),
        expires_at: inSeconds(ctx.config.verifiedEmailSeconds),
        used_at: null,
      })
      .execute();
    return { email };
  });

  app.post('/v1/user/register', { config: { auth: 'client' } }, async (request) => {
    const body = ctx.parse<RegistrationPayload>('api.user-register.json', request.body);
    const badMasters = await unknownMasterFields(ctx.db, body, messages.api.MASTER_UNKNOWN);
    if (badMasters) throw new ApiError('VALIDATION', badMasters);
    const passwordHash = await hashPassword(body.password);

    const { userId, number } = await insertMember(ctx.db, body, passwordHash, async (tx) => {
      const ticket = await tx
        .selectFrom('email_verifications')
        .select('id')
        .where('email', '=', body.email)
        .where('code_hash', '=', hashCode(ctx.secret, VERIFIED, body.email, body.verification_code))
        .where('used_at', 'is', null)
        .where('expires_at', '>', iso(now()))
        .executeTakeFirst();
      if (!ticket) throw new ApiError('VERIFICATION_REQUIRED');
      const used = await tx.updateTable('email_verifications').set({ used_at: iso(now()) }).where('id', '=', ticket.id).where('used_at', 'is', null).executeTakeFirst();
      if (Number(used.numUpdatedRows) !== 1) throw new ApiError('VERIFICATION_REQUIRED');
    });

    const session = await ctx.sessions.open(userId);
    // The member exists now; a failed welcome mail must not turn a registration into an error.
    await ctx.mailer
      .send(body.email, 'welcome', { name: `${body.last_name_kanji} ${body.first_name_kanji}`, registerNumber: number })
      .catch((error) => request.log.error({ err: error }, 'welcome mail failed'));
    return { token: session.token, expires_in: session.expiresIn };
  });
}
