// A member's requests about their own data (issue 37 point 3, docs/decisions/040): a correction of
// what they cannot edit themselves (the birthday, the name in kanji) or the deletion of their
// data. The member makes one from the disclosure screen and reads its status there; the office lists and
// handles them with the functions below (the back office's record kind and screen call these:
// listMemberRequests, memberRequestsOf, openRequestsOf, handleMemberRequest; the member's downloads:
// downloadsOf in ./document.ts). Handling is recorded
// in the audit log (requests.handle) in the transaction that writes it, and the member is told by
// a notice on my page and a mail.
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/connect';
import type { MemberRequestKind, MemberRequestStatus, MemberRequestsTable } from '../db/types';
import type { Outbox } from '../mail/outbox';
import { iso, now } from '../services/clock';
import { actorLabel, audited, type AuditBy } from '../admin/audit';
import { RecordRefusal } from '../admin/services/common';
import { fullName } from '../admin/services/applications';
import operatorTexts from '../../../messages/operator.ja.json';
import { format } from '../../shared/format';

export type MemberRequest = MemberRequestsTable;

export const REQUEST_KINDS: readonly MemberRequestKind[] = ['correction', 'deletion'];

/** Stores a member's request, due `dueDays` later (the catalogue's disclosure route says how many:
 *  settings.requestDueDays, ADR 040). */
export async function createMemberRequest(db: Db, memberId: string, input: { kind: MemberRequestKind; text: string }, dueDays: number): Promise<MemberRequest> {
  const at = now();
  const row: MemberRequest = {
    id: randomUUID(),
    user_id: memberId,
    kind: input.kind,
    text: input.text,
    created_at: iso(at),
    due_at: iso(new Date(at.getTime() + dueDays * 86_400_000)),
    status: 'open',
    handled_by: null,
    handled_at: null,
    answer: null,
  };
  await db.insertInto('member_requests').values(row).execute();
  return row;
}

/** One member's requests, newest first (index member_requests_user). */
export function memberRequestsOf(db: Db, memberId: string): Promise<MemberRequest[]> {
  return db.selectFrom('member_requests').selectAll().where('user_id', '=', memberId).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
}

/** One member's open requests (the back office's member detail shows them). */
export function openRequestsOf(db: Db, memberId: string): Promise<MemberRequest[]> {
  return db.selectFrom('member_requests').selectAll().where('user_id', '=', memberId).where('status', '=', 'open').orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
}

export interface RequestPage {
  items: MemberRequest[];
  /** The key of the last item, for the next page (`after`). */
  last?: { due_at: string; id: string };
}

/** The office's list: requests of `status` (open by default), soonest due first, `size` at a
 *  time from `after` (index member_requests_status_due: one range, whatever the table's size). */
export async function listMemberRequests(db: Db, { status = 'open', after, size = 20 }: { status?: MemberRequestStatus; after?: { due_at: string; id: string }; size?: number } = {}): Promise<RequestPage> {
  let query = db.selectFrom('member_requests').selectAll().where('status', '=', status);
  if (after) query = query.where((eb) => eb.or([eb('due_at', '>', after.due_at), eb.and([eb('due_at', '=', after.due_at), eb('id', '>', after.id)])]));
  const items = await query.orderBy('due_at').orderBy('id').limit(size).execute();
  const last = items.at(-1);
  return { items, ...(last ? { last: { due_at: last.due_at, id: last.id } } : {}) };
}

/** Closes an open request as done or refused with `answer` (what the member reads), recorded in
 *  the audit log with the member; the member gets a notice and a mail (queued in the same
 *  transaction; the caller sends it after the commit with outbox.sendQueued). Answers the row and
 *  the queued mail's id. A request not open (unknown, or handled already) is refused as not found,
 *  nothing changed. */
export async function handleMemberRequest(
  db: Db,
  outbox: Outbox,
  by: AuditBy,
  id: string,
  { status, answer }: { status: Exclude<MemberRequestStatus, 'open'>; answer: string },
): Promise<{ request: MemberRequest; mailId: string }> {
  return audited(db, by, 'requests.handle', async (tx) => {
    const row = await tx.selectFrom('member_requests').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw new RecordRefusal('RECORD_NOT_FOUND', { id });
    const at = iso(now());
    const changed = await tx
      .updateTable('member_requests')
      .set({ status, answer, handled_by: actorLabel(by.actor), handled_at: at })
      .where('id', '=', id)
      .where('status', '=', 'open')
      .executeTakeFirst();
    if (Number(changed.numUpdatedRows) !== 1) throw new RecordRefusal('RECORD_NOT_FOUND', { id });
    const user = await tx.selectFrom('users').select(['email', 'last_name_kanji', 'first_name_kanji']).where('id', '=', row.user_id).executeTakeFirstOrThrow();
    const words = operatorTexts.memberNotice;
    const [kind, said] = [operatorTexts.memberRequests.kinds[row.kind], operatorTexts.memberRequests.statuses[status]];
    await tx
      .insertInto('notifications')
      .values({ id: randomUUID(), user_id: row.user_id, message: format(words.requestAnswered, { kind, status: said }), created_at: at, posted_at: at, created_by: by.actor.type === 'operator' ? by.actor.id : null, created_by_label: actorLabel(by.actor) })
      .execute();
    const mailId = await outbox.queue(tx, user.email, 'requestAnswered', { name: fullName(user), kind, status: said, answer });
    return {
      result: { request: { ...row, status, answer, handled_by: actorLabel(by.actor), handled_at: at }, mailId },
      memberId: row.user_id,
      target: row.id,
      detail: { kind: row.kind, status, answer },
    };
  });
}
