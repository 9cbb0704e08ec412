// /v1/admin/ accounts and sessions (docs/decisions/030): the set-up link, login (password, then
// a code mailed every time), who am I, logout, and the admin's operator management. Every
// change is audited once, in its transaction; a refusal changes nothing and is not audited, but
// the attempts it makes count against the limits (docs/decisions/015).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../errors';
import { apiBody } from '../../route-schemas';
import { canonicalEmail } from '../../../shared/canonical-email';
import { verifyPassword } from '../../services/passwords';
import { iso, now } from '../../services/clock';
import { networkOf } from '../../limits/requester';
import type { AdminContext } from '../context';
import type { Db } from '../../db/connect';
import { currentOperator, type OperatorActor } from '../guard';
import { audited, type AuditActor, type AuditDetail } from '../audit';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { clearSessionCookie, openOperatorSession, setSessionCookie } from '../sessions';
import {
  AccountRefusal,
  addOperator,
  completeSetup,
  disableOperator,
  listOperators,
  operatorActor,
  operatorById,
  renewSetupLink,
  requestPasswordReset,
  setupLinkOf,
  type Operator,
  type RefusalReason,
} from '../accounts';
import type { LoginCodeInput, LoginInput, LoginStarted, NewOperator, OperatorItem, OperatorList, PasswordResetInput, Role, SessionAnswer, SetupInput, SetupLink } from '../../../shared/admin-api';
import { refusal, SERVER_CHECKS } from '../../server-checks';

const REFUSALS: Record<Exclude<RefusalReason, 'notSaved'>, ConstructorParameters<typeof ApiError>[0]> = {
  exists: SERVER_CHECKS.operatorExists.answer,
  disabled: 'OPERATOR_DISABLED',
  self: 'OPERATOR_SELF',
  mail: 'SETUP_MAIL_FAILED',
  linkInvalid: SERVER_CHECKS.operatorSetupLinkInvalid.answer,
};

/** Runs an account change, its refusals as the API's errors. */
async function answering<T>(request: FastifyRequest, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof AccountRefusal)) throw error;
    // The database failed after the mail went: answered as that failure (503 while it is down).
    if (error.reason === 'notSaved') throw error.detail;
    if (error.reason === 'mail') request.log.error({ err: error.detail }, 'set-up link mail failed');
    throw new ApiError(REFUSALS[error.reason]);
  }
}

/** What an operator sees of another operator (never the password hash). */
const listed = (operator: Operator): OperatorItem => ({ id: operator.id, email: operator.email, name: operator.name, role: operator.role, status: operator.status, created_at: operator.created_at });

/** An answer with a session's secrets (the CSRF token) or an operator's data: no copy kept. */
const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store');

const activeOperator = (ctx: AdminContext, email: string) =>
  ctx.db.selectFrom('operators').select(['id', 'email', 'name', 'role', 'status', 'created_at', 'password_hash']).where('email', '=', email).where('status', '=', 'active').executeTakeFirst();

const OPERATOR_LOGIN = 'operator_login';

/** How long a network an operator logged in from stays theirs for the account-wide cap. */
const KNOWN_NETWORK_DAYS = 90;

const networkSubject = (operatorId: string) => `operator:${operatorId}`;

/** Whether the operator logged in from `network` within KNOWN_NETWORK_DAYS. */
async function isKnownNetwork(ctx: AdminContext, operatorId: string, network: string): Promise<boolean> {
  const since = iso(new Date(now().getTime() - KNOWN_NETWORK_DAYS * 86_400_000));
  const row = await ctx.db
    .selectFrom('known_networks')
    .select('network')
    .where('subject', '=', networkSubject(operatorId))
    .where('network', '=', network)
    .where('last_seen_at', '>', since)
    .executeTakeFirst();
  return row !== undefined;
}

/** Notes that the operator logged in from `network` (in the login's transaction). */
async function rememberNetwork(db: Db, operatorId: string, network: string): Promise<void> {
  const at = iso(now());
  await db
    .insertInto('known_networks')
    .values({ subject: networkSubject(operatorId), network, last_seen_at: at })
    .onConflict((oc) => oc.columns(['subject', 'network']).doUpdateSet({ last_seen_at: at }))
    .execute();
}

