// outbox list / retry / uncertain / resend / done: mail the site has queued (notices,
// acknowledgements, operator mail) and not yet handed to the relay. The site's worker retries
// with backoff by itself; `retry` sends now, for after the relay is repaired. A mail whose send
// ended without a result (the site stopped mid-send) is never retried by itself: `uncertain`
// lists it, and the operator either resends it (same Message-ID) or marks it done.
import { parseArgs } from 'node:util';
import type { Command, CommandRun } from './command';
import type { Db } from '../db/connect';
import { audited } from '../admin/audit';
import { cliWho } from '../admin/services/common';
import { createOutbox } from '../mail/outbox';
import { OperatorError } from './errors';
import { japanTime, table } from './output';
import { parseOrFail, say, text, usageError } from './text';

const USAGE = {
  list: 'outbox list',
  retry: 'outbox retry [<id> …]',
  uncertain: 'outbox uncertain',
  resend: 'outbox resend <id>',
  done: 'outbox done <id>',
};

const statusLabel = (status: string) => (text.outbox.statusLabel as Record<string, string | undefined>)[status] ?? status;

const noArguments = (args: string[], usage: string) => {
  const { positionals } = parseOrFail(() => parseArgs({ args, options: {}, allowPositionals: true, strict: true }), usage);
  if (positionals.length > 0) throw usageError(say(text.errors.unexpectedArguments, { args: positionals.join(' ') }), usage);
};

const oneId = (args: string[], usage: string): string => {
  const { positionals } = parseOrFail(() => parseArgs({ args, options: {}, allowPositionals: true, strict: true }), usage);
  if (positionals.length !== 1) throw usageError(text.outbox.idRequired, usage);
  return positionals[0]!;
};

const countUncertain = async (db: Db) =>
  Number((await db.selectFrom('mail_outbox').select((eb) => eb.fn.countAll().as('count')).where('status', '=', 'uncertain').executeTakeFirstOrThrow()).count);

export const listOutbox: CommandRun = async (db, _mailer, args, output) => {
  noArguments(args, USAGE.list);
  const rows = await db.selectFrom('mail_outbox').selectAll().where('sent_at', 'is', null).orderBy('created_at').execute();
  if (rows.length === 0) {
    output.out(text.outbox.none);
    return;
  }
  const c = text.outbox.columns;
  const lines = table(
    [c.id, c.queuedAt, c.to, c.template, c.status, c.attempts, c.nextAttempt, c.lastError],
    rows.map((r) => [r.id, japanTime(r.created_at), r.to_address, r.template, statusLabel(r.status), String(r.attempts), r.status === 'queued' ? japanTime(r.next_attempt_at) : '-', r.last_error ?? '-']),
  );
  for (const line of lines) output.out(line);
  output.out(say(text.outbox.count, { count: rows.length }));
  const uncertain = rows.filter((r) => r.status === 'uncertain').length;
  if (uncertain > 0) output.out(say(text.outbox.uncertainCount, { count: uncertain }));
};

export const retryOutbox: CommandRun = async (db, mailer, args, output) => {
  const { positionals: ids } = parseOrFail(() => parseArgs({ args, options: {}, allowPositionals: true, strict: true }), USAGE.retry);
  const outbox = createOutbox(db, mailer);
  await outbox.retryNow(ids);
  let sent = 0;
  for (let round = await outbox.deliverDue(100); round > 0; round = await outbox.deliverDue(100)) sent += round;
  const left = await db.selectFrom('mail_outbox').select('id').where('sent_at', 'is', null).execute();
  output.out(say(text.outbox.retried, { sent, left: left.length }));
  const uncertain = await countUncertain(db);
  if (uncertain > 0) output.out(say(text.outbox.uncertainCount, { count: uncertain }));
};

export const listUncertain: CommandRun = async (db, mailer, args, output) => {
  noArguments(args, USAGE.uncertain);
  // Sends whose claim ran out are set aside first, so the list is current with the site stopped too.
  await createOutbox(db, mailer).sweepExpired();
  const rows = await db.selectFrom('mail_outbox').selectAll().where('status', '=', 'uncertain').orderBy('uncertain_at').execute();
  if (rows.length === 0) {
    output.out(text.outbox.noUncertain);
    return;
  }
  const c = text.outbox.columns;
  const lines = table(
    [c.id, c.queuedAt, c.to, c.template, c.sendStartedAt, c.uncertainAt],
    rows.map((r) => [r.id, japanTime(r.created_at), r.to_address, r.template, r.send_started_at ? japanTime(r.send_started_at) : '-', japanTime(r.uncertain_at)]),
  );
  for (const line of lines) output.out(line);
  output.out(say(text.outbox.count, { count: rows.length }));
  output.out(text.outbox.uncertainNote);
};

/** The operator's resend: queued again with its audit entry in one transaction, then sent once
 *  now (with the Message-ID it had). A relay that refuses leaves it to the worker's retries. */
export const resendUncertain: CommandRun = async (db, mailer, args, output) => {
  const id = oneId(args, USAGE.resend);
  const outbox = createOutbox(db, mailer);
  const who = cliWho();
  await audited(db, who, 'outbox.resend', async (tx) => {
    const row = await tx.selectFrom('mail_outbox').select('to_address').where('id', '=', id).executeTakeFirst();
    if (!row || !(await outbox.requeueUncertain(tx, id))) throw new OperatorError(say(text.outbox.notUncertain, { id }));
    return { result: undefined, target: id, detail: { to: row.to_address } };
  });
  if (await outbox.deliver(id).catch(() => false)) {
    output.out(say(text.outbox.resent, { id }));
    return;
  }
  const row = await db.selectFrom('mail_outbox').select('last_error').where('id', '=', id).executeTakeFirst();
  throw new OperatorError(say(text.outbox.resendQueued, { id, error: row?.last_error ?? '' }));
};

export const markDone: CommandRun = async (db, mailer, args, output) => {
  const id = oneId(args, USAGE.done);
  const outbox = createOutbox(db, mailer);
  const who = cliWho();
  await audited(db, who, 'outbox.done', async (tx) => {
    const row = await tx.selectFrom('mail_outbox').select('to_address').where('id', '=', id).executeTakeFirst();
    if (!row || !(await outbox.markUncertainDone(tx, id))) throw new OperatorError(say(text.outbox.notUncertain, { id }));
    return { result: undefined, target: id, detail: { to: row.to_address } };
  });
  output.out(say(text.outbox.markedDone, { id }));
};

export const outboxCommands: Command[] = [
  { group: 'outbox', name: 'list', usage: [USAGE.list], summary: 'outboxList', run: listOutbox },
  { group: 'outbox', name: 'retry', usage: [USAGE.retry], summary: 'outboxRetry', run: retryOutbox },
  { group: 'outbox', name: 'uncertain', usage: [USAGE.uncertain], summary: 'outboxUncertain', run: listUncertain },
  { group: 'outbox', name: 'resend', usage: [USAGE.resend], summary: 'outboxResend', run: resendUncertain },
  { group: 'outbox', name: 'done', usage: [USAGE.done], summary: 'outboxDone', run: markDone },
];
