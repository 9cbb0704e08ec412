// Login in two steps (password, then a mailed code), the trusted-device shortcut, and logout.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { ApiError } from '../errors';
import { verifyPassword } from '../services/passwords';
import { bearerToken, tellSessionTimes } from '../auth';
import type { VerifyFlow } from '../verify-flow';
import { apiBody, apiResponse } from '../route-schemas';
import { mailCode, useCode } from '../code-flow';
import { hashToken } from '../services/secrets';
import { secondsUntil } from '../services/sessions';
import { networkOf } from '../limits/requester';
import { refusal } from '../server-checks';

export const TRUSTED_DEVICE_COOKIE = 'ms_trusted_device';

interface Credentials {
  email: string;
  password: string;
  code?: string;
}

function activeByEmail(ctx: AppContext, email: string) {
  return ctx.db.selectFrom('users').select(['id', 'email', 'password_hash']).where('email', '=', email).where('status', '=', 'active').executeTakeFirst();
}

const deviceCookie = (request: FastifyRequest): string | undefined => request.server.parseCookie(request.headers.cookie ?? '')[TRUSTED_DEVICE_COOKIE];

/** The active member with these credentials, or LOGIN_FAILED (same answer, same time, whether
 *  the address is unknown or the password wrong). Every try counts before the password is
 *  compared, and a right password ends the run of wrong ones (docs/decisions/015): refused only
 *  per address and requesting network (a stranger's guesses hold the stranger's network), or,
 *  from a device this member trusted, per that device alone; address-wide, wrong passwords only
 *  slow further checks down and tell the member once a day. */
async function checkCredentials(ctx: AppContext, request: FastifyRequest, { email, password }: Credentials) {
  const user = await activeByEmail(ctx, email);
  const device = deviceCookie(request);
  const trusted = !!(user && device && (await ctx.sessions.isTrusted(user.id, device)));
  const attempt = trusted
    ? { key: `device:${hashToken(device!)}` }
    : { key: `${networkOf(request.ip)}:${email}`, scope: email, tell: user ? (failures: number) => ctx.notices.note(user.email, 'loginAttempted', failures) : undefined };
  const found = await ctx.passwords.attempt(attempt, async () => ((await verifyPassword(user?.password_hash, password)) && user ? user : undefined));
  if (!found) throw refusal('loginFailed');
  return found;
}

/** POST /v1/user/verify for login: check the password, then mail a code (routes/verify.ts). */
export const loginVerify: VerifyFlow = {
  auth: 'client',
  async handle(ctx, request, reply) {
    const body = ctx.parse<Credentials>('api.user-verify-login.json', request.body);
    const user = await checkCredentials(ctx, request, body);
    await mailCode(ctx, request, reply, { purpose: 'login', email: user.email, userId: user.id, mail: { to: user.email, template: 'loginCode' } });
    return { message: 'sent' };
  },
};

// The earliest login (the old login screen): {email} alone asks for a code; the password is
// checked by the login call. The answer is the same for a member's address and any other: an
// unknown address is told by mail that it is not registered, after the same work. Since anyone
// can ask, these mails come from their own small budget (per address and day, per network),
// which cannot use up the login's.
export const loginEmailVerify: VerifyFlow = {
  auth: 'client',
  async handle(ctx, request, reply) {
    // Anyone can ask this without a credential: it counts against the client's IP (ip-limit.ts).
    await ctx.limits.hit('ip', request.ip);
    const { email } = ctx.parse<{ email: string }>('api.user-verify-login-email.json', request.body);
    const user = await ctx.db.selectFrom('users').select('id').where('email', '=', email).where('status', '=', 'active').executeTakeFirst();
    const mail = user ? { to: email, template: 'loginCode' as const } : { to: email, template: 'loginUnknownAddress' as const, decoy: true };
    await mailCode(ctx, request, reply, { purpose: 'login', email, userId: user?.id ?? null, mail, budget: 'earliest' });
    return { message: 'sent' };
  },
};

export function userAuthRoutes(app: FastifyInstance, ctx: AppContext) {

  app.post('/v1/user/login', { schema: { body: apiBody('api.user-login.json') }, config: { auth: 'client' } }, async (request, reply) => {
    const body = request.body as Credentials;
    let user: Awaited<ReturnType<typeof checkCredentials>>;
    if (!body.code) {
      // Without a code only a device this member trusted may log in. Anyone else hears
      // CODE_REQUIRED before any password is looked at, so the answer says nothing about the
      // password (no guessing oracle; docs/decisions/015).
      const member = await activeByEmail(ctx, body.email);
      if (!member || !(await ctx.sessions.isTrusted(member.id, deviceCookie(request)))) throw refusal('codeRequired');
      user = await checkCredentials(ctx, request, body);
    } else {
      // Only a flow holding a live code for the address gets this far; anything else is a
      // wrong code that costs nothing. Then the password: a wrong one answers as a wrong code
      // does (same status, same body), so a made-up code learns nothing about the password,
      // and costs the code one of its tries but not the address's ceiling. Only with the right
      // password is the code judged, and spent.
      let checked: Awaited<ReturnType<typeof checkCredentials>> | undefined;
      await useCode(ctx, request, 'login', body.email, body.code, async (userId) => {
        try {
          checked = await checkCredentials(ctx, request, body);
        } catch (error) {
          if (error instanceof ApiError && error.code === 'LOGIN_FAILED') return false;
          throw error;
        }
        return checked.id === userId;
      });
      user = checked!;
    }
    const session = await ctx.sessions.open(user.id);
    if (body.code) {
      const device = await ctx.sessions.trustDevice(user.id);
      reply.setCookie(TRUSTED_DEVICE_COOKIE, device.token, {
        path: '/v1/user',
        httpOnly: true,
        sameSite: 'lax',
        secure: 'auto',
        maxAge: device.maxAge,
      });
    }
    return { token: session.token, expires_in: session.expiresIn, ends_in: session.endsIn };
  });

  // The session warning's "extend" (docs/decisions/024): the idle end moves to sessionSeconds from
  // now (never past the absolute end), written whatever it gains. No body.
  const extendResponse = { 200: apiResponse(ctx.schemas, 'api.user-session-extend-response.json') };
  app.post('/v1/user/session/extend', { config: { auth: 'member' }, schema: { response: extendResponse } }, async (request, reply) => {
    const session = await ctx.sessions.check(bearerToken(request), { extend: true });
    tellSessionTimes(reply, session);
    return { expires_in: secondsUntil(session.expiresAt), ends_in: secondsUntil(session.endsAt) };
  });

  app.post('/v1/user/logout', { config: { auth: 'member' } }, async (request, reply) => {
    await ctx.sessions.revoke(bearerToken(request)!);
    return reply.code(204).send();
  });
}
