// inquiries list / show / answer / close: the inquiries visitors and members send through the
// contact form (POST /v1/contact). Members follow theirs in the inquiry history of my page
// (GET /v1/user/contact/list, filtered by status), so answering and closing here is what moves
// an inquiry from open to answered and closed there (the labels members see are in messages/).
import { randomUUID } from 'node:crypto';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { Db } from '../db/connect';
import type { InquiryStatus } from '../db/types';
import { masterOptions, type MasterName } from '../masters';
import { iso, now } from '../services/clock';
import type { Command, CommandRun } from './command';
import { OperatorError, describeError } from './errors';
import { operatorMail } from './mail';
import { nothingSavedOnFailure } from './nothing-saved';
import { align, japanTime, table } from './output';
import { LIST_PAGE_SIZE, pageOf, printFooter } from './pages';
import { parseOrFail, say, text, usageError } from './text';

const STATUSES: readonly InquiryStatus[] = ['open', 'answered', 'closed'];
const isStatus = (value: string): value is InquiryStatus => (STATUSES as readonly string[]).includes(value);

/** How much of the content the list shows (characters). */
const EXCERPT_LENGTH = 30;

const USAGE = {
  list: 'inquiries list [--status open|answered|closed|all] [--after <ticketNo>]',
  show: 'inquiries show <ticketNo>',
  answer: 'inquiries answer <ticketNo> --message "…"',
  close: 'inquiries close <ticketNo>',
};

const t = text.inquiries;

export const inquiryStatusLabel = (status: string) =>
  say(text.statusLabel, { status, label: (text.inquiryStatus as Record<string, string>)[status] ?? status });

function selectInquiries(db: Db) {
  return db
    .selectFrom('inquiries')
    .leftJoin('users', 'users.id', 'inquiries.user_id')
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
      'users.status as member_status',
      'users.email as member_email',
      'users.last_name_kanji as member_last_name',
      'users.first_name_kanji as member_first_name',
    ]);
}

type InquiryRow = NonNullable<Awaited<ReturnType<ReturnType<typeof selectInquiries>['executeTakeFirst']>>>;

const senderName = (row: InquiryRow) => `${row.last_name_kanji} ${row.first_name_kanji}`;

/** Member, withdrawn member or visitor (labels from messages/). */
function senderKind(row: InquiryRow): string {
  if (row.user_id === null) return t.visitor;
  return row.member_status === 'active' ? t.member : t.memberWithdrawn;
}

/** Whom the answer goes to: an active member at their current address and name (they may have
 *  changed either since asking); anyone else at the address the form carried. */
function recipient(row: InquiryRow): { name: string; email: string; member: boolean } {
  if (row.user_id !== null && row.member_status === 'active' && row.member_email) {
    return { name: `${row.member_last_name} ${row.member_first_name}`, email: row.member_email, member: true };
  }
  return { name: senderName(row), email: row.email, member: false };
}

/** The start of the content on one line, as far as EXCERPT_LENGTH characters. */
export function excerpt(content: string): string {
  const chars = [...content.replace(/\s+/g, ' ').trim()];
  return chars.length > EXCERPT_LENGTH ? `${chars.slice(0, EXCERPT_LENGTH).join('')}…` : chars.join('');
}

/** value → label of a master list; a value no longer in the list shows as itself. */
async function labels(db: Db, name: MasterName): Promise<(value: string) => string> {
  const options = new Map((await masterOptions(db, name)).map((o) => [o.value, o.label]));
  return (value) => options.get(value) ?? value;
}

function ticketNoArg(args: string[], usage: string, options: ParseArgsConfig['options'] = {}) {
  const { values, positionals } = parseOrFail(() => parseArgs({ args, options, allowPositionals: true, strict: true }), usage);
  const ticketNo = positionals[0]?.trim().toUpperCase();
  if (!ticketNo) throw usageError(text.errors.ticketNoRequired, usage);
  if (positionals.length > 1) throw usageError(say(text.errors.unexpectedArguments, { args: positionals.slice(1).join(' ') }), usage);
  return { ticketNo, values };
}

async function findInquiry(db: Db, ticketNo: string, unchanged: boolean): Promise<InquiryRow> {
  const row = await selectInquiries(db).where('inquiries.ticket_no', '=', ticketNo).executeTakeFirst();
  if (!row) {
    const message = say(text.errors.unknownInquiry, { ticketNo });
    throw new OperatorError(unchanged ? `${message}${text.errors.unchanged}` : message);
  }
  return row;
}

