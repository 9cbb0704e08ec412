// Operator mail goes through the outbox: with the relay down the decision stays, the mail waits
// in the queue (exit 1 says so), `outbox list` shows it and `outbox retry` sends it once the
// relay is back. The site's worker sends due mail by itself.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { DATABASES, Harness, setUpOrFail } from '../support/api-harness';
import { addApplication, clearOperatorTables, operator, operatorText } from './operator-support';
import { createOutbox, backoffSeconds } from '../../src/server/mail/outbox';

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

  it('backoff doubles from 30 s and stops growing at an hour', () => {
    expect([1, 2, 3, 4].map(backoffSeconds)).toEqual([30, 60, 120, 240]);
    expect(backoffSeconds(30)).toBe(3600);
  });
});
