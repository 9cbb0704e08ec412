// /v1/admin/applications, notices, inquiries, members, stats, audit, operators.
// Filled in by the back office's records work (issue 23).
import type { FastifyInstance } from 'fastify';
import type { AdminContext } from '../context';

export function adminRecordRoutes(_app: FastifyInstance, _ctx: AdminContext): void {}
