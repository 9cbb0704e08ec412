// Inquiries, as the back office and the command line handle them: the list by status, a thread
// (the question, every answer and correction, the mails sent), an answer (open → answered), a
// correction of a sent answer, assignment to an operator and marking done (closed). Each change,
// the member's notice, its audit entry and the queued mail are one transaction; the caller tries
// the mail after the commit.
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/connect';
import type { Outbox } from '../../mail/outbox';
import { subjectOf } from '../../mail/mailer';
import { masterOptions, type MasterName } from '../../masters';
import { iso, now } from '../../services/clock';
import { format } from '../../../shared/format';
import operatorTexts from '../../../../messages/operator.ja.json';
import { actorLabel, audited } from '../audit';
import { operatorIdOf, RecordRefusal, type Who } from './common';
import type { AnswerItem, AssignableOperator, InquiryAssigned, InquiryDetail, InquiryItem, InquiryRecipient } from '../../../shared/admin-api';

export function selectInquiries(db: Db) {
  return db
    .selectFrom('inquiries')
    .leftJoin('users', 'users.id', 'inquiries.user_id')
    .leftJoin('operators', 'operators.id', 'inquiries.assigned_to')
    .select([
      'inquiries.id',
      'inquiries.ticket_no',
      'inquiries.user_id',
      'inquiries.last_name_kanji',
      'inquiries.first_name_kanji',
      'inquiries.email',
      'inquiries.inquiry_user_type',
      'inquiries.inquiry_type',
      'inquiries.job',
      'inquiries.content',
      'inquiries.status',
      'inquiries.answer',
      'inquiries.created_at',
      'inquiries.updated_at',
      'inquiries.assigned_to',
      'operators.name as assigned_name',
      'users.status as member_status',
      'users.email as member_email',
      'users.last_name_kanji as member_last_name',
      'users.first_name_kanji as member_first_name',
    ])
    // An inquiry erased after its retention period (ADR 041) is gone from the office: not listed,
    // not found, never answered to an address it no longer has.
    .where('inquiries.erased_at', 'is', null);
}

export type InquiryRow = NonNullable<Awaited<ReturnType<ReturnType<typeof selectInquiries>['executeTakeFirst']>>>;

export const senderName = (row: Pick<InquiryRow, 'last_name_kanji' | 'first_name_kanji'>) => `${row.last_name_kanji} ${row.first_name_kanji}`.trim();

/** Whom an answer goes to: an active member at their current address and name (they may have
 *  changed either since asking); anyone else at the address the form carried. */
export function recipientOf(row: InquiryRow): InquiryRecipient {
  if (row.user_id !== null && row.member_status === 'active' && row.member_email) {
    return { name: `${row.member_last_name} ${row.member_first_name}`, email: row.member_email, member: true };
  }
  return { name: senderName(row), email: row.email, member: false };
}

/** value → label of a master list; a value no longer in the list shows as itself. */
export async function labels(db: Db, name: MasterName): Promise<(value: string) => string> {
  const options = new Map((await masterOptions(db, name)).map((o) => [o.value, o.label]));
  return (value) => options.get(value) ?? value;
}

export function itemOf(row: InquiryRow, typeLabel: (value: string) => string): InquiryItem {
  return {
    id: row.id,
    ticket_no: row.ticket_no,
    status: row.status,
    created_at: row.created_at,
    updated_at: row.updated_at,
    name: senderName(row),
    email: row.email,
    inquiry_type: row.inquiry_type,
    inquiry_type_label: typeLabel(row.inquiry_type),
    member_id: row.user_id,
    ...(row.assigned_to ? { assigned_to: { id: row.assigned_to, name: row.assigned_name ?? '' } } : {}),
  };
}

/** The inquiries a member sent, newest first (index inquiries_member_list). */
export async function inquiriesOfMember(db: Db, userId: string, limit = 100): Promise<InquiryItem[]> {
  const rows = await selectInquiries(db).where('inquiries.user_id', '=', userId).orderBy('inquiries.created_at', 'desc').orderBy('inquiries.id').limit(limit).execute();
  const typeLabel = await labels(db, 'inquiry_type');
  return rows.map((row) => itemOf(row, typeLabel));
}

/** By id (the back office) or ticket number (the command line). */
export async function findInquiry(db: Db, key: { id?: string; ticketNo?: string }): Promise<InquiryRow> {
  const query = key.id ? selectInquiries(db).where('inquiries.id', '=', key.id) : selectInquiries(db).where('inquiries.ticket_no', '=', (key.ticketNo ?? '').trim().toUpperCase());
  const row = await query.executeTakeFirst();
  if (!row) throw new RecordRefusal('RECORD_NOT_FOUND', { ticketNo: key.ticketNo ?? null, id: key.id ?? null });
  return row;
}

