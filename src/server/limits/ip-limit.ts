// Which count a route's requests go to, said in `config.limited` (docs/decisions/015):
// - 'ip': routes anyone can use blind, without a credential (a registration code for any address,
//   the back office's login and set-up link): every request counts against the client's IP,
//   before its body is parsed or any work is done;
// - 'visitor': the same for a visitor, while a request with a member's session counts against
//   that member instead (the contact form: members behind a carrier's shared address are not
//   refused for what others on it did);
// - 'operator': requests with an operator session count against that operator, never against
//   the office's IP (counted by the back office's guard, which knows the operator);
// - 'member': a member's own routes that mail them or write on every press (a download of their
//   data, a request about it: docs/decisions/040) count against that member, never an IP.
// A member's own credential flows (password, identity, code) take no per-IP count at all: their
// failures are counted per address and requesting network, per code and per address's ceiling.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RateLimits } from './rate-limits';
import { bearerToken } from '../auth';

export type LimitedBy = 'ip' | 'visitor' | 'operator' | 'member';

declare module 'fastify' {
  interface FastifyContextConfig {
    limited?: LimitedBy;
  }
}

/** Adds the count to each limited route as it is declared (install before the routes), so the
 *  other routes run no hook for it. */
export function installIpLimit(app: FastifyInstance, limits: RateLimits) {
  const countIp = async (request: FastifyRequest) => {
    await limits.hit('ip', request.ip);
  };
  // A bearer token is checked by the route's auth hook before anything is done: a made-up one is
  // refused there (401), so it buys no escape from this count.
  const countVisitor = async (request: FastifyRequest) => {
    if (!bearerToken(request)) await limits.hit('ip', request.ip);
  };
  const countMember = async (request: FastifyRequest) => {
    if (request.member) await limits.hit('holder', `member:${request.member.id}`);
  };
  app.addHook('onRoute', (route) => {
    const by = route.config?.limited;
    if (by === 'ip') route.onRequest = [...[route.onRequest ?? []].flat(), countIp];
    if (by === 'member') route.preHandler = [...[route.preHandler ?? []].flat(), countMember];
    if (by === 'visitor') {
      route.onRequest = [...[route.onRequest ?? []].flat(), countVisitor];
      route.preHandler = [...[route.preHandler ?? []].flat(), countMember];
    }
  });
}
