// The members domain: what several route modules need to know about a member, so that route
// modules never import each other.
import type { Db } from './db/connect';
import type { User } from './db/types';
import { ApiError } from './errors';

/** The member behind a session, while still active; a withdrawn member's session opens nothing. */
export async function activeMember(db: Db, id: string): Promise<User> {
  const user = await db.selectFrom('users').selectAll().where('id', '=', id).where('status', '=', 'active').executeTakeFirst();
  if (!user) throw new ApiError('UNAUTHENTICATED');
  return user;
}
