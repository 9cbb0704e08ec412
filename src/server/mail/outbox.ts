// Mail that must not be lost — security notices, acknowledgements, operator mail — is written to
// the mail_outbox table first and sent from there: one attempt at once, then by the worker with
// exponential backoff until the relay takes it. A relay outage delays these mails; it loses none.
// And none goes twice: a send that ended without a result (the process died mid-send) is set
// aside as uncertain for the operator, never retried by itself (docs/decisions/016).
// (Codes are not queued: a code is only worth storing once the relay has accepted its mail.)
import { randomUUID } from 'node:crypto';
import type { ExpressionBuilder } from 'kysely';
import type { Db } from '../db/connect';
import type { Database } from '../db/types';
import type { Mailer, MailTemplate } from './mailer';
import { iso, now } from '../services/clock';

type Values = Record<string, string | number>;

/** Seconds before retry n (1-based): 30 s, 1 min, 2 min … capped at an hour. */
export const backoffSeconds = (attempts: number) => Math.min(3600, 30 * 2 ** Math.max(0, attempts - 1));

/** While the worker's rounds keep failing, one log line per this many rounds (5 minutes at the site's 5 s). */
export const FAILURES_PER_LOG = 60;

/** How long a claimed row is left to its sender; a claim that runs out without a result is set aside as uncertain. */
const CLAIM_SECONDS = 120;

export type OutboxLevel = 'warn' | 'error';
export type OutboxLog = (message: string, error?: unknown, level?: OutboxLevel) => void;

/** The recipient's domain only: the log names no member's address. */
const domainOf = (address: string) => address.slice(address.lastIndexOf('@') + 1);

