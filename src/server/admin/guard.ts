// Every /v1/admin/ route goes through adminGuard(action) (docs/decisions/030): the session
// cookie (never a member's bearer token) names a live session of an active operator; a request
// that changes something carries the session's CSRF token; the operator's role has the action.
// The idle end slides with the operator's requests, never past the absolute end fixed at login.
import type { FastifyReply, FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import type { Db } from '../db/connect';
import { ApiError } from '../errors';
import { hashToken, sameText } from '../services/secrets';
import { iso, inSeconds, now } from '../services/clock';
import { isRole, mayDo, type AdminAction } from './permissions';
import type { AuditActor } from './audit';
import { ADMIN_COOKIE, CSRF_HEADER, type AdminSettings } from './settings';
import { tellSessionTimes } from '../auth';
import type { RateLimits } from '../limits/rate-limits';

/** The operator behind a request, as the guard found it. */
export type OperatorActor = Extract<AuditActor, { type: 'operator' }> & { sessionTokenHash: string; csrfToken: string; expiresAt: string; endsAt: string };

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by adminGuard on /v1/admin/ routes. */
    operator?: OperatorActor;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function createAdminGuard(db: Db, settings: AdminSettings, limits: RateLimits) {
  const writeStepMs = Math.min(60_000, settings.sessionSeconds * 100);

  async function operatorOf(request: FastifyRequest): Promise<OperatorActor> {
    // Cookies are parsed where they are read (app.ts registers @fastify/cookie with hook: false).
    const token = request.server.parseCookie(request.headers.cookie ?? '')[ADMIN_COOKIE];
    if (!token) throw new ApiError('ADMIN_UNAUTHENTICATED');
    const tokenHash = hashToken(token);
    const row = await db
      .selectFrom('operator_sessions')
      .innerJoin('operators', 'operators.id', 'operator_sessions.operator_id')
      .select([
        'operators.id', 'operators.email', 'operators.name', 'operators.role', 'operators.status',
        'operator_sessions.csrf_token', 'operator_sessions.expires_at', 'operator_sessions.ends_at', 'operator_sessions.revoked_at',
      ])
      .where('operator_sessions.token_hash', '=', tokenHash)
      .executeTakeFirst();
    const at = iso(now());
    if (!row || row.revoked_at || row.status !== 'active' || !isRole(row.role) || row.expires_at <= at || row.ends_at <= at) {
      throw new ApiError('ADMIN_UNAUTHENTICATED');
    }
    let expiresAt = row.expires_at;
    const target = inSeconds(settings.sessionSeconds) < row.ends_at ? inSeconds(settings.sessionSeconds) : row.ends_at;
    if (Date.parse(target) - Date.parse(expiresAt) >= writeStepMs) {
      await db.updateTable('operator_sessions').set({ expires_at: target }).where('token_hash', '=', tokenHash).where('expires_at', '<', target).execute();
      expiresAt = target;
    }
    return {
      type: 'operator', id: row.id, email: row.email, name: row.name, role: row.role,
      sessionTokenHash: tokenHash, csrfToken: row.csrf_token, expiresAt, endsAt: row.ends_at,
    };
  }

  /** The preValidation hook of a route (before its body is judged: no session answers 401, never 400) that does `action`: 401 ADMIN_UNAUTHENTICATED without a live
   *  session, 403 CSRF_INVALID when a change comes without the session's token, 403 FORBIDDEN
   *  when the role lacks the action. */
  function adminGuard(action: AdminAction): preValidationAsyncHookHandler {
    return async (request: FastifyRequest, reply: FastifyReply) => {
      // Personal data and the session's CSRF token: never kept by a browser or a proxy.
      reply.header('cache-control', 'no-store');
      const operator = await operatorOf(request);
      // How long the session has left, this request counted: the back office warns before the end.
      tellSessionTimes(reply, operator);
      if (!SAFE_METHODS.has(request.method)) {
        const sent = request.headers[CSRF_HEADER];
        if (typeof sent !== 'string' || !sameText(sent, operator.csrfToken)) throw new ApiError('CSRF_INVALID');
      }
      if (!mayDo(operator.role, action)) throw new ApiError('FORBIDDEN');
      // Routes that change or mail count per operator, never per the office's shared IP
      // (docs/decisions/015): one clerk's busy hour never holds a colleague.
      if (request.routeOptions.config.limited === 'operator') await limits.hit('holder', `operator:${operator.id}`);
      request.operator = operator;
    };
  }

  return { adminGuard, operatorOf };
}

export type AdminGuard = ReturnType<typeof createAdminGuard>;

/** The operator a guarded route runs for (the guard has set it). */
export function currentOperator(request: FastifyRequest): OperatorActor {
  if (!request.operator) throw new ApiError('ADMIN_UNAUTHENTICATED');
  return request.operator;
}