/** A row's place in the operator's list: newest first, then by ticket number (descending). */
export interface InquiryListKey {
  created_at: string;
  ticket_no: string;
}

/** One page of the operator's list: `limit` inquiries of `status` (or all) after `after`, one
 *  range of the index inquiries_list / inquiries_status_list (migration 013). */
export function inquiryListQuery(db: Db, status: InquiryStatus | 'all', after: InquiryListKey | undefined, limit: number) {
  const query = status === 'all' ? selectInquiries(db) : selectInquiries(db).where('inquiries.status', '=', status);
  const ranged = after
    ? query
        .where('inquiries.created_at', '<=', after.created_at)
        .where((eb) => eb.or([eb('inquiries.created_at', '<', after.created_at), eb('inquiries.ticket_no', '<', after.ticket_no)]))
    : query;
  return ranged.orderBy('inquiries.created_at', 'desc').orderBy('inquiries.ticket_no', 'desc').limit(limit);
}

export const listInquiries: CommandRun = async (db, _mailer, args, output) => {
  const { values, positionals } = parseOrFail(
    () => parseArgs({ args, options: { status: { type: 'string' }, after: { type: 'string' } }, allowPositionals: true, strict: true }),
    USAGE.list,
  );
  if (positionals.length > 0) throw usageError(say(text.errors.unexpectedArguments, { args: positionals.join(' ') }), USAGE.list);
  // As the member's inquiry history: open unless told otherwise, `all` for every status.
  const status = values.status ?? 'open';
  if (status !== 'all' && !isStatus(status)) throw usageError(say(text.errors.badInquiryStatus, { status }), USAGE.list);
  const afterTicket = values.after?.trim().toUpperCase();
  const after = afterTicket
    ? await db.selectFrom('inquiries').select(['created_at', 'ticket_no']).where('ticket_no', '=', afterTicket).executeTakeFirst()
    : undefined;
  if (afterTicket && !after) throw usageError(say(text.errors.unknownAfter, { value: afterTicket }), USAGE.list);

  const { shown: rows, more } = pageOf(await inquiryListQuery(db, status, after, LIST_PAGE_SIZE + 1).execute());
  if (rows.length === 0) {
    output.out(t.none);
    return;
  }
  const typeLabel = await labels(db, 'inquiry_type');
  const c = t.columns;
  const lines = table(
    [c.ticketNo, c.status, c.receivedAt, c.type, c.name, c.email, c.sender, c.content],
    rows.map((row) => [
      row.ticket_no,
      inquiryStatusLabel(row.status),
      japanTime(row.created_at),
      typeLabel(row.inquiry_type),
      senderName(row),
      row.email,
      senderKind(row),
      excerpt(row.content),
    ]),
  );
  for (const line of lines) output.out(line);
  printFooter(output, t.count, rows.length, more, () => ['inquiries', 'list', '--status', status, '--after', rows.at(-1)!.ticket_no]);
};

/** A block of free text (content, answer), each of its lines indented under its heading. */
const block = (heading: string, body: string) => [`${heading}:`, ...body.split(/\r?\n/).map((line) => (line ? `  ${line}` : ''))];

export const showInquiry: CommandRun = async (db, _mailer, args, output) => {
  const { ticketNo } = ticketNoArg(args, USAGE.show);
  const row = await findInquiry(db, ticketNo, false);
  const [typeLabel, userTypeLabel, jobLabel] = await Promise.all([labels(db, 'inquiry_type'), labels(db, 'inquiry_user_category'), labels(db, 'job')]);
  const option = (label: (value: string) => string, value: string) => say(t.optionLabel, { label: label(value), value });
  const f = t.fields;
  const rows: string[][] = [
    [f.ticketNo, row.ticket_no],
    [f.status, inquiryStatusLabel(row.status)],
    [f.receivedAt, japanTime(row.created_at)],
    [f.updatedAt, japanTime(row.updated_at)],
    [f.type, option(typeLabel, row.inquiry_type)],
    [f.userType, option(userTypeLabel, row.inquiry_user_type)],
    [f.job, option(jobLabel, row.job)],
    [f.name, senderName(row)],
    [f.email, row.email],
    [f.sender, senderKind(row)],
  ];
  if (row.member_email && row.member_status === 'active' && row.member_email !== row.email) rows.push([f.memberEmail, row.member_email]);
  for (const line of align(rows)) output.out(line);
  output.out('');
  for (const line of block(f.content, row.content)) output.out(line);
  output.out('');
  for (const line of row.answer === null ? [`${f.answer}:`, `  ${t.noAnswer}`] : block(f.answer, row.answer)) output.out(line);
};

