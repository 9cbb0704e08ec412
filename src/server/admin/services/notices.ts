// Notices to one member (by register number) or to every member, as the back office and the command
// line post them: at once or scheduled (publish_at: the notice's created_at is the time it shows
// on my page; src/server/notices.ts reads no notice before its time), and retracted (gone from
// my page, kept here and in the audit log). Every post and retraction is recorded.
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/connect';
import { iso, now } from '../../services/clock';
import { actorLabel, audited } from '../audit';
import { countOf, operatorIdOf, RecordRefusal, type Who } from './common';
import { fullName } from './applications';
import type { NoticeInput, NoticeItem, NoticePreview, NoticeSent, NoticeStatus } from '../../../shared/admin-api';
import recordMessages from '../../../../messages/operator.ja.json';

const statusOf = (row: { created_at: string; retracted_at?: string | null }, at: string): NoticeStatus =>
  row.retracted_at ? 'retracted' : row.created_at > at ? 'scheduled' : 'published';

export function selectNotices(db: Db) {
  return db
    .selectFrom('notifications')
    .leftJoin('users', 'users.id', 'notifications.user_id')
    .select([
      'notifications.id',
      'notifications.user_id',
      'notifications.message',
      'notifications.created_at',
      'notifications.posted_at',
      'notifications.retracted_at',
      'notifications.created_by_label',
      'users.last_name_kanji',
      'users.first_name_kanji',
    ]);
}

type NoticeRow = NonNullable<Awaited<ReturnType<ReturnType<typeof selectNotices>['executeTakeFirst']>>>;

/** The member's newest application's register number (the number the office knows them by). */
export async function registerNumbers(db: Db, userIds: string[]): Promise<Map<string, string>> {
  if (userIds.length === 0) return new Map();
  const rows = await db.selectFrom('applications').select(['user_id', 'register_number', 'applied_at']).where('user_id', 'in', userIds).orderBy('applied_at').execute();
  return new Map(rows.map((row) => [row.user_id, row.register_number]));
}

export function itemsOf(rows: NoticeRow[], numbers: Map<string, string>, at: string): NoticeItem[] {
  return rows.map((row) => ({
    id: row.id,
    audience: row.user_id === null ? 'all' : 'one',
    ...(row.user_id === null
      ? {}
      : {
          member_id: row.user_id,
          register_number: numbers.get(row.user_id),
          member_name: row.last_name_kanji !== null && row.first_name_kanji !== null ? fullName({ last_name_kanji: row.last_name_kanji, first_name_kanji: row.first_name_kanji }) : undefined,
        }),
    message: row.message,
    publish_at: row.created_at,
    created_at: row.posted_at ?? row.created_at,
    created_by: row.created_by_label ?? null,
    retracted_at: row.retracted_at ?? null,
    status: statusOf(row, at),
  }));
}

/** The notices to one member (their own only, retracted too), newest first (index notifications_member). */
export async function noticesOfMember(db: Db, userId: string, limit = 100): Promise<NoticeItem[]> {
  const rows = await selectNotices(db)
    .where('notifications.user_id', '=', userId)
    .orderBy('notifications.created_at', 'desc')
    .orderBy('notifications.id', 'desc')
    .limit(limit)
    .execute();
  return itemsOf(rows, await registerNumbers(db, [userId]), iso(now()));
}

const unknownNumber = (registerNumber: string) =>
  new RecordRefusal('VALIDATION', { registerNumber }, { register_number: [recordMessages.records.unknownRegisterNumber] });

/** The active member an application's register number names. */
async function recipientOf(db: Db, registerNumber: string) {
  const number = registerNumber.trim().toUpperCase();
  const row = await db
    .selectFrom('applications')
    .innerJoin('users', 'users.id', 'applications.user_id')
    .select(['users.id', 'users.email', 'users.status', 'users.last_name_kanji', 'users.first_name_kanji'])
    .where('applications.register_number', '=', number)
    .executeTakeFirst();
  if (!row) throw unknownNumber(number);
  if (row.status !== 'active') throw new RecordRefusal('MEMBER_WITHDRAWN', { registerNumber: number, email: row.email });
  return { id: row.id, email: row.email, name: fullName(row) };
}

