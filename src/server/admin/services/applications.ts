// Registration applications, as the back office and the command line handle them: the list
// (status, search, newest first), one application in full (the view is recorded), the decision
// (pending → approved/declined) and its reversal (back to pending, admin only). Each change, the
// member's notice, its audit entry and the queued mail are one transaction; the mail is tried
// after the commit by the caller (a failure leaves it in the outbox, the decision stands).
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/connect';
import type { User } from '../../db/types';
import type { MailTemplate } from '../../mail/mailer';
import type { Outbox } from '../../mail/outbox';
import { masterOptions } from '../../masters';
import { iso, now } from '../../services/clock';
import { format } from '../../../shared/format';
import operatorTexts from '../../../../messages/operator.ja.json';
import { actorLabel, audited } from '../audit';
import { operatorIdOf, RecordRefusal, type Who } from './common';
import { memberFieldValues, optionLists, recordForms } from './member-fields';
import type { ApplicationDetail, ApplicationItem, Decision, DecisionItem, MemberSummary } from '../../../shared/admin-api';
import type { SchemaSet } from '../../../shared/validation/schema-files';
import type { MasterOption } from '../../../shared/api-types';

export function selectApplications(db: Db) {
  return db
    .selectFrom('applications')
    .innerJoin('users', 'users.id', 'applications.user_id')
    .select([
      'applications.id',
      'applications.user_id',
      'applications.register_number',
      'applications.status',
      'applications.applied_at',
      'applications.decided_at',
      'users.email',
      'users.status as member_status',
      'users.last_name_kanji',
      'users.first_name_kanji',
    ]);
}

export type ApplicationRow = NonNullable<Awaited<ReturnType<ReturnType<typeof selectApplications>['executeTakeFirst']>>>;

export const fullName = (row: { last_name_kanji: string; first_name_kanji: string }) => `${row.last_name_kanji} ${row.first_name_kanji}`.trim();

// The member search lives in ./member-search (stored keys read by prefix, ADR 032).
export { whereMember } from './member-search';

export const itemOf = (row: ApplicationRow): ApplicationItem => ({
  register_number: row.register_number,
  status: row.status,
  applied_at: row.applied_at,
  decided_at: row.decided_at,
  name: fullName(row),
  email: row.email,
  member_status: row.member_status,
});

export async function findApplication(db: Db, registerNumber: string): Promise<ApplicationRow> {
  const number = registerNumber.trim().toUpperCase();
  const row = await selectApplications(db).where('applications.register_number', '=', number).executeTakeFirst();
  if (!row) throw new RecordRefusal('RECORD_NOT_FOUND', { registerNumber: number });
  return row;
}

/** An application's decisions, oldest first, each decision with the reversal that undid it. */
export async function decisionsOf(db: Db, applicationId: string): Promise<DecisionItem[]> {
  const rows = await db
    .selectFrom('application_decisions')
    .select(['kind', 'decision', 'reason', 'actor_label', 'at'])
    .where('application_id', '=', applicationId)
    .orderBy('at')
    .orderBy('id')
    .execute();
  const items: DecisionItem[] = [];
  for (const row of rows) {
    const item: DecisionItem = { kind: row.kind, decision: row.decision, reason: row.reason, operator: row.actor_label, at: row.at };
    const undone = row.kind === 'reversal' ? [...items].reverse().find((earlier) => earlier.kind === 'decision' && !earlier.reversed_by) : undefined;
    if (undone) undone.reversed_by = { reason: row.reason, operator: row.actor_label, at: row.at };
    items.push(item);
  }
  return items;
}

export async function memberSummary(db: Db, set: SchemaSet, user: User): Promise<MemberSummary> {
  const masters = await optionLists(db, recordForms(set));
  return {
    id: user.id,
    email: user.email,
    status: user.status,
    name: fullName(user),
    registered_at: user.created_at,
    withdrawn_at: user.withdrawn_at,
    fields: memberFieldValues(set, masters, user),
  };
}