/** open → answered. The answer, the status, the member's notice and the queued mail are
 *  committed together, and the mail is tried after the commit: if it fails, the answer stays
 *  stored (show prints it), the member's history already says answered and the mail waits in
 *  the outbox; the operator is told to reach the sender another way. */
export const answerInquiry: CommandRun = async (db, mailer, args, output) => {
  const { ticketNo, values } = ticketNoArg(args, USAGE.answer, { message: { type: 'string' } });
  const answer = typeof values.message === 'string' ? values.message.trim() : '';
  if (!answer) throw usageError(text.errors.answerRequired, USAGE.answer);

  const row = await findInquiry(db, ticketNo, true);
  if (row.status !== 'open') {
    throw new OperatorError(say(text.errors.notOpen, { ticketNo, status: inquiryStatusLabel(row.status), updatedAt: japanTime(row.updated_at) }));
  }

  const to = recipient(row);
  const at = iso(now());
  const notice = say(text.memberNotice.inquiryAnswered, { ticketNo });
  const mail = operatorMail(db, mailer);
  const mailId = await nothingSavedOnFailure(() =>
    db.transaction().execute(async (tx) => {
      // Only from open, checked again in the write: two operators answering at once cannot both win.
      const updated = await tx
        .updateTable('inquiries')
        .set({ status: 'answered', answer, updated_at: at })
        .where('id', '=', row.id)
        .where('status', '=', 'open')
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== 1) throw new OperatorError(say(text.errors.inquiryChangedMeanwhile, { ticketNo }));
      if (to.member) await tx.insertInto('notifications').values({ id: randomUUID(), user_id: row.user_id, message: notice, created_at: at }).execute();
      return mail.queue(tx, to.email, 'inquiryAnswered', { name: to.name, ticketNo, answer });
    }),
  );

  const status = inquiryStatusLabel('answered');
  output.out(say(t.answered, { ticketNo, name: to.name, email: to.email, status }));
  if (to.member) output.out(say(t.noticePosted, { message: notice }));
  else if (row.user_id !== null) output.out(t.noticeSkippedWithdrawn);
  try {
    await mail.send(mailId);
  } catch (error) {
    throw new OperatorError(
      say(text.errors.answerMailFailed, {
        ticketNo,
        status,
        notice: to.member ? t.noticeAlsoPosted : '',
        name: to.name,
        email: to.email,
        detail: describeError(error),
      }),
    );
  }
  output.out(say(t.mailSent, { email: to.email }));
};

/** open or answered → closed. Nothing is sent: closing only ends the case. */
export const closeInquiry: CommandRun = async (db, _mailer, args, output) => {
  const { ticketNo } = ticketNoArg(args, USAGE.close);
  const row = await findInquiry(db, ticketNo, true);
  if (row.status === 'closed') {
    throw new OperatorError(say(text.errors.alreadyClosed, { ticketNo, status: inquiryStatusLabel(row.status), updatedAt: japanTime(row.updated_at) }));
  }
  const updated = await db
    .updateTable('inquiries')
    .set({ status: 'closed', updated_at: iso(now()) })
    .where('id', '=', row.id)
    .where('status', '=', row.status)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) throw new OperatorError(say(text.errors.inquiryChangedMeanwhile, { ticketNo }));
  output.out(say(t.closed, { ticketNo, status: inquiryStatusLabel('closed'), previous: inquiryStatusLabel(row.status) }));
};

export const inquiryCommands: Command[] = [
  { group: 'inquiries', name: 'list', usage: [USAGE.list], summary: 'inquiriesList', run: listInquiries },
  { group: 'inquiries', name: 'show', usage: [USAGE.show], summary: 'inquiriesShow', run: showInquiry },
  { group: 'inquiries', name: 'answer', usage: [USAGE.answer], summary: 'inquiriesAnswer', run: answerInquiry },
  { group: 'inquiries', name: 'close', usage: [USAGE.close], summary: 'inquiriesClose', run: closeInquiry },
];
