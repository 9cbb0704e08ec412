// Mail that must not be lost — security notices, acknowledgements, operator mail — is written to
// the mail_outbox table first and sent from there: one attempt at once, then by the worker with
// exponential backoff until the relay takes it. A relay outage delays these mails; it loses none.
// (Codes are not queued: a code is only worth storing once the relay has accepted its mail.)
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/connect';
import type { Mailer, MailTemplate } from './mailer';
import { iso, now } from '../services/clock';

type Values = Record<string, string | number>;

/** Seconds before retry n (1-based): 30 s, 1 min, 2 min … capped at an hour. */
export const backoffSeconds = (attempts: number) => Math.min(3600, 30 * 2 ** Math.max(0, attempts - 1));

/** While the worker's rounds keep failing, one log line per this many rounds (5 minutes at the site's 5 s). */
export const FAILURES_PER_LOG = 60;

/** How long a claimed row is left to its sender before another may try it. */
const CLAIM_SECONDS = 120;

export function createOutbox(db: Db, mailer: Mailer, log: (message: string, error?: unknown) => void = () => {}) {
  /** Sends one row if nobody else is sending it; true when the relay accepted it. */
  async function deliver(id: string): Promise<boolean> {
    const at = now();
    const claimed = await db
      .updateTable('mail_outbox')
      .set({ locked_until: iso(new Date(at.getTime() + CLAIM_SECONDS * 1000)) })
      .where('id', '=', id)
      .where('sent_at', 'is', null)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', iso(at))]))
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return false;
    const row = await db.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    try {
      await mailer.send(row.to_address, row.template as MailTemplate, JSON.parse(row.values_json) as Values);
    } catch (error) {
      const attempts = Number(row.attempts) + 1;
      await db
        .updateTable('mail_outbox')
        .set({ attempts, locked_until: null, last_error: String((error as Error)?.message ?? error).slice(0, 500), next_attempt_at: iso(new Date(Date.now() + backoffSeconds(attempts) * 1000)) })
        .where('id', '=', id)
        .execute();
      log(`mail ${row.template} to ${row.to_address} queued for retry (attempt ${attempts})`, error);
      return false;
    }
    await db.updateTable('mail_outbox').set({ sent_at: iso(now()), locked_until: null, attempts: Number(row.attempts) + 1, last_error: null }).where('id', '=', id).execute();
    return true;
  }

  return {
    deliver,

    /** Writes the mail into the queue through `executor` — a transaction, so that the change a
     *  notice tells of and the notice commit together — and returns its id for deliver(). A mail
     *  given `notBefore` waits for the worker until then (a notice that gathers attempts). */
    async queue(executor: Db, to: string, template: MailTemplate, values: Values = {}, notBefore?: Date, id: string = randomUUID()): Promise<string> {
      const at = iso(now());
      await executor
        .insertInto('mail_outbox')
        .values({ id, to_address: to, template, values_json: JSON.stringify(values), next_attempt_at: notBefore ? iso(notBefore) : at, locked_until: null, last_error: null, created_at: at, sent_at: null })
        .execute();
      return id;
    },

    /** Queues the mail (durably) and tries it once; a failed try is left to the worker. */
    async send(to: string, template: MailTemplate, values: Values = {}): Promise<{ id: string; sent: boolean }> {
      const id = await this.queue(db, to, template, values);
      return { id, sent: await deliver(id).catch(() => false) };
    },

    /** One try now for a mail queued in a transaction that has committed. */
    async sendQueued(id: string): Promise<boolean> {
      return deliver(id).catch(() => false);
    },

    /** Sends what is due (oldest first); returns how many the relay accepted. */
    async deliverDue(limit = 20): Promise<number> {
      const due = await db
        .selectFrom('mail_outbox')
        .select('id')
        .where('sent_at', 'is', null)
        .where('next_attempt_at', '<=', iso(now()))
        .orderBy('created_at')
        .limit(limit)
        .execute();
      let sent = 0;
      for (const { id } of due) if (await deliver(id)) sent++;
      return sent;
    },

    /** Makes every queued mail (or those with `ids`) due now. */
    async retryNow(ids?: string[]): Promise<number> {
      let query = db.updateTable('mail_outbox').set({ next_attempt_at: iso(now()) }).where('sent_at', 'is', null);
      if (ids?.length) query = query.where('id', 'in', ids);
      return Number((await query.executeTakeFirst()).numUpdatedRows);
    },

    /** Runs deliverDue every `intervalMs` until stopped; errors (a database outage) wait for the
     *  next round, and so do rounds while `ready` says the database is not set up yet. An outage
     *  is logged when it starts (with its error), every `FAILURES_PER_LOG` failed rounds after
     *  that, and when the rounds work again; not on every round. */
    startWorker(intervalMs: number, ready: () => boolean = () => true): () => void {
      let running = false;
      let failed = 0;
      const timer = setInterval(() => {
        if (running || !ready()) return;
        running = true;
        this.deliverDue()
          .then(() => {
            if (failed) log(`outbox rounds work again after ${failed} failed round(s)`);
            failed = 0;
          })
          .catch((error) => {
            failed++;
            if (failed === 1) log('outbox round failed; the worker keeps trying each round', error);
            else if (failed % FAILURES_PER_LOG === 0) log(`outbox rounds still failing (${failed} in a row)`, error);
          })
          .finally(() => (running = false));
      }, intervalMs);
      timer.unref();
      return () => clearInterval(timer);
    },
  };
}

export type Outbox = ReturnType<typeof createOutbox>;