/** Labels of the member's purposes (the purpose option list). */
export async function purposesOf(db: Db, user: User): Promise<MasterOption[]> {
  const options = new Map((await masterOptions(db, 'purpose')).map((o) => [o.value, o.label]));
  return user.purpose
    .split(',')
    .filter(Boolean)
    .map((value) => ({ value, label: options.get(value) ?? value }));
}

/** One application in full; the view is recorded (applications.view). */
export async function applicationDetail(db: Db, set: SchemaSet, who: Who, registerNumber: string): Promise<ApplicationDetail> {
  const row = await findApplication(db, registerNumber);
  const user = await db.selectFrom('users').selectAll().where('id', '=', row.user_id).executeTakeFirstOrThrow();
  const [member, purposes, decisions] = await Promise.all([memberSummary(db, set, user), purposesOf(db, user), decisionsOf(db, row.id)]);
  return audited(db, who, 'applications.view', async () => ({ result: { application: itemOf(row), member, purposes, decisions }, memberId: user.id, target: row.register_number }));
}

/** The mail a decision sends: template and values. */
export function decisionMail(row: ApplicationRow, decision: Decision, reason: string): { template: MailTemplate; values: Record<string, string> } {
  const base = { name: fullName(row), registerNumber: row.register_number };
  return decision === 'approved' ? { template: 'applicationApproved', values: base } : { template: 'applicationDeclined', values: { ...base, reason } };
}

const noticeOf = (decision: Decision) => (decision === 'approved' ? operatorTexts.memberNotice.applicationApproved : operatorTexts.memberNotice.applicationDeclined);

/** The application may be decided: pending, and its member still a member. */
function checkDecidable(row: ApplicationRow): void {
  if (row.status !== 'pending') throw new RecordRefusal('ALREADY_DECIDED', { registerNumber: row.register_number, status: row.status, decidedAt: row.decided_at });
  if (row.member_status !== 'active') throw new RecordRefusal('MEMBER_WITHDRAWN', { registerNumber: row.register_number, email: row.email });
}

/** What deciding would do, nothing saved: the member and the mail. */
export async function previewDecision(db: Db, registerNumber: string, decision: Decision, reason: string) {
  const row = await findApplication(db, registerNumber);
  checkDecidable(row);
  return { row, mail: decisionMail(row, decision, reason), notice: noticeOf(decision) };
}

export interface DecisionDone {
  application: ApplicationItem;
  memberId: string;
  notice: string;
  mailId: string;
  email: string;
  name: string;
}

/** pending → approved/declined, with the member's notice, the audit entry and the queued mail. */
export async function decideApplication(db: Db, outbox: Outbox, who: Who, registerNumber: string, decision: Decision, reason: string): Promise<DecisionDone> {
  const row = await findApplication(db, registerNumber);
  checkDecidable(row);
  const at = iso(now());
  const notice = noticeOf(decision);
  const { template, values } = decisionMail(row, decision, reason);
  const mailId = await audited(db, who, decision === 'approved' ? 'applications.approve' : 'applications.decline', async (tx) => {
    // Only from pending and for a member, checked again in the write: two operators deciding at
    // once cannot both win, and a member who withdrew meanwhile is not decided.
    const updated = await tx
      .updateTable('applications')
      .set({ status: decision, decided_at: at })
      .where('id', '=', row.id)
      .where('status', '=', 'pending')
      .where((eb) => eb.exists(eb.selectFrom('users').select('users.id').where('users.id', '=', row.user_id).where('users.status', '=', 'active')))
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw new RecordRefusal('DECIDED_MEANWHILE', { registerNumber: row.register_number });
    const id = await outbox.queue(tx, row.email, template, values);
    await tx
      .insertInto('application_decisions')
      .values({ id: randomUUID(), application_id: row.id, kind: 'decision', decision, reason, operator_id: operatorIdOf(who), actor_label: actorLabel(who.actor), at, mail_id: id })
      .execute();
    await tx
      .insertInto('notifications')
      .values({ id: randomUUID(), user_id: row.user_id, message: notice, created_at: at, posted_at: at, created_by: operatorIdOf(who), created_by_label: actorLabel(who.actor) })
      .execute();
    return { result: id, memberId: row.user_id, target: row.register_number, detail: { decision, reason } };
  });
  return { application: { ...itemOf(row), status: decision, decided_at: at }, memberId: row.user_id, notice, mailId, email: row.email, name: fullName(row) };
}

