// One flow of POST /v1/user/verify (login, e-mail change, password change): who may call it and
// what it does. The flows are listed in one typed table, routes/verify.ts.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from './context';

export interface VerifyFlow {
  auth: 'client' | 'member';
  handle: (ctx: AppContext, request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
}
