// Login in two steps (password, then a mailed code), the trusted-device shortcut, and logout.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { ApiError } from '../errors';
import { verifyPassword } from '../services/passwords';
import { bearerToken } from '../auth';
import type { VerifyFlow } from '../verify-flow';
import { apiBody } from '../route-schemas';

export const TRUSTED_DEVICE_COOKIE = 'ms_trusted_device';

interface Credentials {
  email: string;
  password: string;
  code?: string;
}

function activeByEmail(ctx: AppContext, email: string) {
  return ctx.db.selectFrom('users').select(['id', 'email', 'password_hash']).where('email', '=', email).where('status', '=', 'active').executeTakeFirst();
}

/** The active member with these credentials, or LOGIN_FAILED (same answer, same time, whether
 *  the address is unknown or the password wrong). Every try counts against the address before
 *  the password is compared; a right password ends the run of wrong ones (docs/decisions/015). */
async function checkCredentials(ctx: AppContext, { email, password }: Credentials) {
  await ctx.limits.hit('password', email);
  const user = await activeByEmail(ctx, email);
  const ok = await verifyPassword(user?.password_hash, password);
  if (!user || !ok) throw new ApiError('LOGIN_FAILED');
  await ctx.limits.reset('password', email);
  return user;
}

/** POST /v1/user/verify for login: check the password, then mail a code (routes/verify.ts). */
export const loginVerify: VerifyFlow = {
  auth: 'client',
  async handle(ctx, request) {
    const body = ctx.parse<Credentials>('api.user-verify-login.json', request.body);
    const user = await checkCredentials(ctx, body);
    await ctx.codes.issue('login', user.email, user.id, { to: user.email, template: 'loginCode' });
    return { message: 'sent' };
  },
};

// The earliest login (the old login screen): {email} alone asks for a code; the password is
// checked by the login call. The answer is the same for a member's address and any other: an
// unknown address is told by mail that it is not registered, after the same work.
export const loginEmailVerify: VerifyFlow = {
  auth: 'client',
  async handle(ctx, request) {
    const { email } = ctx.parse<{ email: string }>('api.user-verify-login-email.json', request.body);
    const user = await ctx.db.selectFrom('users').select('id').where('email', '=', email).where('status', '=', 'active').executeTakeFirst();
    await ctx.codes.issue('login', email, user?.id ?? null, user ? { to: email, template: 'loginCode' } : { to: email, template: 'loginUnknownAddress', decoy: true });
    return { message: 'sent' };
  },
};

export function userAuthRoutes(app: FastifyInstance, ctx: AppContext) {

  app.post('/v1/user/login', { schema: { body: apiBody('api.user-login.json') }, config: { auth: 'client', limited: true } }, async (request, reply) => {
    const body = request.body as Credentials;
    if (!body.code) {
      // Without a code only a device this member trusted may log in. Anyone else hears
      // CODE_REQUIRED before any password is looked at, so the answer says nothing about the
      // password (no guessing oracle; docs/decisions/015).
      const member = await activeByEmail(ctx, body.email);
      if (!member || !(await ctx.sessions.isTrusted(member.id, app.parseCookie(request.headers.cookie ?? '')[TRUSTED_DEVICE_COOKIE]))) throw new ApiError('CODE_REQUIRED');
    }
    const user = await checkCredentials(ctx, body);
    if (body.code) await ctx.codes.consume('login', user.email, body.code);
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
    return { token: session.token, expires_in: session.expiresIn };
  });

  app.post('/v1/user/logout', { config: { auth: 'member' } }, async (request, reply) => {
    await ctx.sessions.revoke(bearerToken(request)!);
    return reply.code(204).send();
  });
}
