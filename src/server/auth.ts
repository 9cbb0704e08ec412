// Two kinds of caller: the client (X-Client-Key, for calls made before login) and a member
// (Authorization: Bearer <token>). A route says which it needs in `config.auth`.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from './errors';
import { sameText } from './services/secrets';
import { secondsUntil, type LiveSession, type Sessions } from './services/sessions';
import { SESSION_ENDS_IN_HEADER, SESSION_EXPIRES_IN_HEADER } from '../shared/session-headers';
import type { User } from './db/types';

export type AuthKind = 'none' | 'client' | 'member' | 'client-or-member';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthKind;
  }
  interface FastifyRequest {
    /** The active member as the session check read them, in the same query (ADR 017). */
    member: User | null;
  }
}

export const CLIENT_KEY_HEADER = 'x-client-key';

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  return header?.startsWith('Bearer ') ? header.slice(7).trim() || undefined : undefined;
}

export function installAuth(app: FastifyInstance, clientKey: string, sessions: Sessions) {
  app.decorateRequest('member', null);
  // Before validation: a caller without the right credential hears that, not what its body
  // lacks. Added to each route that asks for a credential as it is declared (install before the
  // routes), so the others run no hook for it.
  const check = async (request: FastifyRequest, reply: FastifyReply) => {
    const auth = request.routeOptions.config.auth ?? 'none';
    const token = bearerToken(request);
    if (auth === 'member' || (auth === 'client-or-member' && token)) {
      const session = await sessions.check(token);
      request.member = session.member;
      tellSessionTimes(reply, session);
      return;
    }
    const given = request.headers[CLIENT_KEY_HEADER];
    if (typeof given !== 'string' || !sameText(given, clientKey)) throw new ApiError('CLIENT_KEY_INVALID');
  };
  app.addHook('onRoute', (route) => {
    if ((route.config?.auth ?? 'none') !== 'none') route.preValidation = [...[route.preValidation ?? []].flat(), check];
  });
}

/** Every answer to a member says how long the session has left, this request counted (ADR 024). */
export function tellSessionTimes(reply: FastifyReply, session: Pick<LiveSession, 'expiresAt' | 'endsAt'>) {
  reply.header(SESSION_EXPIRES_IN_HEADER, String(secondsUntil(session.expiresAt)));
  reply.header(SESSION_ENDS_IN_HEADER, String(secondsUntil(session.endsAt)));
}

export function requireMember(request: FastifyRequest): string {
  return currentMember(request).id;
}

/** The member this request's session belongs to, as read when the session was checked. */
export function currentMember(request: FastifyRequest): User {
  if (!request.member) throw new ApiError('UNAUTHENTICATED');
  return request.member;
}
