// outbox list / retry: mail the site has queued (notices, acknowledgements, operator mail) and
// not yet handed to the relay. The site's worker retries with backoff by itself; `retry` sends
// now, for after the relay is repaired.
import { parseArgs } from 'node:util';
import type { Command, CommandRun } from './command';
import { createOutbox } from '../mail/outbox';
import { japanTime, table } from './output';
import { parseOrFail, say, text, usageError } from './text';

const USAGE = {
  list: 'outbox list',
  retry: 'outbox retry [<id> …]',
};

export const listOutbox: CommandRun = async (db, _mailer, args, output) => {
  const { positionals } = parseOrFail(() => parseArgs({ args, options: {}, allowPositionals: true, strict: true }), USAGE.list);
  if (positionals.length > 0) throw usageError(say(text.errors.unexpectedArguments, { args: positionals.join(' ') }), USAGE.list);
  const rows = await db.selectFrom('mail_outbox').selectAll().where('sent_at', 'is', null).orderBy('created_at').execute();
  if (rows.length === 0) {
    output.out(text.outbox.none);
    return;
  }
  const c = text.outbox.columns;
  const lines = table(
    [c.id, c.queuedAt, c.to, c.template, c.attempts, c.nextAttempt, c.lastError],
    rows.map((r) => [r.id, japanTime(r.created_at), r.to_address, r.template, String(r.attempts), japanTime(r.next_attempt_at), r.last_error ?? '-']),
  );
  for (const line of lines) output.out(line);
  output.out(say(text.outbox.count, { count: rows.length }));
};

export const retryOutbox: CommandRun = async (db, mailer, args, output) => {
  const { positionals: ids } = parseOrFail(() => parseArgs({ args, options: {}, allowPositionals: true, strict: true }), USAGE.retry);
  const outbox = createOutbox(db, mailer);
  await outbox.retryNow(ids);
  let sent = 0;
  for (let round = await outbox.deliverDue(100); round > 0; round = await outbox.deliverDue(100)) sent += round;
  const left = await db.selectFrom('mail_outbox').select('id').where('sent_at', 'is', null).execute();
  output.out(say(text.outbox.retried, { sent, left: left.length }));
};

export const outboxCommands: Command[] = [
  { group: 'outbox', name: 'list', usage: [USAGE.list], summary: 'outboxList', run: listOutbox },
  { group: 'outbox', name: 'retry', usage: [USAGE.retry], summary: 'outboxRetry', run: retryOutbox },
];