/** Every answer and correction sent, oldest first, with its mail's state. */
export async function answersOf(db: Db, inquiryId: string): Promise<AnswerItem[]> {
  const rows = await db
    .selectFrom('inquiry_answers')
    .leftJoin('mail_outbox', 'mail_outbox.id', 'inquiry_answers.mail_id')
    .select(['inquiry_answers.id', 'inquiry_answers.answer', 'inquiry_answers.note', 'inquiry_answers.corrects_id', 'inquiry_answers.actor_label', 'inquiry_answers.at', 'inquiry_answers.mail_id', 'mail_outbox.sent_at'])
    .where('inquiry_answers.inquiry_id', '=', inquiryId)
    .orderBy('inquiry_answers.at')
    .orderBy('inquiry_answers.id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    answer: row.answer,
    ...(row.note ? { note: row.note } : {}),
    ...(row.corrects_id ? { corrects: row.corrects_id } : {}),
    operator: row.actor_label,
    at: row.at,
    mail_status: row.mail_id === null ? 'none' : row.sent_at ? 'sent' : 'queued',
  }));
}

/** A queued mail's values as stored (a damaged row names its template only). */
function valuesOf(json: string): Record<string, string | number> {
  try {
    return JSON.parse(json) as Record<string, string | number>;
  } catch {
    return {};
  }
}

/** One thread in full; the view is recorded (inquiries.view). */
export async function inquiryDetail(db: Db, who: Who, id: string): Promise<InquiryDetail> {
  const row = await findInquiry(db, { id });
  const [typeLabel, userTypeLabel, jobLabel] = await Promise.all([labels(db, 'inquiry_type'), labels(db, 'inquiry_user_category'), labels(db, 'job')]);
  const answers = await answersOf(db, row.id);
  const mailIds = (await db.selectFrom('inquiry_answers').select('mail_id').where('inquiry_id', '=', row.id).execute()).flatMap((r) => (r.mail_id ? [r.mail_id] : []));
  const mails = mailIds.length
    ? await db.selectFrom('mail_outbox').select(['id', 'to_address', 'template', 'values_json', 'created_at', 'sent_at', 'attempts', 'last_error']).where('id', 'in', mailIds).orderBy('created_at').execute()
    : [];
  return audited(db, who, 'inquiries.view', async () => ({ memberId: row.user_id, target: row.ticket_no, result: {
    inquiry: {
      ...itemOf(row, typeLabel),
      inquiry_user_type: row.inquiry_user_type,
      inquiry_user_type_label: userTypeLabel(row.inquiry_user_type),
      job: row.job,
      job_label: jobLabel(row.job),
      content: row.content,
      member_status: row.member_status,
      recipient: recipientOf(row),
    },
    answers,
    mails: mails.map((m) => ({ id: m.id, to: m.to_address, template: m.template, subject: subjectOf(m.template, valuesOf(m.values_json)), created_at: m.created_at, sent_at: m.sent_at, attempts: Number(m.attempts), status: m.sent_at ? 'sent' : 'queued' })),
    },
  }));
}

/** The answer's mail, nothing saved. */
export async function previewAnswer(db: Db, id: string, answer: string) {
  const row = await findInquiry(db, { id });
  const to = recipientOf(row);
  return { to, template: 'inquiryAnswered' as const, values: { name: to.name, ticketNo: row.ticket_no, answer } };
}

export interface AnswerDone {
  row: InquiryRow;
  answerId: string;
  mailId: string;
  to: InquiryRecipient;
  notice?: string;
}

/** open → answered: the answer, the member's notice, the audit entry and the queued mail. */
export async function answerInquiry(db: Db, outbox: Outbox, who: Who, key: { id?: string; ticketNo?: string }, answer: string): Promise<AnswerDone> {
  const row = await findInquiry(db, key);
  if (row.status === 'closed') throw new RecordRefusal('INQUIRY_CLOSED', { ticketNo: row.ticket_no, status: row.status, updatedAt: row.updated_at });
  if (row.status !== 'open') throw new RecordRefusal('ALREADY_ANSWERED', { ticketNo: row.ticket_no, status: row.status, updatedAt: row.updated_at });
  const to = recipientOf(row);
  const at = iso(now());
  const notice = format(operatorTexts.memberNotice.inquiryAnswered, { ticketNo: row.ticket_no });
  const answerId = randomUUID();
  const mailId = await audited(db, who, 'inquiries.answer', async (tx) => {
    // Only from open, checked again in the write: two operators answering at once cannot both win.
    const updated = await tx.updateTable('inquiries').set({ status: 'answered', answer, updated_at: at }).where('id', '=', row.id).where('status', '=', 'open').executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw new RecordRefusal('CHANGED_MEANWHILE', { ticketNo: row.ticket_no });
    if (to.member) await tx.insertInto('notifications').values({ id: randomUUID(), user_id: row.user_id, message: notice, created_at: at, posted_at: at, created_by: operatorIdOf(who), created_by_label: actorLabel(who.actor) }).execute();
    const id = await outbox.queue(tx, to.email, 'inquiryAnswered', { name: to.name, ticketNo: row.ticket_no, answer });
    await tx.insertInto('inquiry_answers').values({ id: answerId, inquiry_id: row.id, answer, note: null, corrects_id: null, operator_id: operatorIdOf(who), actor_label: actorLabel(who.actor), at, mail_id: id }).execute();
    return { result: id, memberId: row.user_id, target: row.ticket_no, detail: { answer, to: to.email } };
  });
  return { row, answerId, mailId, to, ...(to.member ? { notice } : {}) };
}

