// Registration: an address proven by a mailed code (POST /v1/email/register, /v1/email/verify),
// then the member and their application written in one transaction (POST /v1/user/register).
import { randomInt, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import type { Db } from '../db/connect';
import { ApiError } from '../errors';
import { isUniqueViolation, violatedKey } from '../db/errors';
import { hashCode } from '../services/secrets';
import { hashPassword } from '../services/passwords';
import { iso, inSeconds, japanDay, now } from '../services/clock';
import type { RegistrationForm } from '../../shared/wire/registration';
import messages from '../../../messages/ja.json';
import { apiBody } from '../route-schemas';


const VERIFIED = 'email_register_verified';

/** The registration as validated: the form's data and the payload's own fields. */
type Registration = RegistrationForm & { email: string; verification_code: string };

async function isTaken(db: Db, email: string): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').where('email', '=', email).where('status', '=', 'active').executeTakeFirst();
  return !!row;
}

export function registerNumber(at: Date): string {
  return `R${japanDay(at)}-${String(randomInt(0, 1_000_000)).padStart(6, '0')}`;
}

/** Runs the registration's transaction; a registration number drawn twice (one in a million a
 *  day) is drawn again, a second registration of one address racing the first answers
 *  EMAIL_TAKEN, and any other collision is an error, not a false "address taken". */
async function writeRetryingNumber<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const key = violatedKey(error);
      if (/register_number/.test(key) && attempt < 5) continue;
      if (/users_active_email|users\.email/.test(key)) throw new ApiError('EMAIL_TAKEN', { email: [messages.api.EMAIL_TAKEN] });
      throw error;
    }
  }
}

export function registrationRoutes(app: FastifyInstance, ctx: AppContext) {
  app.post('/v1/email/register', { schema: { body: apiBody('api.email-register.json') }, config: { auth: 'client', limited: true } }, async (request) => {
    const { email } = request.body as { email: string };
    // A registered address gets the same answer after the same work, and its owner hears that
    // someone tried to register it (no enumeration of members; docs/decisions/015).
    const taken = await isTaken(ctx.db, email);
    await ctx.codes.issue('email_register', email, null, taken ? { to: email, template: 'registerAttempted', decoy: true } : { to: email, template: 'registerCode' });
    return { message: 'sent' };
  });

  app.post('/v1/email/verify', { schema: { body: apiBody('api.email-verify.json') }, config: { auth: 'client', limited: true } }, async (request) => {
    const { code: key, email } = request.body as { code: string; email: string };
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

  app.post('/v1/user/register', { schema: { body: apiBody('api.user-register.json') }, config: { auth: 'client', limited: true } }, async (request) => {
    const body = request.body as Registration;
    await ctx.checkMasters('api.user-register.json', body);
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

    const write = () => ctx.db.transaction().execute(async (tx) => {
      const ticket = await findTicket(tx);
      if (!ticket) throw new ApiError('VERIFICATION_REQUIRED');
      if (await isTaken(tx, body.email)) throw new ApiError('EMAIL_TAKEN', { email: [messages.api.EMAIL_TAKEN] });

      const at = now();
      const id = randomUUID();
      await tx
        .insertInto('users')
        .values({
          id,
          email: body.email,
          status: 'active',
          password_hash: passwordHash,
          last_name_kanji: body.last_name_kanji,
          first_name_kanji: body.first_name_kanji,
          last_name_alpha: body.last_name_alphabet,
          first_name_alpha: body.first_name_alphabet,
          birthday: body.birthday,
          gender: body.gender,
          job: body.job,
          industry: body.industry,
          // Validation dropped the "other" texts whose choice is not made (src/shared/validation/conditions.ts).
          industry_other: body.industry_other ?? '',
          zip_current: body.zip_current,
          address_current: body.address_current,
          zip_second: '',
          address_second: '',
          amc: body.amc ?? '',
          phone: body.phone,
          purpose: body.purpose.join(','),
          purpose_detail: body.purpose_detail,
          purpose_other: body.purpose_other ?? '',
          mail_opt: body.mail_opt,
          created_at: iso(at),
          updated_at: iso(at),
          withdrawn_at: null,
        })
        .execute();
      const used = await tx.updateTable('email_verifications').set({ used_at: iso(at) }).where('id', '=', ticket.id).where('used_at', 'is', null).executeTakeFirst();
      if (Number(used.numUpdatedRows) !== 1) throw new ApiError('VERIFICATION_REQUIRED');
      const number = registerNumber(at);
      await tx.insertInto('applications').values({ id: randomUUID(), user_id: id, register_number: number, status: 'pending', applied_at: iso(at), decided_at: null }).execute();
      const name = `${body.last_name_kanji} ${body.first_name_kanji}`;
      return { userId: id, welcomeId: await ctx.outbox.queue(tx, body.email, 'welcome', { name, registerNumber: number }) };
    });
    const { userId, welcomeId } = await writeRetryingNumber(write);

    const session = await ctx.sessions.open(userId);
    // The welcome mail was queued with the member; a relay outage only delays it (no error).
    await ctx.outbox.sendQueued(welcomeId);
    return { token: session.token, expires_in: session.expiresIn };
  });
}
