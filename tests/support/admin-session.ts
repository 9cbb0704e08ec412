// A back-office operator with a live session, made straight in the database (the login flow has
// its own tests): what a test needs to call /v1/admin/ as that operator.
import { randomUUID } from 'node:crypto';
import type { Db } from '../../src/server/db/connect';
import type { Role } from '../../src/server/admin/permissions';
import { openOperatorSession } from '../../src/server/admin/sessions';
import { ADMIN_COOKIE, CSRF_HEADER, DEFAULT_ADMIN_SETTINGS } from '../../src/server/admin/settings';
import { iso, now } from '../../src/server/services/clock';

export interface TestOperator {
  id: string;
  email: string;
  name: string;
  role: Role;
  /** Headers for app.inject: the session cookie and, for changes, the CSRF token. */
  headers: Record<string, string>;
}

export async function operatorSession(db: Db, role: Role, name = `${role}担当`): Promise<TestOperator> {
  const id = randomUUID();
  const email = `${role}-${id.slice(0, 8)}@office.example.jp`;
  const at = iso(now());
  await db.insertInto('operators').values({ id, email, name, role, status: 'active', password_hash: null, created_at: at, updated_at: at }).execute();
  const session = await openOperatorSession(db, id, DEFAULT_ADMIN_SETTINGS);
  return { id, email, name, role, headers: { cookie: `${ADMIN_COOKIE}=${session.token}`, [CSRF_HEADER]: session.csrfToken } };
}
