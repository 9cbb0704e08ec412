// Routes that take a credential, check a code or send mail say `config: { limited: true }`;
// every request to them counts against the client's IP (docs/decisions/015), before its body
// is parsed or any work is done.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RateLimits } from './rate-limits';

declare module 'fastify' {
  interface FastifyContextConfig {
    limited?: boolean;
  }
}

/** Adds the count to each limited route as it is declared (install before the routes), so the
 *  other routes run no hook for it. */
export function installIpLimit(app: FastifyInstance, limits: RateLimits) {
  const countIp = async (request: FastifyRequest) => {
    await limits.hit('ip', request.ip);
  };
  app.addHook('onRoute', (route) => {
    if (route.config?.limited) route.onRequest = [...[route.onRequest ?? []].flat(), countIp];
  });
}
