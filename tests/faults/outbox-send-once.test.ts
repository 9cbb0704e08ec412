// The process dies between the relay's "250 OK" and sent_at (kill -9 mid-send): the mail must not
// go a second time when its claim runs out. Another outbox instance takes over two minutes later
// (the clock moved on), finds the send without a result, sets it aside as uncertain and logs it;
// the operator lists it and resends it explicitly, with the same Message-ID — or marks it done.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMailer, type Mailer } from '../../src/server/mail/mailer';
import { createOutbox, type OutboxLevel } from '../../src/server/mail/outbox';
import { say } from '../../src/server/operator/text';
import { DATABASES, openTestDb, setUpOrFail, testMailLinks, type TestDb } from '../support/api-harness';
import { operator, operatorText as text } from '../operator/operator-support';

const FROM = 'Test <no-reply@example.jp>';
const TO = 'crash-member@example.com';
/** Past the outbox's two-minute claim. */
const AFTER_THE_CLAIM_MS = 121_000;

describe.each(DATABASES)('outbox: kill -9 between the relay accepting and sent_at ($name)', ({ kind }) => {
  let relay: SMTPServer;
  let testDb: TestDb;
  let mailer: Mailer;
  /** The Message-ID of every message the relay accepted, in order. */
  const received: string[] = [];

  setUpOrFail(async () => {
    relay = new SMTPServer({
      disabledCommands: ['AUTH', 'STARTTLS'],
      logger: false,
      onData(stream, _session, callback) {
        let raw = '';
        stream.on('data', (chunk: Buffer) => (raw += chunk.toString()));
        stream.on('end', () => {
          received.push(/^Message-ID:\s*(\S+)/im.exec(raw)?.[1] ?? '(none)');
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    mailer = createMailer(`smtp://127.0.0.1:${(relay.server.address() as AddressInfo).port}`, FROM, 2000, testMailLinks);
    testDb = await openTestDb(kind);
  });
  afterAll(async () => {
    await testDb?.close();
    await new Promise((r) => relay?.close(() => r(undefined)));
  });
  beforeEach(async () => {
    received.length = 0;
    await testDb.db.deleteFrom('mail_outbox').execute();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A sender whose relay takes the mail and whose process then dies: sent_at is never written. */
  const dyingAfterTheRelay = (inner: Mailer): Mailer => ({
    async send(...args) {
      await inner.send(...args);
      await new Promise(() => {}); // the process is gone: nothing after this runs
    },
  });

  /** Queues a notice, has it sent by a process that dies, and moves the clock past its claim. */
  async function crashMidSend(): Promise<string> {
    const dead = createOutbox(testDb.db, dyingAfterTheRelay(mailer));
    const id = await dead.queue(testDb.db, TO, 'withdrawn', { name: '山田 花子' });
    void dead.deliver(id);
    await vi.waitFor(() => expect(received).toHaveLength(1), { timeout: 5000 });
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + AFTER_THE_CLAIM_MS);
    return id;
  }

  const rowOf = (id: string) => testDb.db.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('is not sent again when its claim runs out: set aside as uncertain, logged, listed; an operator resend sends it once more with the same Message-ID', async () => {
    const id = await crashMidSend();
    const logged: { message: string; level?: OutboxLevel }[] = [];
    const survivor = createOutbox(testDb.db, mailer, (message, _error, level) => logged.push({ message, level }));
    await survivor.retryNow();
    expect(await survivor.deliverDue()).toBe(0);
    expect(await survivor.deliverDue()).toBe(0);
    expect(received).toEqual([`<${id}@example.jp>`]);
    expect(await rowOf(id)).toMatchObject({ status: 'uncertain', sent_at: null, locked_until: null });

    // One error line naming the mail, its template and the recipient's domain, not the address.
    const errors = logged.filter((l) => l.level === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toContain(id);
    expect(errors[0]!.message).toContain('withdrawn');
    expect(errors[0]!.message).toContain('@example.com');
    expect(errors[0]!.message).not.toContain('crash-member');

    // The operator sees it; `retry` leaves it alone.
    const list = await operator({ db: testDb.db, mailer }, 'outbox', 'list');
    expect(list.stdout).toContain(say(text.outbox.uncertainCount, { count: 1 }));
    expect(list.stdout).toContain(text.outbox.statusLabel.uncertain);
    const uncertain = await operator({ db: testDb.db, mailer }, 'outbox', 'uncertain');
    expect(uncertain.code, uncertain.stderr).toBe(0);
    expect(uncertain.stdout).toContain(id);
    expect(uncertain.stdout).toContain(TO);
    expect(uncertain.stdout).toContain(say(text.outbox.count, { count: 1 }));
    expect((await operator({ db: testDb.db, mailer }, 'outbox', 'retry')).code).toBe(0);
    expect(received).toHaveLength(1);

    // The operator's explicit resend: once, with the Message-ID the first send had.
    const resent = await operator({ db: testDb.db, mailer }, 'outbox', 'resend', id);
    expect(resent.code, resent.stderr).toBe(0);
    expect(resent.stdout).toBe(say(text.outbox.resent, { id }));
    expect(received).toEqual([`<${id}@example.jp>`, `<${id}@example.jp>`]);
    expect(await rowOf(id)).toMatchObject({ status: 'sent', uncertain_at: expect.any(String) });
    expect((await operator({ db: testDb.db, mailer }, 'outbox', 'uncertain')).stdout).toBe(text.outbox.noUncertain);
    expect((await operator({ db: testDb.db, mailer }, 'outbox', 'resend', id)).code).toBe(1);
    expect(await survivor.deliverDue()).toBe(0);
    expect(received).toHaveLength(2);
    const audit = await testDb.db.selectFrom('audit_log').select(['action', 'target']).where('target', '=', id).execute();
    expect(audit).toEqual([{ action: 'outbox.resend', target: id }]);
  });

  it('the operator marks an uncertain mail done: sent, and never sent again', async () => {
    const id = await crashMidSend();
    const uncertain = await operator({ db: testDb.db, mailer }, 'outbox', 'uncertain'); // sets it aside with the site stopped too
    expect(uncertain.stdout).toContain(id);
    const done = await operator({ db: testDb.db, mailer }, 'outbox', 'done', id);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toBe(say(text.outbox.markedDone, { id }));
    const row = await rowOf(id);
    expect(row).toMatchObject({ status: 'sent', sent_at: row.send_started_at });

    const outbox = createOutbox(testDb.db, mailer);
    await outbox.retryNow([id]);
    expect(await outbox.deliverDue()).toBe(0);
    expect(received).toHaveLength(1);
    expect((await operator({ db: testDb.db, mailer }, 'outbox', 'done', id)).stderr).toBe(say(text.outbox.notUncertain, { id }));
  });
});
