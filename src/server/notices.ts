// The notices a member reads on my page: their own (user_id) and those to every member (user_id
// null), newest first, ties by id. Each recipient's notices are one range of the index
// notifications_member (migration 013), read no further than the page needs, and the ranges
// are merged: the page costs the same however many notices the programme has posted. Only live
// notices are read: not retracted (the partial indexes notifications_member_live and
// notifications_everyone_live of migration 015 hold no others) and whose time has come (a
// scheduled notice's created_at is the time it is to appear).
import type { Db } from './db/connect';
import { iso, now } from './services/clock';

/** A notice's place in the order: newest first, then by id (descending). */
export interface NoticeKey {
  created_at: string;
  id: string;
}

/** The notices to `to` (a member's id, or null: to everyone) after `after`, at most `limit`. */
function noticesTo(db: Db, to: string | null, after: NoticeKey | undefined, limit: number, at: string) {
  const addressed = db.selectFrom('notifications').select(['id', 'created_at', 'message', 'user_id']).where('retracted_at', 'is', null);
  const mine = to === null ? addressed.where('user_id', 'is', null) : addressed.where('user_id', '=', to);
  const until = after && after.created_at < at ? after.created_at : at;
  const ranged = after
    ? mine.where('created_at', '<=', until).where((eb) => eb.or([eb('created_at', '<', after.created_at), eb('id', '<', after.id)]))
    : mine.where('created_at', '<=', until);
  return ranged.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit);
}

/** Up to `limit` notices for any of `memberIds` (one member, or every account an address has
 *  had) and for everyone, after `after`, newest first. */
export function noticesFor(db: Db, memberIds: string[], { after, limit, at = iso(now()) }: { after?: NoticeKey; limit: number; at?: string }) {
  const [first, ...rest] = [...memberIds, null].map((to) => db.selectFrom(noticesTo(db, to, after, limit, at).as('recipient')).selectAll());
  const merged = rest.reduce((all, one) => all.unionAll(one), first!);
  return db.selectFrom(merged.as('notices')).selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit);
}
