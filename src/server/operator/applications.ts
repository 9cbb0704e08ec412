// applications list / approve / decline: the registration applications members see in the
// "registration application" block of my page.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { Db } from '../db/connect';
import { RECORD_KINDS } from '../../shared/record-kinds';
import type { ApplicationItem } from '../../shared/admin-api';
import type { ApplicationStatus } from '../db/types';
import type { Mailer } from '../mail/mailer';
import { createOutbox } from '../mail/outbox';
import { decideApplication } from '../admin/services/applications';
import { cliWho, RecordRefusal } from '../admin/services/common';
import type { Command, CommandRun } from './command';
import { OperatorError, describeError } from './errors';
import { operatorMail } from './mail';
import { nothingSavedOnFailure } from './nothing-saved';
import { japanTime, table, type Output } from './output';
import { dayOption, moreLineOf, printFooter, recordsPage, repeated, sortOption } from './pages';
import { parseOrFail, say, text, usageError } from './text';

const STATUSES: readonly ApplicationStatus[] = ['pending', 'approved', 'declined'];
const isStatus = (value: string): value is ApplicationStatus => (STATUSES as readonly string[]).includes(value);

const USAGE = {
  list: 'applications list [--status pending|approved|declined] [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--search <name, e-mail or number>] [--sort newest|oldest] [--after <registerNumber>]',
  approve: 'applications approve <registerNumber>',
  decline: 'applications decline <registerNumber> [--reason "…"]',
};

export const statusLabel = (status: string) => say(text.statusLabel, { status, label: (text.status as Record<string, string>)[status] ?? status });

const applications = RECORD_KINDS.applications;

/** The list as the back office's (schemas/records/applications.json, listRecords): of a status
 *  or all (a withdrawn member's application is not pending), applied between two Japan days,
 *  found by name, e-mail or number, newest or oldest first; the view is recorded. */
export const listApplications: CommandRun = async (db, _mailer, args, output) => {
  const { values, positionals } = parseOrFail(
    () =>
      parseArgs({
        args,
        options: { status: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' }, search: { type: 'string' }, sort: { type: 'string' }, after: { type: 'string' } },
        allowPositionals: true,
        strict: true,
      }),
    USAGE.list,
  );
  if (positionals.length > 0) throw usageError(say(text.errors.unexpectedArguments, { args: positionals.join(' ') }), USAGE.list);
  const { status } = values;
  if (status !== undefined && !isStatus(status)) throw usageError(say(text.errors.badStatus, { status }), USAGE.list);
  const from = dayOption('from', values.from, USAGE.list);
  const to = dayOption('to', values.to, USAGE.list);
  const sort = sortOption(applications, values.sort, USAGE.list);
  const search = values.search?.trim() || undefined;
  const afterNumber = values.after?.trim().toUpperCase();

  const { shown: rows, more } = await recordsPage<ApplicationItem>(
    db,
    applications,
    {
      filters: { status, applied_from: from, applied_to: to, q: search },
      ...(sort ? { sort } : {}),
      ...(afterNumber ? { after: { column: 'applications.register_number', value: afterNumber } } : {}),
    },
    USAGE.list,
  );
  if (rows.length === 0) {
    output.out(text.applications.none);
    return;
  }
  const c = text.applications.columns;
  const lines = table(
    [c.registerNumber, c.status, c.appliedAt, c.decidedAt, c.name, c.email, c.note],
    rows.map((row) => [
      row.register_number,
      statusLabel(row.status),
      japanTime(row.applied_at),
      japanTime(row.decided_at),
      row.name,
      row.email,
      row.member_status === 'active' ? '' : text.applications.memberWithdrawn,
    ]),
  );
  for (const line of lines) output.out(line);
  const next = () => ['applications', 'list', ...repeated({ status, from, to, search, sort }), '--after', rows.at(-1)!.register_number];
  printFooter(output, text.applications.count, rows.length, more, next, moreLineOf(sort ?? ''));
};

function registerNumberArg(args: string[], usage: string, options: ParseArgsConfig['options'] = {}) {
  const { values, positionals } = parseOrFail(() => parseArgs({ args, options, allowPositionals: true, strict: true }), usage);
  if (positionals.length === 0) throw usageError(text.errors.registerNumberRequired, usage);
  if (positionals.length > 1) throw usageError(say(text.errors.unexpectedArguments, { args: positionals.slice(1).join(' ') }), usage);
  return { registerNumber: positionals[0]!.trim().toUpperCase(), values };
}

/** pending → approved/declined, by the same service as the back office (its audit entry names
 *  the system user). The status, the member's notice, the audit entry and the queued mail are
 *  committed together, and the mail is tried after the commit, so a mail failure never leaves a
 *  half-done decision: the member sees the result on my page, the mail waits in the outbox, and
 *  the operator is told it did not go yet. */
async function decide(db: Db, mailer: Mailer, output: Output, registerNumber: string, decision: 'approved' | 'declined', reason: string) {
  const mail = operatorMail(db, mailer);
  const done = await nothingSavedOnFailure(async () => {
    try {
      return await decideApplication(db, createOutbox(db, mailer), cliWho(), registerNumber, decision, reason);
    } catch (error) {
      throw refusalText(error);
    }
  });
  const said = { registerNumber: done.application.register_number, status: statusLabel(decision), name: done.name, email: done.email };
  output.out(say(text.applications.decided, said));
  output.out(say(text.applications.noticePosted, { message: done.notice }));
  try {
    await mail.send(done.mailId);
  } catch (error) {
    throw new OperatorError(say(text.errors.decisionMailFailed, { ...said, detail: describeError(error) }));
  }
  output.out(say(text.applications.mailSent, { email: done.email }));
}

/** A refusal of the applications service in the tool's words (anything else as it is). */
function refusalText(error: unknown): unknown {
  if (!(error instanceof RecordRefusal)) return error;
  const info = error.info;
  const registerNumber = info.registerNumber ?? '';
  switch (error.code) {
    case 'RECORD_NOT_FOUND':
      return new OperatorError(say(text.errors.unknownApplication, { registerNumber }));
    case 'ALREADY_DECIDED':
      return new OperatorError(say(text.errors.notPending, { registerNumber, status: statusLabel(info.status ?? ''), decidedAt: japanTime(info.decidedAt) }));
    case 'MEMBER_WITHDRAWN':
      return new OperatorError(say(text.errors.applicantWithdrawn, { registerNumber, email: info.email ?? '' }));
    case 'DECIDED_MEANWHILE':
      return new OperatorError(say(text.errors.decidedMeanwhile, { registerNumber }));
    default:
      return new OperatorError(error.message);
  }
}

export const approveApplication: CommandRun = async (db, mailer, args, output) => {
  const { registerNumber } = registerNumberArg(args, USAGE.approve);
  await decide(db, mailer, output, registerNumber, 'approved', '');
};

export const declineApplication: CommandRun = async (db, mailer, args, output) => {
  const { registerNumber, values } = registerNumberArg(args, USAGE.decline, { reason: { type: 'string' } });
  const reason = typeof values.reason === 'string' ? values.reason.trim() : '';
  await decide(db, mailer, output, registerNumber, 'declined', reason);
};

export const applicationCommands: Command[] = [
  { group: 'applications', name: 'list', usage: [USAGE.list], summary: 'applicationsList', run: listApplications },
  { group: 'applications', name: 'approve', usage: [USAGE.approve], summary: 'applicationsApprove', run: approveApplication },
  { group: 'applications', name: 'decline', usage: [USAGE.decline], summary: 'applicationsDecline', run: declineApplication },
];
