// Routes that take a credential, check a code or send mail say `config: { limited: true }`;
// every request to them counts against the client's IP (docs/decisions/015), before its body
// is parsed or any work is done.
import type { FastifyInstance } from 'fastify';
import type { RateLimits } from './rate-limits';

declare module 'fastify' {
  interface FastifyContextConfig {
    limited?: boolean;
  }
}

export function installIpLimit(app: FastifyInstance, limits: RateLimits) {
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.limited) await limits.hit('ip', request.ip);
  });
}
