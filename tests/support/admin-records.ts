// Back-office test helpers: members with an application made straight in the database, and
// requests to /v1/admin/ as an operator (session cookie and CSRF header).
import { randomInt, randomUUID } from 'node:crypto';
import type { NewUser } from '../../src/server/db/types';
import type { Harness } from './api-harness';
import type { TestOperator } from './admin-session';
import { answerErrors, NOT_OURS, routeOf } from './admin-answers';
import type { KyselyPlugin } from 'kysely';

export interface Applicant {
  id: string;
  email: string;
  registerNumber: string;
  applicationId: string;
}

/** A member (the demo profile with `profile` over it) and their pending application. */
export async function applicant(h: Harness, profile: Partial<NewUser> = {}, appliedAt = new Date().toISOString()): Promise<Applicant> {
  const email = h.uniqueEmail('applicant');
  const { id } = await h.createMember(email, 'unused', { password_hash: 'not-a-hash', created_at: appliedAt, ...profile });
  const registerNumber = `R${appliedAt.slice(0, 10).replace(/-/g, '')}-${String(randomInt(0, 1_000_000)).padStart(6, '0')}`;
  const applicationId = randomUUID();
  await h.db.insertInto('applications').values({ id: applicationId, user_id: id, register_number: registerNumber, status: 'pending', applied_at: appliedAt, decided_at: null }).execute();
  return { id, email, registerNumber, applicationId };
}

/** A request to the back office as `operator`. */
export async function asOperator(h: Harness, operator: TestOperator | undefined, method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown, remoteAddress?: string) {
  const res = await h.app.inject({
    method,
    url,
    ...(remoteAddress ? { remoteAddress } : {}),
    headers: { ...(operator?.headers ?? {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
  // Every answer a test gets is what its schema says (schemas/api/answers/admin.json): the types
  // the back office reads are made from it.
  const route = routeOf(method, url);
  if (res.statusCode < 300 && route && !NOT_OURS.has(route) && /json/.test(String(res.headers['content-type']))) {
    const errors = answerErrors(route, res.json());
    if (errors.length) throw new Error(`${method} ${url}: the answer is not what schemas/api/answers/admin.json says:\n${errors.join('\n')}`);
  }
  return res;
}

/** The audit log's rows, oldest first. */
export function auditRows(h: Harness) {
  return h.db.selectFrom('audit_log').selectAll().orderBy('at').orderBy('id').execute();
}

/** A plugin that notes how many rows each read of the members table handed over, in order
 *  (`reads`): how the CSV tests see that no read holds more than one batch. */
export function membersReads(): { plugin: KyselyPlugin; reads: number[] } {
  const reads: number[] = [];
  const usersReads = new WeakSet<object>();
  const plugin: KyselyPlugin = {
    transformQuery: ({ node, queryId }) => {
      if (node.kind === 'SelectQueryNode' && JSON.stringify(node.from).includes('"users"')) usersReads.add(queryId);
      return node;
    },
    transformResult: async ({ result, queryId }) => {
      if (usersReads.has(queryId)) reads.push(result.rows.length);
      return result;
    },
  };
  return { plugin, reads };
}
