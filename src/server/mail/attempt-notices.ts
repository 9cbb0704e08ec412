// Notices nobody asked for (someone tried to register this address, to change to it, to log in
// to it with wrong passwords) are combined: at most one mail of each kind per address and day in
// Japan, sent a while after the first attempt and saying how many there were by then
// (docs/decisions/015). Attempts after it has gone are counted and told of no further that day.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/connect';
import type { Outbox } from './outbox';
import type { Mailer, MailTemplate } from './mailer';
import { japanDay, now } from '../services/clock';

/** The notices that are combined: each a mail template taking `{count}`. */
export type AttemptKind = Extract<MailTemplate, 'registerAttempted' | 'emailChangeAttempted' | 'loginAttempted' | 'operatorLoginAttempted'>;

export function createAttemptNotices(db: Db, outbox: Outbox, mailer: Mailer, delaySeconds: number) {
  const notices = {
    /** Counts an attempt of `kind` on `recipient` today (or raises the count to `total`, for a
     *  counter kept elsewhere); the first of the day queues the day's one notice, due
     *  `delaySeconds` later (0: sent now); the others raise the count it will name while it
     *  waits. True when the notice was sent during this call. */
    async note(recipient: string, kind: AttemptKind, total?: number): Promise<boolean> {
      const day = japanDay(now());
      const mailId = randomUUID();
      const first = await db.transaction().execute(async (tx) => {
        const inserted = await tx
          .insertInto('attempt_notices')
          .values({ recipient, kind, day, attempts: 0, mail_id: mailId })
          .onConflict((oc) => oc.columns(['recipient', 'kind', 'day']).doNothing())
          .executeTakeFirst();
        if (Number(inserted.numInsertedOrUpdatedRows ?? 0) !== 1) return false;
        await outbox.queue(tx, recipient, kind, { count: total ?? 1 }, new Date(now().getTime() + delaySeconds * 1000), mailId);
        return true;
      });
      const row = await db
        .updateTable('attempt_notices')
        .set((eb) => ({ attempts: total === undefined ? eb('attempts', '+', 1) : sql<number>`case when attempts < ${total} then ${total} else attempts end` }))
        .where('recipient', '=', recipient)
        .where('kind', '=', kind)
        .where('day', '=', day)
        .returning(['attempts', 'mail_id'])
        .executeTakeFirstOrThrow();
      // While the notice waits, it names every attempt so far; once claimed or sent, it is left.
      await db
        .updateTable('mail_outbox')
        .set({ values_json: JSON.stringify({ count: Number(row.attempts) }) })
        .where('id', '=', row.mail_id)
        .where('status', '=', 'queued')
        .where('attempts', '=', 0)
        .execute();
      if (first && delaySeconds === 0) return outbox.sendQueued(row.mail_id);
      return false;
    },

    /** For an answer that must take as long as a code mail (no enumeration of members): notes the
     *  attempt, and waits for a relay round trip unless the notice itself just went out. */
    async instead(recipient: string, kind: AttemptKind): Promise<void> {
      if (!(await notices.note(recipient, kind))) await mailer.touch?.();
    },
  };
  return notices;
}

export type AttemptNotices = ReturnType<typeof createAttemptNotices>;
