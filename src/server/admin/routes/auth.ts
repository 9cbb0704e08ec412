// /v1/admin/session…: set-up link, login (password, then a mailed code), who am I, logout.
// Filled in by the back office's accounts work (issue 23).
import type { FastifyInstance } from 'fastify';
import type { AdminContext } from '../context';

export function adminAuthRoutes(_app: FastifyInstance, _ctx: AdminContext): void {}