/** A correction of a sent answer: a new answer row that names the one it corrects, the stored
 *  answer replaced (the member's history shows the corrected one), a correction mail. */
export async function correctAnswer(db: Db, outbox: Outbox, who: Who, id: string, answerId: string, answer: string, note: string): Promise<AnswerDone> {
  const row = await findInquiry(db, { id });
  const corrected = await db.selectFrom('inquiry_answers').select(['id']).where('id', '=', answerId).where('inquiry_id', '=', row.id).executeTakeFirst();
  if (!corrected) throw new RecordRefusal('NOT_ANSWERED', { ticketNo: row.ticket_no });
  const to = recipientOf(row);
  const at = iso(now());
  const notice = format(operatorTexts.memberNotice.inquiryCorrected, { ticketNo: row.ticket_no });
  const newId = randomUUID();
  const mailId = await audited(db, who, 'inquiries.correct', async (tx) => {
    await tx.updateTable('inquiries').set({ answer, updated_at: at }).where('id', '=', row.id).execute();
    if (to.member) await tx.insertInto('notifications').values({ id: randomUUID(), user_id: row.user_id, message: notice, created_at: at, posted_at: at, created_by: operatorIdOf(who), created_by_label: actorLabel(who.actor) }).execute();
    const mail = await outbox.queue(tx, to.email, 'inquiryCorrection', { name: to.name, ticketNo: row.ticket_no, answer, note });
    await tx.insertInto('inquiry_answers').values({ id: newId, inquiry_id: row.id, answer, note, corrects_id: answerId, operator_id: operatorIdOf(who), actor_label: actorLabel(who.actor), at, mail_id: mail }).execute();
    return { result: mail, memberId: row.user_id, target: row.ticket_no, detail: { corrects: answerId, answer, note, to: to.email } };
  });
  return { row, answerId: newId, mailId, to, ...(to.member ? { notice } : {}) };
}

/** The correction's mail, nothing saved. */
export async function previewCorrection(db: Db, id: string, answer: string, note: string) {
  const row = await findInquiry(db, { id });
  const to = recipientOf(row);
  return { to, template: 'inquiryCorrection' as const, values: { name: to.name, ticketNo: row.ticket_no, answer, note } };
}

/** Operators an inquiry may be assigned to: active office staff. */
export async function assignableOperators(db: Db): Promise<AssignableOperator[]> {
  return db.selectFrom('operators').select(['id', 'name', 'email', 'role']).where('status', '=', 'active').where('role', 'in', ['admin', 'secretariat']).orderBy('name').execute();
}

export async function assignInquiry(db: Db, who: Who, id: string, operatorId: string): Promise<InquiryAssigned> {
  const row = await findInquiry(db, { id });
  const operator = await db.selectFrom('operators').select(['id', 'name', 'status', 'role']).where('id', '=', operatorId).executeTakeFirst();
  if (!operator || operator.status !== 'active' || !['admin', 'secretariat'].includes(operator.role)) {
    throw new RecordRefusal('VALIDATION', { operatorId }, { operator_id: [operatorTexts.records.unknownOperator] });
  }
  await audited(db, who, 'inquiries.assign', async (tx) => {
    await tx.updateTable('inquiries').set({ assigned_to: operator.id }).where('id', '=', row.id).execute();
    return { result: undefined, memberId: row.user_id, target: row.ticket_no, detail: { operator_id: operator.id, operator: operator.name, previous: row.assigned_to } };
});
  return { id: row.id, ticket_no: row.ticket_no, assigned_to: { id: operator.id, name: operator.name } };
}

/** open or answered → closed. Nothing is sent: closing only ends the case. */
export async function closeInquiry(db: Db, who: Who, key: { id?: string; ticketNo?: string }) {
  const row = await findInquiry(db, key);
  if (row.status === 'closed') throw new RecordRefusal('INQUIRY_CLOSED', { ticketNo: row.ticket_no, status: row.status, updatedAt: row.updated_at });
  const at = iso(now());
  await audited(db, who, 'inquiries.done', async (tx) => {
    const updated = await tx.updateTable('inquiries').set({ status: 'closed', updated_at: at }).where('id', '=', row.id).where('status', '=', row.status).executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw new RecordRefusal('CHANGED_MEANWHILE', { ticketNo: row.ticket_no });
    return { result: undefined, memberId: row.user_id, target: row.ticket_no, detail: { previous: row.status } };
});
  return { row, previous: row.status };
}
