// requests list / show / handle: members' correction and deletion requests (issue 37 point 3,
// ADR 042), the back office's record kind schemas/records/requests.json read by the same list
// function (listRecords: the same filters, order, index and audit entry, for cli:<user>), and
// handled by the same service (handleMemberRequest: audit requests.handle, the member's notice
// and the mail queued in one transaction, the mail tried after the commit).
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { RECORD_KINDS } from '../../shared/record-kinds';
import type { RequestItem } from '../../shared/admin-api';
import { createOutbox } from '../mail/outbox';
import { handleMemberRequest } from '../disclosure/requests';
import { isOverdue, selectRequests } from '../admin/services/requests';
import { cliWho, RecordRefusal } from '../admin/services/common';
import type { Db } from '../db/connect';
import type { Command, CommandRun } from './command';
import { OperatorError, describeError } from './errors';
import { operatorMail } from './mail';
import { nothingSavedOnFailure } from './nothing-saved';
import { align, japanTime, table } from './output';
import { printFooter, recordsPage, repeated } from './pages';
import { parseOrFail, say, text, usageError } from './text';

const USAGE = {
  list: 'requests list [--status open|done|refused|all] [--kind correction|deletion] [--after <id>]',
  show: 'requests show <id>',
  handle: 'requests handle <id> --done|--refused --message "…"',
};

const t = text.requests;
const STATUSES = ['open', 'done', 'refused'] as const;
const KINDS = ['correction', 'deletion'] as const;

const statusLabel = (status: string) => say(text.statusLabel, { status, label: (t.status as Record<string, string>)[status] ?? status });
const kindLabel = (kind: string) => say(text.statusLabel, { status: kind, label: (text.memberRequests.kinds as Record<string, string>)[kind] ?? kind });

function idArg(args: string[], usage: string, options: ParseArgsConfig['options'] = {}) {
  const { values, positionals } = parseOrFail(() => parseArgs({ args, options, allowPositionals: true, strict: true }), usage);
  const id = positionals[0]?.trim().toLowerCase();
  if (!id) throw usageError(text.errors.requestIdRequired, usage);
  if (positionals.length > 1) throw usageError(say(text.errors.unexpectedArguments, { args: positionals.slice(1).join(' ') }), usage);
  return { id, values: values as Record<string, string | boolean | undefined> };
}

/** Open ones unless told otherwise (`all` for every status), of a kind, soonest due first. */
export const listRequests: CommandRun = async (db, _mailer, args, output) => {
  const { values, positionals } = parseOrFail(
    () => parseArgs({ args, options: { status: { type: 'string' }, kind: { type: 'string' }, after: { type: 'string' } }, allowPositionals: true, strict: true }),
    USAGE.list,
  );
  if (positionals.length > 0) throw usageError(say(text.errors.unexpectedArguments, { args: positionals.join(' ') }), USAGE.list);
  const status = values.status ?? 'open';
  if (status !== 'all' && !(STATUSES as readonly string[]).includes(status)) throw usageError(say(text.errors.badRequestStatus, { status }), USAGE.list);
  const kind = values.kind;
  if (kind !== undefined && !(KINDS as readonly string[]).includes(kind)) throw usageError(say(text.errors.badRequestKind, { kind }), USAGE.list);
  const after = values.after?.trim().toLowerCase();
  const { shown: rows, more } = await recordsPage<RequestItem>(
    db,
    RECORD_KINDS.requests,
    { filters: { status: status === 'all' ? undefined : status, kind }, ...(after ? { after: { column: 'member_requests.id', value: after } } : {}) },
    USAGE.list,
  );
  if (rows.length === 0) {
    output.out(t.none);
    return;
  }
  const c = t.columns;
  const lines = table(
    [c.id, c.kind, c.status, c.receivedAt, c.dueAt, c.name, c.registerNumber],
    rows.map((row) => [row.id, kindLabel(row.kind), statusLabel(row.status), japanTime(row.created_at), `${japanTime(row.due_at)}${row.overdue ? ` ${t.overdue}` : ''}`, row.member_name, row.register_number ?? '']),
  );
  for (const line of lines) output.out(line);
  const next = () => ['requests', 'list', ...repeated({ status, kind }), '--after', rows.at(-1)!.id];
  printFooter(output, t.count, rows.length, more, next, text.moreDue);
};

