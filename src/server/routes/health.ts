// For a load balancer: /healthz says the process answers; /readyz says it can also reach the
// database (503 while it cannot, so traffic goes to another instance until it recovers; also
// 503 until the start-up migration has run, through the ready gate in app.ts).
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { AppContext } from '../context';
import { ApiError } from '../errors';

export function healthRoutes(app: FastifyInstance, ctx: AppContext) {
  app.get('/healthz', async () => ({ status: 'ok' }));

  app.get('/readyz', async (request) => {
    try {
      await sql`select 1`.execute(ctx.db);
    } catch (error) {
      request.log.warn({ err: error }, 'database not reachable');
      throw new ApiError('DB_UNAVAILABLE');
    }
    return { status: 'ready' };
  });
}