/** The operator behind a guarded request as the audit log names them (no session secrets). */
const auditActor = ({ id, email, name, role }: OperatorActor): AuditActor => ({ type: 'operator', id, email, name, role });

export function adminAuthRoutes(app: FastifyInstance, ctx: AdminContext): void {
  const { adminGuard, settings } = ctx.admin;
  const publicUrl = ctx.config.publicUrl;
  const change = (request: FastifyRequest) => ({ actor: auditActor(currentOperator(request)), ip: request.ip });

  // ---------------------------------------------------------------------------------------------
  // The set-up link: checked any number of times while it lives (opening the page, a reload),
  // used up by the password it sets.

  app.get('/v1/admin/setup', { config: { limited: 'ip' } }, async (request, reply): Promise<SetupLink> => {
    const { key } = (request.query ?? {}) as { key?: unknown };
    const { operator } = await answering(request, () => setupLinkOf(ctx.db, key));
    noStore(reply);
    return { email: operator.email, name: operator.name };
  });

  app.post('/v1/admin/setup', { schema: { body: apiBody('api.admin-setup.json') }, config: { limited: 'ip' } }, async (request, reply) => {
    const { key, password } = request.body as SetupInput;
    await answering(request, () => completeSetup(ctx.db, key, password, request.ip));
    return reply.code(204).send();
  });

  // ---------------------------------------------------------------------------------------------
  // The operator's own password reset (the login page's 'forgot your password' link): an address in,
  // the same answer after the same wait whoever it belongs to; an active operator's gets a link
  // like the set-up link (an hour, once), which sets a new password, ends every session of theirs
  // and the wrong-password counts on the address, and is audited (operators.password_reset).

  app.post('/v1/admin/password-reset', { schema: { body: apiBody('api.admin-password-reset.json') }, config: { limited: 'ip' } }, async (request, reply) => {
    const { email } = request.body as PasswordResetInput;
    // At most CODES_PER_HOUR reset mails an hour to one address, however many networks ask:
    // counted for every address alike, so the refusal tells nobody whose address it is.
    await ctx.limits.hit('recipient', `operator-reset:${canonicalEmail(email)}`);
    try {
      await requestPasswordReset(ctx.db, ctx.mailer, publicUrl, email);
    } catch (error) {
      // The relay failed (both ways alike): said as a mail failure, with no word of whose address.
      if (error instanceof AccountRefusal && error.reason === 'mail') {
        request.log.error({ err: error.detail }, 'password reset mail failed');
        throw new ApiError('MAIL_FAILED');
      }
      if (error instanceof AccountRefusal && error.reason === 'notSaved') throw error.detail;
      throw error;
    }
    return reply.code(202).send({});
  });

  app.get('/v1/admin/password-reset/link', { config: { limited: 'ip' } }, async (request, reply): Promise<SetupLink> => {
    const { key } = (request.query ?? {}) as { key?: unknown };
    const { operator } = await answering(request, () => setupLinkOf(ctx.db, key, 'reset'));
    noStore(reply);
    return { email: operator.email, name: operator.name };
  });

  app.post('/v1/admin/password-reset/link', { schema: { body: apiBody('api.admin-password-reset-link.json') }, config: { limited: 'ip' } }, async (request, reply) => {
    const { key, password } = request.body as SetupInput;
    const operator = await answering(request, () => completeSetup(ctx.db, key, password, request.ip, 'reset'));
    // The operator has proved the mailbox, and a password strangers may have been guessing is gone.
    await ctx.limits.reset('passwordAddress', `operator:${operator.email}`);
    await ctx.limits.forgetEndingIn('password', operator.email);
    return reply.code(204).send();
  });

  // ---------------------------------------------------------------------------------------------
  // Login: the password, then a code mailed to the operator every time.

  app.post('/v1/admin/login', { schema: { body: apiBody('api.admin-login.json') }, config: { limited: 'ip' } }, async (request, reply): Promise<LoginStarted> => {
    const { email, password } = request.body as LoginInput;
    const network = networkOf(request.ip);
    const operator = await activeOperator(ctx, email);
    // Wrong passwords count per requesting network and address, before the password is compared
    // (parallel tries all count): a stranger's guesses hold the stranger's network, never the
    // operator's own. Over every network they slow further tries down, tell the operator once a
    // day, and past the account-wide cap only networks the operator has logged in from are heard
    // (NIST SP 800-63B-4 §3.2.2), so the office is never locked out. A password alone opens
    // nothing; the code or passkey is reached only through it (docs/decisions/015, 030).
    const scope = `operator:${email}`;
    if ((await ctx.limits.peek('passwordAddress', scope)) >= ctx.config.limits.operatorPasswordCap && !(operator && (await isKnownNetwork(ctx, operator.id, network)))) {
      throw refusal('operatorPasswordCap');
    }
    // The same answer, after the same work, for an unknown address, an operator not yet set up
    // or disabled, and a wrong password.
    const found = await ctx.passwords.attempt(
      { key: `operator:${network}:${email}`, scope, tell: operator ? (failures) => ctx.notices.note(operator.email, 'operatorLoginAttempted', failures) : undefined },
      async () => ((await verifyPassword(operator?.password_hash ?? undefined, password)) && operator ? operator : undefined),
    );
    if (!found) throw refusal('operatorLoginFailed');
    const flow = await ctx.codes.issue(OPERATOR_LOGIN, found.email, null, { to: found.email, template: 'operatorLoginCode' }, { network, flow: undefined });
    noStore(reply);
    return { flow, passkey: await ctx.passkeys.has({ type: 'operator', id: found.id }) };
  });

  /** The address a live login flow's code was mailed to (every login starts a new flow). */
  const pendingLogin = (flow: string) =>
    ctx.db
      .selectFrom('email_codes')
      .select(['email', 'expires_at'])
      .where('flow_hash', '=', ctx.codes.flowHash(flow))
      .where('purpose', '=', OPERATOR_LOGIN)
      .where('consumed_at', 'is', null)
      .executeTakeFirst();

  /** Opens the operator's session, with its audit entry, and answers as the login does. */
  async function openSession(request: FastifyRequest, reply: FastifyReply, operator: Operator, detail?: AuditDetail): Promise<SessionAnswer> {
    const actor = operatorActor(operator);
    const session = await audited(ctx.db, { actor, ip: request.ip }, 'session.login', async (tx) => {
      const opened = await openOperatorSession(tx, operator.id, settings);
      await rememberNetwork(tx, operator.id, networkOf(request.ip));
      return { result: opened, target: operator.email, ...(detail ? { detail } : {}) };
    });
    setSessionCookie(reply, session);
    noStore(reply);
    return {
      operator: { id: operator.id, email: operator.email, name: operator.name, role: operator.role as Role },
      csrfToken: session.csrfToken,
      expiresAt: session.expiresAt,
      endsAt: session.endsAt,
    };
  }

  // The second factor by passkey instead of the mailed code (docs/decisions/031): only after the
  // right password (a live login flow), only that operator's passkeys, the challenge bound to the
  // flow. Not counted per IP and no attempt counter: a passkey cannot be guessed.
  app.post('/v1/admin/login/passkey/options', { schema: { body: apiBody('api.admin-passkey-options.json') } }, async (request, reply) => {
    const { flow } = request.body as { flow: string };
    const pending = await pendingLogin(flow);
    const operator = pending && pending.expires_at > iso(now()) && (await activeOperator(ctx, pending.email));
    if (!operator || !(await ctx.passkeys.has({ type: 'operator', id: operator.id }))) throw new ApiError('PASSKEY_FAILED');
    noStore(reply);
    return ctx.passkeys.authenticationOptions('operator', { owner: { type: 'operator', id: operator.id }, flowHash: ctx.codes.flowHash(flow) });
  });

  app.post('/v1/admin/login/passkey', { schema: { body: apiBody('api.admin-passkey-login.json') } }, async (request, reply): Promise<SessionAnswer> => {
    const { flow, response } = request.body as { flow: string; response: AuthenticationResponseJSON };
    const pending = await pendingLogin(flow);
    const operator = pending && pending.expires_at > iso(now()) && (await activeOperator(ctx, pending.email));
    if (!operator) throw new ApiError('PASSKEY_FAILED');
    const passkey = await ctx.passkeys.authenticate('operator', response, ctx.codes.flowHash(flow));
    if (passkey.owner_id !== operator.id) throw new ApiError('PASSKEY_FAILED');
    // The mailed code of this flow is no longer needed, and no longer usable.
    await ctx.db.updateTable('email_codes').set({ consumed_at: iso(now()) }).where('flow_hash', '=', ctx.codes.flowHash(flow)).where('purpose', '=', OPERATOR_LOGIN).where('consumed_at', 'is', null).execute();
    return openSession(request, reply, operator, { method: 'passkey', passkey: passkey.name });
  });

  app.post('/v1/admin/login/code', { schema: { body: apiBody('api.admin-login-code.json') }, config: { limited: 'ip' } }, async (request, reply): Promise<SessionAnswer> => {
    const { flow, code } = request.body as LoginCodeInput;
    // The flow names the address its code was mailed to (every login starts a new flow, so a
    // flow holds one code); a flow with no live login code is a wrong code that costs nothing
    // (docs/decisions/015).
    const pending = await pendingLogin(flow);
    if (!pending) throw refusal('codeWrong');
    // Disabled since the code was mailed: answered as a wrong code.
    await ctx.codes.consume(OPERATOR_LOGIN, pending.email, code, flow, async () => (await activeOperator(ctx, pending.email)) !== undefined);
    const operator = await activeOperator(ctx, pending.email);
    if (!operator) throw refusal('codeWrong');
    return openSession(request, reply, operator);
  });

  // ---------------------------------------------------------------------------------------------
  // The session: who am I, logout.

  app.get('/v1/admin/session', { preValidation: adminGuard('session.own') }, async (request, reply): Promise<SessionAnswer> => {
    const operator = currentOperator(request);
    noStore(reply);
    return {
      operator: { id: operator.id, email: operator.email, name: operator.name, role: operator.role },
      csrfToken: operator.csrfToken,
      expiresAt: operator.expiresAt,
      endsAt: operator.endsAt,
    };
  });

  app.post('/v1/admin/logout', { preValidation: adminGuard('session.own') }, async (request, reply) => {
    const operator = currentOperator(request);
    await audited(ctx.db, { actor: auditActor(operator), ip: request.ip }, 'session.logout', async (tx) => {
      await tx.updateTable('operator_sessions').set({ revoked_at: iso(now()) }).where('token_hash', '=', operator.sessionTokenHash).where('revoked_at', 'is', null).execute();
      return { result: undefined, target: operator.email };
    });
    clearSessionCookie(reply);
    return reply.code(204).send();
  });

  // ---------------------------------------------------------------------------------------------
  // Operators (admin only).

  app.get('/v1/admin/operators', { preValidation: adminGuard('operators.manage') }, async (_request, reply): Promise<OperatorList> => {
    noStore(reply);
    return { items: (await listOperators(ctx.db)).map(listed) };
  });

  // Adding and a new link mail: counted per IP as every mailing route is (docs/decisions/015).
  app.post('/v1/admin/operators', { preValidation: adminGuard('operators.manage'), schema: { body: apiBody('api.admin-operator-add.json') }, config: { limited: 'operator' } }, async (request, reply) => {
    const input = request.body as NewOperator;
    const operator = await answering(request, () => addOperator(ctx.db, ctx.mailer, publicUrl, input, change(request)));
    return reply.code(201).send({ operator: listed(operator) });
  });

  const target = async (request: FastifyRequest) => {
    const operator = await operatorById(ctx.db, (request.params as { id: string }).id);
    if (!operator) throw new ApiError('NOT_FOUND');
    return operator;
  };

  app.post('/v1/admin/operators/:id/disable', { preValidation: adminGuard('operators.manage'), config: { limited: 'operator' } }, async (request, reply) => {
    const operator = await target(request);
    await answering(request, () => disableOperator(ctx.db, operator, change(request)));
    return reply.code(204).send();
  });

  app.post('/v1/admin/operators/:id/setup-link', { preValidation: adminGuard('operators.manage'), config: { limited: 'operator' } }, async (request, reply) => {
    const operator = await target(request);
    await answering(request, () => renewSetupLink(ctx.db, ctx.mailer, publicUrl, operator, change(request)));
    return reply.code(204).send();
  });
}