/** Retracts the notice of the application's standing decision (posted with the decision, to its
 *  member, at its time, in its words) and returns the notices' ids (none: already retracted). */
async function retractDecisionNotice(db: Db, row: ApplicationRow, at: string): Promise<string[]> {
  const decision = await db
    .selectFrom('application_decisions')
    .select(['decision', 'at'])
    .where('application_id', '=', row.id)
    .where('kind', '=', 'decision')
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!decision || (decision.decision !== 'approved' && decision.decision !== 'declined')) return [];
  const notices = await db
    .selectFrom('notifications')
    .select('id')
    .where('user_id', '=', row.user_id)
    .where('created_at', '=', decision.at)
    .where('message', '=', noticeOf(decision.decision))
    .where('retracted_at', 'is', null)
    .execute();
  const ids = notices.map((notice) => notice.id);
  if (ids.length > 0) await db.updateTable('notifications').set({ retracted_at: at }).where('id', 'in', ids).where('retracted_at', 'is', null).execute();
  return ids;
}

/** approved/declined → pending, with the reason; the member is told by notice and mail, and the
 *  decision's notice is retracted from my page. */
export async function reverseDecision(db: Db, outbox: Outbox, who: Who, registerNumber: string, reason: string): Promise<DecisionDone> {
  const row = await findApplication(db, registerNumber);
  if (row.status === 'pending') throw new RecordRefusal('NOT_DECIDED', { registerNumber: row.register_number });
  if (row.member_status !== 'active') throw new RecordRefusal('MEMBER_WITHDRAWN', { registerNumber: row.register_number, email: row.email });
  const at = iso(now());
  const notice = format(operatorTexts.memberNotice.applicationReversed, { registerNumber: row.register_number });
  const mailId = await audited(db, who, 'applications.reverse', async (tx) => {
    const updated = await tx
      .updateTable('applications')
      .set({ status: 'pending', decided_at: null })
      .where('id', '=', row.id)
      .where('status', '=', row.status)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw new RecordRefusal('DECIDED_MEANWHILE', { registerNumber: row.register_number });
    const id = await outbox.queue(tx, row.email, 'applicationReversed', { name: fullName(row), registerNumber: row.register_number, reason });
    // The decision's notice no longer stands: taken back from my page in this transaction, so the
    // member reads the reversal alone, never beside the decision it undoes.
    const retracted = await retractDecisionNotice(tx, row, at);
    await tx
      .insertInto('application_decisions')
      .values({ id: randomUUID(), application_id: row.id, kind: 'reversal', decision: 'pending', reason, operator_id: operatorIdOf(who), actor_label: actorLabel(who.actor), at, mail_id: id })
      .execute();
    await tx
      .insertInto('notifications')
      .values({ id: randomUUID(), user_id: row.user_id, message: notice, created_at: at, posted_at: at, created_by: operatorIdOf(who), created_by_label: actorLabel(who.actor) })
      .execute();
    return { result: id, memberId: row.user_id, target: row.register_number, detail: { from: row.status, reason, retracted } };
  });
  return { application: { ...itemOf(row), status: 'pending', decided_at: null }, memberId: row.user_id, notice, mailId, email: row.email, name: fullName(row) };
}
