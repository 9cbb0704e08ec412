// What a member sees on my page: their registration application(s) and notices.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { requireMember } from '../auth';
import { noticesFor } from '../notices';

/** The newest notices my page shows. */
const NOTICES_SHOWN = 50;

export function memberRoutes(app: FastifyInstance, ctx: AppContext) {
  app.get('/v1/user/application', { config: { auth: 'member' } }, async (request) => {
    const rows = await ctx.db
      .selectFrom('applications')
      .select(['applied_at', 'status', 'register_number'])
      .where('user_id', '=', requireMember(request))
      .orderBy('applied_at', 'desc')
      .execute();
    return rows.map((row) => ({ date: row.applied_at, status: row.status, registerNumber: row.register_number }));
  });

  app.get('/v1/user/notification', { config: { auth: 'member' } }, async (request) => {
    const memberId = requireMember(request);
    const rows = await noticesFor(ctx.db, [memberId], { limit: NOTICES_SHOWN }).execute();
    return rows.map((row) => ({ id: row.id, date: row.created_at, message: row.message }));
  });
}
