// Operator mail goes through the outbox: with the relay down the decision stays, the mail waits
// in the queue (exit 1 says so), `outbox list` shows it and `outbox retry` sends it once the
// relay is back. The site's worker sends due mail by itself.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { DATABASES, Harness, setUpOrFail } from '../support/api-harness';
import { addApplication, clearOperatorTables, operator, operatorText } from './operator-support';
import { createOutbox, backoffSeconds } from '../../src/server/mail/outbox';
import { operatorMail } from '../../src/server/operator/mail';
import { say } from '../../src/server/operator/text';
import { iso } from '../../src/server/services/clock';

const text = operatorText;

describe.each(DATABASES)('operator: outbox ($name)', ({ kind }) => {
  let h: Harness;
  setUpOrFail(async () => {
    h = await Harness.start(kind);
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(async () => {
    h.mailer.failing = false;
    h.mailer.clear();
    await clearOperatorTables(h.db);
    await h.db.deleteFrom('mail_outbox').execute();
  });

  it('approve with the relay down → exit 1 saying the mail is queued; list shows it; retry sends it', async () => {
    const member = await h.createMember();
    const application = await addApplication(h.db, member.id, {});
    h.mailer.failing = true;
    const approved = await operator(h, 'applications', 'approve', application.register_number);
    expect(approved.code).toBe(1);
    expect(approved.stderr).toContain('ID ');
    expect(approved.stderr).toContain('outbox list');

    const listed = await operator(h, 'outbox', 'list');
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(member.email);
    expect(listed.stdout).toContain('applicationApproved');
    expect(listed.stdout).toContain('SMTP relay unavailable');

    h.mailer.failing = false;
    const retried = await operator(h, 'outbox', 'retry');
    expect(retried.code, retried.stderr).toBe(0);
    expect(retried.stdout).toBe(text.outbox.retried.replace('{sent}', '1').replace('{left}', '0'));
    expect(h.mailer.to(member.email).map((m) => m.template)).toEqual(['applicationApproved']);
    expect((await operator(h, 'outbox', 'list')).stdout).toBe(text.outbox.none);
  });

  it('retry while the relay is still down keeps the one queued row (no copies), then sends it once', async () => {
    const member = await h.createMember();
    const application = await addApplication(h.db, member.id, {});
    h.mailer.failing = true;
    expect((await operator(h, 'applications', 'approve', application.register_number)).code).toBe(1);
    const [queued, ...others] = await h.db.selectFrom('mail_outbox').selectAll().execute();
    expect(others).toEqual([]);

    for (let i = 0; i < 2; i++) {
      const retried = await operator(h, 'outbox', 'retry');
      expect(retried.code, retried.stderr).toBe(0);
      expect(retried.stdout).toBe(text.outbox.retried.replace('{sent}', '0').replace('{left}', '1'));
    }
    const rows = await h.db.selectFrom('mail_outbox').selectAll().execute();
    expect(rows.map((r) => [r.id, r.attempts, r.sent_at])).toEqual([[queued!.id, 3, null]]);

    h.mailer.failing = false;
    expect((await operator(h, 'outbox', 'retry')).stdout).toBe(text.outbox.retried.replace('{sent}', '1').replace('{left}', '0'));
    expect(h.mailer.to(member.email).map((m) => m.template)).toEqual(['applicationApproved']);
    expect(await h.db.selectFrom('mail_outbox').select('id').execute()).toEqual([{ id: queued!.id }]);
  });

  it('a member notice queued while the relay is down is sent by the worker with backoff, exactly once', async () => {
    const member = await h.createMember();
    const { token } = await h.loginWithCode(member);
    h.mailer.failing = true;
    h.mailer.clear();
    expect((await h.withdraw(token, { password: member.password, reason: '' })).statusCode).toBe(200);
    const [row] = await h.db.selectFrom('mail_outbox').selectAll().where('sent_at', 'is', null).execute();
    expect(row).toMatchObject({ to_address: member.email, template: 'withdrawn', attempts: 1 });
    expect(Date.parse(row.next_attempt_at) - Date.now()).toBeGreaterThan((backoffSeconds(1) - 5) * 1000);

    const outbox = createOutbox(h.db, h.mailer);
    expect(await outbox.deliverDue()).toBe(0); // not due yet
    h.mailer.failing = false;
    await outbox.retryNow();
    expect(await Promise.all([outbox.deliverDue(), outbox.deliverDue()]).then(([a, b]) => a + b)).toBe(1);
    expect(h.mailer.to(member.email).map((m) => m.template)).toEqual(['withdrawn']);
  });

  it('the worker sends what is due by itself', async () => {
    const outbox = createOutbox(h.db, h.mailer);
    h.mailer.failing = true;
    const { sent } = await outbox.send('worker@example.com', 'withdrawn', { name: '山田 花子' });
    expect(sent).toBe(false);
    h.mailer.failing = false;
    await outbox.retryNow();
    const stop = outbox.startWorker(20);
    try {
      await expect.poll(() => h.mailer.to('worker@example.com').length, { timeout: 5000 }).toBe(1);
    } finally {
      stop();
    }
  });

  describe("the site's worker claimed the command's mail between its commit and its own try", () => {
    /** A queued mail, claimed as the worker claims it (sending, locked for two minutes). */
    async function claimedByWorker(mail: ReturnType<typeof operatorMail>) {
      const id = await mail.queue(h.db, 'race@example.com', 'withdrawn', { name: '山田 花子' });
      const at = new Date();
      await h.db
        .updateTable('mail_outbox')
        .set({ status: 'sending', attempt_id: 'worker', send_started_at: iso(at), locked_until: iso(new Date(at.getTime() + 120_000)) })
        .where('id', '=', id)
        .execute();
      return id;
    }
    const workerEnds = (id: string, outcome: { sent_at?: string; last_error?: string }) =>
      setTimeout(() => void h.db.updateTable('mail_outbox').set({ locked_until: null, status: outcome.sent_at ? 'sent' : 'queued', ...outcome }).where('id', '=', id).execute(), 300);

    it('the worker sent it → the command reports it sent', async () => {
      const mail = operatorMail(h.db, h.mailer, 5000);
      const id = await claimedByWorker(mail);
      workerEnds(id, { sent_at: iso(new Date()) });
      await expect(mail.send(id)).resolves.toBeUndefined();
      expect(h.mailer.sent).toEqual([]); // sent once, by the worker, not again by the command
    });

    it("the worker's try failed → the command names the queued mail and the relay's error", async () => {
      const mail = operatorMail(h.db, h.mailer, 5000);
      const id = await claimedByWorker(mail);
      workerEnds(id, { last_error: 'SMTP relay unavailable' });
      await expect(mail.send(id)).rejects.toThrow(say(text.outbox.queued, { id, error: 'SMTP relay unavailable' }));
    });

    it('the worker is still at it when the wait ends → the command says the site is sending it', async () => {
      const mail = operatorMail(h.db, h.mailer, 300);
      const id = await claimedByWorker(mail);
      await expect(mail.send(id)).rejects.toThrow(say(text.outbox.sendingElsewhere, { id }));
    });
  });

  it('backoff doubles from 30 s and stops growing at an hour', () => {
    expect([1, 2, 3, 4].map(backoffSeconds)).toEqual([30, 60, 120, 240]);
    expect(backoffSeconds(30)).toBe(3600);
  });
});
