// Members' correction and deletion requests as the back office reads them (issue 37 point 3,
// schemas/records/requests.json, ADR 042): the rows of the list, one request in full (the view is
// recorded, requests.view) and its handling, which is src/server/disclosure/requests.ts's
// handleMemberRequest (audit requests.handle, a notice and a mail) with the mail tried after the
// commit. The web's routes and the operator tool call these.
import type { Db } from '../../db/connect';
import type { Outbox } from '../../mail/outbox';
import { iso, now } from '../../services/clock';
import { audited } from '../audit';
import { RecordRefusal, tryMail, type Who } from './common';
import { fullName } from './applications';
import { handleMemberRequest, openRequestsOf, type MemberRequest } from '../../disclosure/requests';
import type { RequestDetail, RequestHandled, RequestInFull, RequestItem } from '../../../shared/admin-api';

/** The list's rows: each request with its member's name and register number. */
export function selectRequests(db: Db) {
  return db
    .selectFrom('member_requests')
    .innerJoin('users', 'users.id', 'member_requests.user_id')
    .leftJoin('applications', 'applications.user_id', 'member_requests.user_id')
    .select([
      'member_requests.id',
      'member_requests.user_id',
      'member_requests.kind',
      'member_requests.status',
      'member_requests.created_at',
      'member_requests.due_at',
      'member_requests.text',
      'member_requests.answer',
      'member_requests.handled_by',
      'member_requests.handled_at',
      'users.last_name_kanji',
      'users.first_name_kanji',
      'users.email',
      'users.status as member_status',
      'applications.register_number',
    ]);
}

export type RequestRow = NonNullable<Awaited<ReturnType<ReturnType<typeof selectRequests>['executeTakeFirst']>>>;

/** An open request whose due date has passed (at `at`). */
export const isOverdue = (row: Pick<MemberRequest, 'status' | 'due_at'>, at = iso(now())) => row.status === 'open' && row.due_at < at;

const nameOf = (row: { last_name_kanji?: string | null; first_name_kanji?: string | null }) =>
  row.last_name_kanji == null || row.first_name_kanji == null ? '' : fullName(row as { last_name_kanji: string; first_name_kanji: string });

/** A row as the list's item (the member's name from the row unless given); `overdue` only when it
 *  is (the list marks it). */
export function itemOf(row: Pick<RequestRow, 'id' | 'kind' | 'status' | 'created_at' | 'due_at' | 'user_id'> & Partial<RequestRow>, at = iso(now()), memberName = nameOf(row)): RequestItem {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    created_at: row.created_at,
    due_at: row.due_at,
    member_id: row.user_id,
    member_name: memberName,
    ...(row.register_number ? { register_number: row.register_number } : {}),
    ...(isOverdue(row, at) ? { overdue: true as const } : {}),
  };
}

const inFull = (row: RequestRow): RequestInFull => ({ ...itemOf(row), text: row.text, answer: row.answer, handled_by: row.handled_by, handled_at: row.handled_at });

async function rowOf(db: Db, id: string): Promise<RequestRow> {
  const row = await selectRequests(db).where('member_requests.id', '=', id).executeTakeFirst();
  if (!row) throw new RecordRefusal('RECORD_NOT_FOUND', { id });
  return row;
}

/** One request in full with its member; the view is recorded (requests.view, naming the member). */
export async function requestDetail(db: Db, who: Who, id: string): Promise<RequestDetail> {
  const row = await rowOf(db, id);
  return audited(db, who, 'requests.view', async () => ({
    memberId: row.user_id,
    target: row.id,
    result: {
      request: inFull(row),
      member: { id: row.user_id, name: nameOf(row), email: row.email, status: row.member_status, ...(row.register_number ? { register_number: row.register_number } : {}) },
    },
  }));
}

/** Closes an open request as done or refused with the member's answer (audited, notice, mail
 *  queued in the transaction), then tries the mail once. A request not open is RECORD_NOT_FOUND. */
export async function handleRequest(db: Db, outbox: Outbox, who: Who, id: string, input: { status: 'done' | 'refused'; answer: string }): Promise<RequestHandled> {
  const { mailId } = await handleMemberRequest(db, outbox, who, id, input);
  const row = await rowOf(db, id);
  return { request: inFull(row), mail: await tryMail(outbox, mailId, row.email) };
}

/** A member's open requests as list items (the member's detail shows them). */
export async function openRequestItems(db: Db, memberId: string, memberName: string): Promise<RequestItem[]> {
  const at = iso(now());
  return (await openRequestsOf(db, memberId)).map((row) => itemOf(row, at, memberName));
}
