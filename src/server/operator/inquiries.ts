// inquiries list / show / answer / close: the inquiries visitors and members send through the
// contact form (POST /v1/contact). Members follow theirs in the inquiry history of my page
// (GET /v1/user/contact/list, filtered by status), so answering and closing here is what moves
// an inquiry from open to answered and closed there (the labels members see are in messages/).
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { Db } from '../db/connect';
import { RECORD_KINDS, type RecordKind } from '../../shared/record-kinds';
import type { InquiryItem } from '../../shared/admin-api';
import type { InquiryStatus } from '../db/types';
import { masterOptions, type MasterName } from '../masters';
import { createOutbox } from '../mail/outbox';
import { answerInquiry as answerWithService, closeInquiry as closeWithService } from '../admin/services/inquiries';
import { cliWho, RecordRefusal } from '../admin/services/common';
import type { Command, CommandRun } from './command';
import { OperatorError, describeError } from './errors';
import { operatorMail } from './mail';
import { nothingSavedOnFailure } from './nothing-saved';
import { align, japanTime, table } from './output';
import { dayOption, moreLineOf, printFooter, recordsPage, repeated, sortOption } from './pages';
import { parseOrFail, say, text, usageError } from './text';

const STATUSES: readonly InquiryStatus[] = ['open', 'answered', 'closed'];
const isStatus = (value: string): value is InquiryStatus => (STATUSES as readonly string[]).includes(value);

/** How much of the content the list shows (characters). */
const EXCERPT_LENGTH = 30;

const USAGE = {
  list: 'inquiries list [--status open|answered|closed|all] [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--sort newest|oldest] [--after <ticketNo>]',
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
    ])
    // An inquiry erased after its retention period (ADR 041) is gone from the office: not listed,
    // not found, never answered to an address it no longer has.
    .where('inquiries.erased_at', 'is', null);
}

type InquiryRow = NonNullable<Awaited<ReturnType<ReturnType<typeof selectInquiries>['executeTakeFirst']>>>;

const senderName = (row: InquiryRow) => `${row.last_name_kanji} ${row.first_name_kanji}`;

