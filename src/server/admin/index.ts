// The back office's API under /v1/admin/ (docs/decisions/030).
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import type { AdminContext } from './context';
import { createAdminGuard } from './guard';
import { DEFAULT_ADMIN_SETTINGS, type AdminSettings } from './settings';
import { adminAuthRoutes } from './routes/auth';
import { adminRecordRoutes } from './routes/records';
import { adminPasskeyRoutes } from './routes/passkeys';

export function adminRoutes(app: FastifyInstance, ctx: AppContext, settings: AdminSettings = DEFAULT_ADMIN_SETTINGS): void {
  // The office works on ctx.officeDb: on SQLite its reads run on their own thread, so nothing an
  // operator reads holds a member's request (docs/decisions/034).
  const adminCtx: AdminContext = { ...ctx, db: ctx.officeDb, admin: { ...createAdminGuard(ctx.officeDb, settings, ctx.limits), settings } };
  adminAuthRoutes(app, adminCtx);
  adminRecordRoutes(app, adminCtx);
  adminPasskeyRoutes(app, adminCtx);
}
