// Operator mail goes through the site's outbox (mail_outbox): the command queues it inside the
// transaction that makes the change it tells of, so the decision or answer and its mail commit
// together, then tries it once after the commit. A mail the relay did not take at once stays
// queued for the site's worker (or `outbox retry`), and the command fails (exit 1) saying so.
import type { Db } from '../db/connect';
import type { Mailer, MailTemplate } from '../mail/mailer';
import { createOutbox } from '../mail/outbox';
import { say, text } from './text';

export function operatorMail(db: Db, mailer: Mailer) {
  const outbox = createOutbox(db, mailer);
  return {
    /** Writes the mail into the queue through `tx`, the command's transaction; its id for send(). */
    queue: (tx: Db, to: string, template: MailTemplate, values: Record<string, string | number>): Promise<string> => outbox.queue(tx, to, template, values),

    /** One try of a mail queued in a transaction that has committed; throws, naming the queued
     *  row and the relay's error, when it did not go. */
    async send(id: string): Promise<void> {
      if (await outbox.sendQueued(id)) return;
      const row = await db.selectFrom('mail_outbox').select('last_error').where('id', '=', id).executeTakeFirst();
      throw new Error(say(text.outbox.queued, { id, error: row?.last_error ?? '' }));
    },
  };
}