/** Member, withdrawn member or visitor (labels from messages/). */
function senderKind(row: Pick<InquiryRow, 'user_id' | 'member_status'>): string {
  if (row.user_id === null) return t.visitor;
  return row.member_status === 'active' ? t.member : t.memberWithdrawn;
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

/** The back office's inquiry list (schemas/records/inquiries.json) with what the command line
 *  prints beside its columns: the content's start and whether the sender is a member (the rows
 *  of the same query carry them; listRecords adds a declared column the item lacks). */
const inquiries: RecordKind = {
  ...RECORD_KINDS.inquiries,
  columns: [...RECORD_KINDS.inquiries.columns, { name: 'content' }, { name: 'member_status' }],
};

type ListedInquiry = InquiryItem & { content: string; member_status: InquiryRow['member_status'] };

/** The list as the back office's (listRecords): of a status (open unless told otherwise, `all`
 *  for every one), received between two Japan days, newest or oldest first; the view is recorded. */
export const listInquiries: CommandRun = async (db, _mailer, args, output) => {
  const { values, positionals } = parseOrFail(
    () =>
      parseArgs({
        args,
        options: { status: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' }, sort: { type: 'string' }, after: { type: 'string' } },
        allowPositionals: true,
        strict: true,
      }),
    USAGE.list,
  );
  if (positionals.length > 0) throw usageError(say(text.errors.unexpectedArguments, { args: positionals.join(' ') }), USAGE.list);
  // As the member's inquiry history: open unless told otherwise, `all` for every status.
  const status = values.status ?? 'open';
  if (status !== 'all' && !isStatus(status)) throw usageError(say(text.errors.badInquiryStatus, { status }), USAGE.list);
  const from = dayOption('from', values.from, USAGE.list);
  const to = dayOption('to', values.to, USAGE.list);
  const sort = sortOption(inquiries, values.sort, USAGE.list);
  const afterTicket = values.after?.trim().toUpperCase();

  const { shown: rows, more } = await recordsPage<ListedInquiry>(
    db,
    inquiries,
    {
      filters: { status: status === 'all' ? undefined : status, received_from: from, received_to: to },
      ...(sort ? { sort } : {}),
      ...(afterTicket ? { after: { column: 'inquiries.ticket_no', value: afterTicket } } : {}),
    },
    USAGE.list,
  );
  if (rows.length === 0) {
    output.out(t.none);
    return;
  }
  const c = t.columns;
  const lines = table(
    [c.ticketNo, c.status, c.receivedAt, c.type, c.name, c.email, c.sender, c.content],
    rows.map((row) => [
      row.ticket_no,
      inquiryStatusLabel(row.status),
      japanTime(row.created_at),
      row.inquiry_type_label,
      row.name,
      row.email,
      senderKind({ user_id: row.member_id, member_status: row.member_status }),
      excerpt(row.content),
    ]),
  );
  for (const line of lines) output.out(line);
  const next = () => ['inquiries', 'list', ...repeated({ status, from, to, sort }), '--after', rows.at(-1)!.ticket_no];
  printFooter(output, t.count, rows.length, more, next, moreLineOf(sort ?? ''));
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

/** open → answered, by the same service as the back office (its audit entry names the system
 *  user). The answer, the status, the member's notice and the queued mail are committed
 *  together, and the mail is tried after the commit: if it fails, the answer stays stored (show
 *  prints it), the member's history already says answered and the mail waits in the outbox; the
 *  operator is told to reach the sender another way. */
export const answerInquiry: CommandRun = async (db, mailer, args, output) => {
  const { ticketNo, values } = ticketNoArg(args, USAGE.answer, { message: { type: 'string' } });
  const answer = typeof values.message === 'string' ? values.message.trim() : '';
  if (!answer) throw usageError(text.errors.answerRequired, USAGE.answer);

  const mail = operatorMail(db, mailer);
  const done = await nothingSavedOnFailure(async () => {
    try {
      return await answerWithService(db, createOutbox(db, mailer), cliWho(), { ticketNo }, answer);
    } catch (error) {
      throw refusalText(error, ticketNo, 'answer');
    }
  });
  const { row, to } = done;

  const status = inquiryStatusLabel('answered');
  output.out(say(t.answered, { ticketNo: row.ticket_no, name: to.name, email: to.email, status }));
  if (done.notice) output.out(say(t.noticePosted, { message: done.notice }));
  else if (row.user_id !== null) output.out(t.noticeSkippedWithdrawn);
  try {
    await mail.send(done.mailId);
  } catch (error) {
    throw new OperatorError(
      say(text.errors.answerMailFailed, {
        ticketNo: row.ticket_no,
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

/** A refusal of the inquiries service in the tool's words (anything else as it is). */
function refusalText(error: unknown, ticketNo: string, command: 'answer' | 'close'): unknown {
  if (!(error instanceof RecordRefusal)) return error;
  const info = error.info;
  const said = { ticketNo: info.ticketNo ?? ticketNo, status: inquiryStatusLabel(info.status ?? ''), updatedAt: japanTime(info.updatedAt) };
  switch (error.code) {
    case 'RECORD_NOT_FOUND':
      return new OperatorError(`${say(text.errors.unknownInquiry, { ticketNo })}${text.errors.unchanged}`);
    case 'ALREADY_ANSWERED':
      return new OperatorError(say(text.errors.notOpen, said));
    case 'INQUIRY_CLOSED':
      return new OperatorError(say(command === 'answer' ? text.errors.notOpen : text.errors.alreadyClosed, said));
    case 'CHANGED_MEANWHILE':
      return new OperatorError(say(text.errors.inquiryChangedMeanwhile, { ticketNo: said.ticketNo }));
    default:
      return new OperatorError(error.message);
  }
}

/** open or answered → closed, by the same service as the back office. Nothing is sent: closing
 *  only ends the case. */
export const closeInquiry: CommandRun = async (db, _mailer, args, output) => {
  const { ticketNo } = ticketNoArg(args, USAGE.close);
  const { row, previous } = await nothingSavedOnFailure(async () => {
    try {
      return await closeWithService(db, cliWho(), { ticketNo });
    } catch (error) {
      throw refusalText(error, ticketNo, 'close');
    }
  });
  output.out(say(t.closed, { ticketNo: row.ticket_no, status: inquiryStatusLabel('closed'), previous: inquiryStatusLabel(previous) }));
};

export const inquiryCommands: Command[] = [
  { group: 'inquiries', name: 'list', usage: [USAGE.list], summary: 'inquiriesList', run: listInquiries },
  { group: 'inquiries', name: 'show', usage: [USAGE.show], summary: 'inquiriesShow', run: showInquiry },
  { group: 'inquiries', name: 'answer', usage: [USAGE.answer], summary: 'inquiriesAnswer', run: answerInquiry },
  { group: 'inquiries', name: 'close', usage: [USAGE.close], summary: 'inquiriesClose', run: closeInquiry },
];
