// The HTTP side of code flows (services/codes.ts): a route that mails a code names its flow in
// the answer's X-Code-Flow header; a route that takes a code reads the flow from the request.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from './context';
import type { CodeBudget, CodeMail, CodePurpose } from './services/codes';
import { CODE_FLOW_HEADER, requesterOf } from './limits/requester';

/** Mails a code for `request`'s flow (a new one unless it carries one for this address) and
 *  tells the client which flow it is. */
export async function mailCode(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  code: { purpose: CodePurpose; email: string; userId: string | null; mail: CodeMail; budget?: CodeBudget },
): Promise<void> {
  const flow = await ctx.codes.issue(code.purpose, code.email, code.userId, code.mail, requesterOf(request), code.budget);
  reply.header(CODE_FLOW_HEADER, flow);
}

/** Uses the code `request`'s flow holds for (purpose, email). */
export function useCode(ctx: AppContext, request: FastifyRequest, purpose: CodePurpose, email: string, code: string, gate?: (userId: string | null) => Promise<boolean>) {
  return ctx.codes.consume(purpose, email, code, requesterOf(request).flow, gate);
}