export function createOutbox(db: Db, mailer: Mailer, log: OutboxLog = () => {}) {
  /** Sends one row if it is queued and nobody else is sending it; true when the relay accepted it.
   *  At most once: the claim marks the row as sending (committed before the SMTP transaction
   *  starts) and only a queued row can be claimed. A known failure (the relay's answer, a refused
   *  connection) puts it back in the queue; no result at all (the process died) leaves it sending
   *  until sweepExpired() sets it aside. */
  async function deliver(id: string): Promise<boolean> {
    const at = now();
    const attemptId = randomUUID();
    const claimed = await db
      .updateTable('mail_outbox')
      .set({ status: 'sending', attempt_id: attemptId, send_started_at: iso(at), locked_until: iso(new Date(at.getTime() + CLAIM_SECONDS * 1000)) })
      .where('id', '=', id)
      .where('status', '=', 'queued')
      .where('sent_at', 'is', null)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return false;
    const row = await db.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const mine = (eb: ExpressionBuilder<Database, 'mail_outbox'>) => eb.and([eb('id', '=', id), eb('attempt_id', '=', attemptId), eb('sent_at', 'is', null)]);
    try {
      await mailer.send(row.to_address, row.template as MailTemplate, JSON.parse(row.values_json) as Values, { key: id });
    } catch (error) {
      const attempts = Number(row.attempts) + 1;
      await db
        .updateTable('mail_outbox')
        .set({
          status: 'queued',
          attempts,
          locked_until: null,
          send_started_at: null,
          last_error: String((error as Error)?.message ?? error).slice(0, 500),
          next_attempt_at: iso(new Date(now().getTime() + backoffSeconds(attempts) * 1000)),
        })
        .where(mine)
        .execute();
      log(`mail ${id} (${row.template} to @${domainOf(row.to_address)}) queued for retry (attempt ${attempts})`, error);
      return false;
    }
    // Also after a sweep set it aside meanwhile (a sender slower than its claim): the result is known.
    await db
      .updateTable('mail_outbox')
      .set({ status: 'sent', sent_at: iso(now()), locked_until: null, attempts: Number(row.attempts) + 1, last_error: null })
      .where(mine)
      .execute();
    return true;
  }

  /** Sets aside every send whose claim ran out without a result: whether the relay took it is
   *  unknown, so it is not sent again by itself. Reads the index range (status, locked_until). */
  async function sweepExpired(limit = 100): Promise<number> {
    const expired = await db
      .selectFrom('mail_outbox')
      .select(['id', 'attempt_id', 'template', 'to_address', 'send_started_at'])
      .where('status', '=', 'sending')
      .where('locked_until', '<=', iso(now()))
      .orderBy('locked_until')
      .limit(limit)
      .execute();
    let setAside = 0;
    for (const row of expired) {
      let update = db.updateTable('mail_outbox').set({ status: 'uncertain', uncertain_at: iso(now()), locked_until: null }).where('id', '=', row.id).where('status', '=', 'sending');
      update = row.attempt_id === null ? update.where('attempt_id', 'is', null) : update.where('attempt_id', '=', row.attempt_id);
      if (Number((await update.executeTakeFirst()).numUpdatedRows) !== 1) continue;
      setAside++;
      log(
        `mail ${row.id} (${row.template} to @${domainOf(row.to_address)}) set aside as uncertain: its send began at ${row.send_started_at ?? 'unknown'} and no result was recorded; not resent (npm run operator -- outbox uncertain)`,
        undefined,
        'error',
      );
    }
    return setAside;
  }

  return {
    deliver,
    sweepExpired,

    /** Writes the mail into the queue through `executor` — a transaction, so that the change a
     *  notice tells of and the notice commit together — and returns its id for deliver(). A mail
     *  given `notBefore` waits for the worker until then (a notice that gathers attempts). */
    async queue(executor: Db, to: string, template: MailTemplate, values: Values = {}, notBefore?: Date, id: string = randomUUID()): Promise<string> {
      const at = iso(now());
      await executor
        .insertInto('mail_outbox')
        .values({ id, to_address: to, template, values_json: JSON.stringify(values), status: 'queued', next_attempt_at: notBefore ? iso(notBefore) : at, locked_until: null, last_error: null, created_at: at, sent_at: null })
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

    /** Sets aside the sends whose claim ran out, then sends what is due (oldest first); returns
     *  how many the relay accepted. */
    async deliverDue(limit = 20): Promise<number> {
      await sweepExpired();
      const due = await db
        .selectFrom('mail_outbox')
        .select('id')
        .where('status', '=', 'queued')
        .where('next_attempt_at', '<=', iso(now()))
        .orderBy('created_at')
        .limit(limit)
        .execute();
      let sent = 0;
      for (const { id } of due) if (await deliver(id)) sent++;
      return sent;
    },

    /** Makes every queued mail (or those with `ids`) due now; not one being sent or uncertain. */
    async retryNow(ids?: string[]): Promise<number> {
      let query = db.updateTable('mail_outbox').set({ next_attempt_at: iso(now()) }).where('status', '=', 'queued');
      if (ids?.length) query = query.where('id', 'in', ids);
      return Number((await query.executeTakeFirst()).numUpdatedRows);
    },

    /** The operator's explicit resend of an uncertain mail, step one, through `executor` (the
     *  transaction that records it): queued again, due now; deliver(id) then sends it with the same
     *  Message-ID as before. False when the mail is not uncertain. */
    async requeueUncertain(executor: Db, id: string): Promise<boolean> {
      const requeued = await executor
        .updateTable('mail_outbox')
        .set({ status: 'queued', next_attempt_at: iso(now()), locked_until: null, send_started_at: null })
        .where('id', '=', id)
        .where('status', '=', 'uncertain')
        .executeTakeFirst();
      return Number(requeued.numUpdatedRows) === 1;
    },

    /** The operator's word that an uncertain mail went (or need not go), through `executor`: sent
     *  as of the try that began it, never to be sent again. False when it is not uncertain. */
    async markUncertainDone(executor: Db, id: string): Promise<boolean> {
      const done = await executor
        .updateTable('mail_outbox')
        .set((eb) => ({ status: 'sent', sent_at: eb.fn.coalesce('send_started_at', 'uncertain_at') }))
        .where('id', '=', id)
        .where('status', '=', 'uncertain')
        .executeTakeFirst();
      return Number(done.numUpdatedRows) === 1;
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