/** The active members a notice to everyone reaches. */
export async function activeMemberCount(db: Db): Promise<number> {
  return countOf(await db.selectFrom('users').select((eb) => eb.fn.countAll<string>().as('count')).where('status', '=', 'active').executeTakeFirst());
}

/** A date and time without a zone is Japan time. */
const ZONED = /(Z|[+-]\d{2}:\d{2})$/;

const publishAtOf = (input: NoticeInput, at: string): string => {
  const text = input.publish_at?.trim();
  const wanted = text ? new Date(ZONED.test(text) ? text : `${text}+09:00`) : undefined;
  return wanted && !Number.isNaN(wanted.getTime()) && iso(wanted) > at ? iso(wanted) : at;
};

/** Whom a notice would reach, nothing saved. */
export async function previewNotice(db: Db, input: NoticeInput): Promise<NoticePreview> {
  const at = iso(now());
  if (input.audience === 'one') {
    const member = await recipientOf(db, input.register_number ?? '');
    return { recipients: 1, member: { name: member.name, email: member.email }, message: input.message, publish_at: publishAtOf(input, at) };
  }
  return { recipients: await activeMemberCount(db), message: input.message, publish_at: publishAtOf(input, at) };
}

/** Posts the notice (scheduled when publish_at is later than now); one audit entry. */
export async function sendNotice(db: Db, who: Who, input: NoticeInput, to?: { id: string; email: string }): Promise<NoticeSent> {
  const at = iso(now());
  // The command line names the member by address (`to`), the back office by register number.
  const member = input.audience === 'one' ? (to ?? (await recipientOf(db, input.register_number ?? ''))) : undefined;
  const publishAt = publishAtOf(input, at);
  const id = randomUUID();
  const recipients = member ? 1 : await activeMemberCount(db);
  await audited(db, who, 'notices.send', async (tx) => {
    await tx
      .insertInto('notifications')
      .values({ id, user_id: member?.id ?? null, message: input.message, created_at: publishAt, posted_at: at, created_by: operatorIdOf(who), created_by_label: actorLabel(who.actor) })
      .execute();
    return {
      result: undefined,
      memberId: member?.id ?? null,
      target: id,
      detail: {
        audience: input.audience,
        // undefined rather than a spread, so the detail's keys stay checked (JSON drops undefined)
        register_number: member && input.register_number ? input.register_number.trim().toUpperCase() : undefined,
        email: to?.email,
        recipients,
        publish_at: publishAt,
        message: input.message,
      },
    };
  });
  const row = await selectNotices(db).where('notifications.id', '=', id).executeTakeFirstOrThrow();
  const numbers = member ? await registerNumbers(db, [member.id]) : new Map<string, string>();
  return { notice: itemsOf([row], numbers, iso(now()))[0]!, recipients };
}

/** Takes a notice back from my page; one audit entry. */
export async function retractNotice(db: Db, who: Who, id: string): Promise<NoticeItem> {
  const row = await selectNotices(db).where('notifications.id', '=', id).executeTakeFirst();
  if (!row) throw new RecordRefusal('RECORD_NOT_FOUND', { id });
  if (row.retracted_at) throw new RecordRefusal('NOTICE_RETRACTED', { id, retractedAt: row.retracted_at });
  const at = iso(now());
  await audited(db, who, 'notices.retract', async (tx) => {
    const updated = await tx.updateTable('notifications').set({ retracted_at: at }).where('id', '=', id).where('retracted_at', 'is', null).executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw new RecordRefusal('NOTICE_RETRACTED', { id });
    return { result: undefined, memberId: row.user_id, target: id, detail: { audience: row.user_id === null ? 'all' : 'one', message: row.message, publish_at: row.created_at } };
  });
  const numbers = row.user_id ? await registerNumbers(db, [row.user_id]) : new Map<string, string>();
  return itemsOf([{ ...row, retracted_at: at }], numbers, at)[0]!;
}