async function findRequest(db: Db, id: string) {
  const row = await selectRequests(db).where('member_requests.id', '=', id).executeTakeFirst();
  if (!row) throw new OperatorError(say(text.errors.unknownRequest, { id }));
  return row;
}

/** A block of free text, each of its lines indented under its heading. */
const block = (heading: string, body: string) => [`${heading}:`, ...body.split(/\r?\n/).map((line) => (line ? `  ${line}` : ''))];

/** One request in full. It reads, never writes (the web's detail view is recorded; the tool's
 *  show, like members show, prints what the operator already may read with the tool). */
export const showRequest: CommandRun = async (db, _mailer, args, output) => {
  const { id } = idArg(args, USAGE.show);
  const row = await findRequest(db, id);
  const f = t.fields;
  const rows: string[][] = [
    [f.id, row.id],
    [f.kind, kindLabel(row.kind)],
    [f.status, statusLabel(row.status)],
    [f.receivedAt, japanTime(row.created_at)],
    [f.dueAt, `${japanTime(row.due_at)}${isOverdue(row) ? ` ${t.overdue}` : ''}`],
    [f.name, `${row.last_name_kanji ?? ''} ${row.first_name_kanji ?? ''}`.trim()],
    [f.email, row.email],
    ...(row.register_number ? [[f.registerNumber, row.register_number]] : []),
    ...(row.handled_at ? [[f.handledAt, japanTime(row.handled_at)], [f.handledBy, row.handled_by ?? '']] : []),
  ];
  for (const line of align(rows)) output.out(line);
  output.out('');
  for (const line of block(f.text, row.text)) output.out(line);
  output.out('');
  for (const line of row.answer === null ? [`${f.answer}:`, `  ${t.noAnswer}`] : block(f.answer, row.answer)) output.out(line);
};

/** open → done or refused, with the answer the member reads: the same service as the back
 *  office; a failed mail leaves the handling recorded and the mail queued (exit 1). */
export const handleRequest: CommandRun = async (db, mailer, args, output) => {
  const { id, values } = idArg(args, USAGE.handle, { done: { type: 'boolean' }, refused: { type: 'boolean' }, message: { type: 'string' } });
  if (!!values.done === !!values.refused) throw usageError(text.errors.requestOutcomeRequired, USAGE.handle);
  const answer = typeof values.message === 'string' ? values.message.trim() : '';
  if (!answer) throw usageError(text.errors.requestAnswerRequired, USAGE.handle);
  const status = values.done ? 'done' : 'refused';
  const mail = operatorMail(db, mailer);
  const { mailId } = await nothingSavedOnFailure(async () => {
    try {
      return await handleMemberRequest(db, createOutbox(db, mailer), cliWho(), id, { status, answer });
    } catch (error) {
      if (error instanceof RecordRefusal && error.code === 'RECORD_NOT_FOUND') throw new OperatorError(`${say(text.errors.unknownRequest, { id })}${text.errors.unchanged}`);
      throw error;
    }
  });
  const row = await findRequest(db, id);
  const name = `${row.last_name_kanji ?? ''} ${row.first_name_kanji ?? ''}`.trim();
  output.out(say(t.handled, { id, name, email: row.email, status: statusLabel(status) }));
  try {
    await mail.send(mailId);
  } catch (error) {
    throw new OperatorError(say(text.errors.requestMailFailed, { id, status: statusLabel(status), email: row.email, detail: describeError(error) }));
  }
  output.out(say(t.mailSent, { email: row.email }));
};

export const requestCommands: Command[] = [
  { group: 'requests', name: 'list', usage: [USAGE.list], summary: 'requestsList', run: listRequests },
  { group: 'requests', name: 'show', usage: [USAGE.show], summary: 'requestsShow', run: showRequest },
  { group: 'requests', name: 'handle', usage: [USAGE.handle], summary: 'requestsHandle', run: handleRequest },
];
