// Registration: an address proven by a mailed code (POST /v1/email/register, /v1/email/verify),
// then the member and their application written in one transaction (POST /v1/user/register).
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import type { Db } from '../db/connect';
import { insertMember, isTaken } from '../registrations';
import { oldFlow } from '../old-flow';
import { hashCode } from '../services/secrets';
import { hashPassword } from '../services/passwords';
import { iso, inSeconds, now } from '../services/clock';
import { apiBody, apiParams, apiResponse } from '../route-schemas';
import { formsOf } from '../validation';
import { memberStore } from '../member-store';
import { mailCode, useCode } from '../code-flow';
import { CODE_FLOW_HEADER, requesterOf } from '../limits/requester';
import { refusal } from '../server-checks';


const VERIFIED = 'email_register_verified';

/** The registration as validated: the form's data and the payload's own fields. */
type Registration = Record<string, unknown> & { email: string; verification_code: string; password: string };

export function registrationRoutes(app: FastifyInstance, ctx: AppContext) {
  const old = oldFlow(ctx);
  const store = memberStore(ctx.schemas);
  const [form] = formsOf(ctx.schemas.api['api.user-register.json']);

  // Two flows, as POST /v1/user/verify: the route schema judges only `flow`, the flow's own
  // payload schema the rest. "link" is the old e-mail authentication screen (docs/decisions/006).
  app.post('/v1/email/register', { schema: { body: apiParams(ctx.schemas, 'api.email-register-flow.json') }, config: { auth: 'client', limited: 'ip' } }, async (request, reply) => {
    if ((request.body as { flow?: unknown }).flow === 'link') {
      const { email } = ctx.parse<{ email: string }>('api.email-register-link.json', request.body);
      await old.mailLink(email, requesterOf(request).network);
      return { message: 'sent' };
    }
    const { email } = ctx.parse<{ email: string }>('api.email-register.json', request.body);
    // A registered address gets the same answer after the same work, and its owner hears that
    // someone tried to register it (no enumeration of members; docs/decisions/015).
    const taken = await isTaken(ctx.db, email);
    const mail = taken ? { to: email, template: 'registerAttempted' as const, decoy: true } : { to: email, template: 'registerCode' as const };
    await mailCode(ctx, request, reply, { purpose: 'email_register', email, userId: null, mail });
    return { message: 'sent' };
  });

  // The link mailed beside a registration or password-reset code (docs/decisions/015): a new flow
  // gets a fresh code for the address, which the screen fills in as if it had been typed. Anyone
  // can send keys blind, so it counts per IP; a link itself counts against nothing.
  const linkResponse = { 200: apiResponse(ctx.schemas, 'api.code-link-response.json') };
  app.post('/v1/email/link', { schema: { body: apiParams(ctx.schemas, 'api.code-link.json'), response: linkResponse }, config: { auth: 'client', limited: 'ip' } }, async (request, reply) => {
    const { key } = request.body as { key: string };
    const opened = await ctx.codes.openLink(key);
    reply.header(CODE_FLOW_HEADER, opened.flow);
    reply.header('cache-control', 'no-store');
    return { purpose: opened.purpose, email: opened.email, code: opened.code };
  });

  app.post('/v1/email/verify', { schema: { body: apiBody('api.email-verify.json') }, config: { auth: 'client' } }, async (request) => {
    const { code: key, email } = request.body as { code: string; email: string };
    await useCode(ctx, request, 'email_register', email, key);
    // The ticket belongs to the flow that verified the address, as its code did: only that flow
    // can register with it (nobody can guess a ticket from elsewhere).
    const flow = requesterOf(request).flow!;
    await ctx.db
      .insertInto('email_verifications')
      .values({
        id: randomUUID(),
        email,
        code_hash: hashCode(ctx.secret, VERIFIED, email, key),
        verified_at: iso(now()),
        expires_at: inSeconds(ctx.config.verifiedEmailSeconds),
        used_at: null,
        flow_hash: ctx.codes.flowHash(flow),
      })
      .execute();
    return { email };
  });

  app.post('/v1/user/register', { schema: { body: apiBody('api.user-register.json') }, config: { auth: 'client' } }, async (request) => {
    const body = request.body as Registration;
    await ctx.checkMasters('api.user-register.json', body);
    const { flow } = requesterOf(request);
    const findTicket = (db: Db) =>
      db
        .selectFrom('email_verifications')
        .select('id')
        .where('email', '=', body.email)
        .where('code_hash', '=', hashCode(ctx.secret, VERIFIED, body.email, body.verification_code))
        .where('flow_hash', '=', flow ? ctx.codes.flowHash(flow) : '')
        .where('used_at', 'is', null)
        .where('expires_at', '>', iso(now()))
        .executeTakeFirst();
    // The cheap check first: a registration without a verified address costs no argon2 hash.
    if (!(await findTicket(ctx.db))) throw refusal('verificationRequired');
    const passwordHash = await hashPassword(body.password);

    const { userId, registerNumber, welcomeId } = await insertMember(ctx.db, ctx.outbox, store, { email: body.email, form, data: body }, passwordHash, async (tx) => {
      const ticket = await findTicket(tx);
      if (!ticket) throw refusal('verificationRequired');
      const used = await tx.updateTable('email_verifications').set({ used_at: iso(now()) }).where('id', '=', ticket.id).where('used_at', 'is', null).executeTakeFirst();
      if (Number(used.numUpdatedRows) !== 1) throw refusal('verificationRequired');
    });

    const session = await ctx.sessions.open(userId);
    // The welcome mail was queued with the member; a relay outage only delays it (no error).
    await ctx.outbox.sendQueued(welcomeId);
    // The register number the welcome mail quotes: the completion dialog shows it at once.
    return { token: session.token, expires_in: session.expiresIn, ends_in: session.endsIn, register_number: registerNumber };
  });
}
