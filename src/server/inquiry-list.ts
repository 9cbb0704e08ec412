// A member's inquiry history, one page at a time (GET /v1/user/contact/list): newest first, ties
// on the time by id, all statuses or one. Every read is a range of one index (migration 013:
// user_id[, status], created_at desc, id) from a key, so a deep page costs what the first does
// (docs/decisions/026). The builders are exported so that tests explain the very queries read here.
import type { Db } from './db/connect';
import type { InquiryStatus } from './db/types';
import { PageAnchors, type PagePlace } from './db/page-anchors';

export type ListStatus = InquiryStatus | 'all';

/** One member's list: their inquiries of one status, or of all. */
export interface InquiryScope {
  memberId: string;
  status: ListStatus;
}

/** A row's place in the order: newest first, then by id. */
export interface InquiryKey {
  created_at: string;
  id: string;
}

function inScope(db: Db, { memberId, status }: InquiryScope) {
  const mine = db.selectFrom('inquiries').where('user_id', '=', memberId);
  return status === 'all' ? mine : mine.where('status', '=', status);
}

/** The scope's rows that come after `after` in the order (all of them when undefined), in order.
 *  Written as a range on created_at plus a test of the ties, so the index serves the range. */
function from(db: Db, scope: InquiryScope, after: InquiryKey | undefined) {
  const rows = inScope(db, scope);
  const ranged = after
    ? rows.where('created_at', '<=', after.created_at).where((eb) => eb.or([eb('created_at', '<', after.created_at), eb('id', '>', after.id)]))
    : rows;
  return ranged.orderBy('created_at', 'desc').orderBy('id');
}

/** The key of the row `skip` rows past `after`: how anchors are found (reads the index only). */
export const inquiryKeyQuery = (db: Db, scope: InquiryScope, after: InquiryKey | undefined, skip: number) =>
  from(db, scope, after).select(['created_at', 'id']).limit(1).offset(skip);

/** One page: `size` rows, `skip` rows past `after`. */
export const inquiryPageQuery = (db: Db, scope: InquiryScope, place: PagePlace<InquiryKey>, size: number) =>
  from(db, scope, place.after).select(['id', 'created_at', 'inquiry_type', 'ticket_no', 'content', 'status']).limit(size).offset(place.skip);

/** The member's list version (migration 013's triggers raise it on every change). */
export const inquiryListVersionQuery = (db: Db, memberId: string) => db.selectFrom('inquiry_list_versions').select('version').where('user_id', '=', memberId);

export type InquiryListRow = Awaited<ReturnType<ReturnType<typeof inquiryPageQuery>['execute']>>[number];

/** Pages of members' inquiry lists; anchors are kept per member and status (page-anchors.ts). */
export function inquiryList(db: Db, anchors = new PageAnchors<InquiryKey>()) {
  return {
    anchors,
    /** Page `page` (from 1) of `size` rows: the rows an OFFSET of (page - 1) * size would give. */
    async page(scope: InquiryScope, page: number, size: number): Promise<InquiryListRow[]> {
      const offset = (page - 1) * size;
      let place: PagePlace<InquiryKey> | undefined = { after: undefined, skip: offset };
      if (offset >= anchors.stride) {
        const version = (await inquiryListVersionQuery(db, scope.memberId).executeTakeFirst())?.version ?? 0;
        place = await anchors.place(`${scope.memberId}/${scope.status}`, Number(version), offset, (after, skip) =>
          inquiryKeyQuery(db, scope, after, skip).executeTakeFirst(),
        );
      }
      return place ? inquiryPageQuery(db, scope, place, size).execute() : [];
    },
  };
}
