// Operator mail goes through the site's outbox (mail_outbox): the command queues it inside the
// transaction that makes the change it tells of, so the decision or answer and its mail commit
// together, then tries it once after the commit. A mail the relay did not take at once stays
// queued for the site's worker (or `outbox retry`), and the command fails (exit 1) saying so.
import type { Db } from '../db/connect';
import type { Mailer, MailTemplate } from '../mail/mailer';
import { createOutbox } from '../mail/outbox';
import { say, text } from './text';

/** How long the command waits for the site's worker when the worker got to its mail first. */
const WAIT_FOR_WORKER_MS = 15_000;

export function operatorMail(db: Db, mailer: Mailer, waitForWorkerMs = WAIT_FOR_WORKER_MS) {
  const outbox = createOutbox(db, mailer);
  const state = (id: string) => db.selectFrom('mail_outbox').select(['sent_at', 'locked_until', 'last_error']).where('id', '=', id).executeTakeFirst();
  return {
    /** Writes the mail into the queue through `tx`, the command's transaction; its id for send(). */
    queue: (tx: Db, to: string, template: MailTemplate, values: Record<string, string | number>): Promise<string> => outbox.queue(tx, to, template, values),

    /** One try of a mail queued in a transaction that has committed; throws, naming the queued
     *  row and the relay's error, when it did not go. When the site's worker claimed the mail
     *  between the commit and this try, the worker's try is waited for and told as this one. */
    async send(id: string): Promise<void> {
      if (await outbox.sendQueued(id)) return;
      let row = await state(id);
      const until = Date.now() + waitForWorkerMs;
      while (row && !row.sent_at && row.locked_until !== null && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        row = await state(id);
      }
      if (row?.sent_at) return;
      if (row && row.locked_until !== null) throw new Error(say(text.outbox.sendingElsewhere, { id }));
      throw new Error(say(text.outbox.queued, { id, error: row?.last_error ?? '' }));
    },
  };
}
