// POST /v1/user/verify serves several flows, told apart by `flow` (none means login, or login_email without a password). The table
// below is every flow there is: explicit and typed, not filled as a side effect of imports.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { ApiError } from '../errors';
import type { VerifyFlow } from '../verify-flow';
import { apiParams } from '../route-schemas';
import { loginEmailVerify, loginVerify } from './user-auth';
import { emailChangeVerify } from './account';
import { passwordChangeVerify } from './password-reset';

export const verifyFlows = {
  login: loginVerify,
  login_email: loginEmailVerify,
  email_change: emailChangeVerify,
  password_change: passwordChangeVerify,
} as const satisfies Record<string, VerifyFlow>;

export type VerifyFlowName = keyof typeof verifyFlows;

/** Which flow a body without `flow` asks for: with a password the login, without one the
 *  earliest login (the old login screen's {email}). */
const defaultFlow = (body: unknown): VerifyFlowName => (body && typeof body === 'object' && 'password' in body ? 'login' : 'login_email');

const isFlowName = (name: unknown): name is VerifyFlowName => typeof name === 'string' && Object.hasOwn(verifyFlows, name);

export function verifyRoutes(app: FastifyInstance, ctx: AppContext) {
  app.post('/v1/user/verify', { schema: { body: apiParams(ctx.schemas, 'api.user-verify.json') }, config: { auth: 'client-or-member' } }, async (request, reply) => {
    const name = (request.body as { flow?: unknown } | null)?.flow ?? defaultFlow(request.body);
    if (!isFlowName(name)) throw new ApiError('BAD_REQUEST');
    const flow: VerifyFlow = verifyFlows[name];
    if (flow.auth === 'member' && !request.member) throw new ApiError('UNAUTHENTICATED');
    return flow.handle(ctx, request, reply);
  });
}
