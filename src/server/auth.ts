// Two kinds of caller: the client (X-Client-Key, for calls made before login) and a member
// (Authorization: Bearer <token>). A route says which it needs in `config.auth`.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from './errors';
import { sameText } from './services/secrets';
import type { Sessions } from './services/sessions';

export type AuthKind = 'none' | 'client' | 'member' | 'client-or-member';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthKind;
  }
  interface FastifyRequest {
    memberId: string | null;
  }
}

export const CLIENT_KEY_HEADER = 'x-client-key';

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  return header?.startsWith('Bearer ') ? header.slice(7).trim() || undefined : undefined;
}

export function installAuth(app: FastifyInstance, clientKey: string, sessions: Sessions) {
  app.decorateRequest('memberId', null);
  // Before validation: a caller without the right credential hears that, not what its body lacks.
  app.addHook('preValidation', async (request) => {
    const auth = request.routeOptions.config.auth ?? 'none';
    if (auth === 'none') return;
    const token = bearerToken(request);
    if (auth === 'member' || (auth === 'client-or-member' && token)) {
      request.memberId = (await sessions.memberFor(token)).userId;
      return;
    }
    const given = request.headers[CLIENT_KEY_HEADER];
    if (typeof given !== 'string' || !sameText(given, clientKey)) throw new ApiError('CLIENT_KEY_INVALID');
  });
}

export function requireMember(request: FastifyRequest): string {
  if (!request.memberId) throw new ApiError('UNAUTHENTICATED');
  return request.memberId;
}
