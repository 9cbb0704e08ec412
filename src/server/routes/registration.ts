// Registration: an address proven by a mailed code (POST /v1/email/register, /v1/email/verify),
// then the member and their application written in one transaction (POST /v1/user/register).
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import type { Db } from '../db/connect';
import { ApiError } from '../errors';
import { insertMember, isTaken } from '../registrations';
import { oldFlow } from '../old-flow';
import { unknownMasterFields } from '../masters';
import { hashCode } from '../services/secrets';
import { hashPassword } from '../services/passwords';
import { iso, inSeconds, now } from '../services/clock';
import type { RegistrationPayload } from '../../shared/api-types';
import messages from '../../../messages/ja.json';


const VERIFIED = 'email_register_verified';

export function registrationRoutes(app: FastifyInstance, ctx: AppContext) {
  const old = oldFlow(ctx);

  app.post('/v1/email/register', { config: { auth: 'client', limited: true } }, async (request) => {
    // The old e-mail authentication screen asks for a link (docs/decisions/006), checked by its
    // own form's schema.
    if ((request.body as { flow?: unknown } | null)?.flow === 'link') {
      const { email } = ctx.parse<{ email: string }>('form.email-auth.json', request.body);
      await old.mailLink(email);
      return { message: 'sent' };
    }
    const { email } = ctx.parse<{ email: string }>('api.email-register.json', request.body);
    // A registered address gets the same answer after the same work, and its owner hears that
    // someone tried to register it (no enumeration of members; docs/decisions/015).
    const taken = await isTaken(ctx.db, email);
    await ctx.codes.issue('email_register', email, null, taken ? { to: email, template: 'registerAttempted', decoy: true } : { to: email, template: 'registerCode' });
    return { message: 'sent' };
  });

  app.post('/v1/email/verify', { config: { auth: 'client', limited: true } }, async (request) => {
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

  app.post('/v1/user/register', { config: { auth: 'client', limited: true } }, async (request) => {
    const body = ctx.parse<RegistrationPayload>('api.user-register.json', request.body);
    const badMasters = await unknownMasterFields(ctx.db, body, messages.api.MASTER_UNKNOWN);
    if (badMasters) throw new ApiError('VALIDATION', badMasters);
    const findTicket = (db: Db) =>
      db
        .selectFrom('email_verifications')
        .select('id')
        .where('email', '=', body.email)
        .where('code_hash', '=', hashCode(ctx.secret, VERIFIED, body.email, body.verification_code))
        .where('used_at', 'is', null)
        .where('expires_at', '>', iso(now()))
        .executeTakeFirst();
    // The cheap check first: a registration without a verified address costs no argon2 hash.
    if (!(await findTicket(ctx.db))) throw new ApiError('VERIFICATION_REQUIRED');
    const passwordHash = await hashPassword(body.password);

    const { userId, welcomeId } = await insertMember(ctx.db, ctx.outbox, body, passwordHash, async (tx) => {
      const ticket = await findTicket(tx);
      if (!ticket) throw new ApiError('VERIFICATION_REQUIRED');
      const used = await tx.updateTable('email_verifications').set({ used_at: iso(now()) }).where('id', '=', ticket.id).where('used_at', 'is', null).executeTakeFirst();
      if (Number(used.numUpdatedRows) !== 1) throw new ApiError('VERIFICATION_REQUIRED');
    });

    const session = await ctx.sessions.open(userId);
    // The welcome mail was queued with the member; a relay outage only delays it (no error).
    await ctx.outbox.sendQueued(welcomeId);
    return { token: session.token, expires_in: session.expiresIn };
  });
}
