// A real SMTP conversation with a relay that refuses, and with one that accepts the connection
// but never answers. Codes: the answer is a Japanese 502 within the SMTP timeouts, nothing is
// stored, the earlier code still works and no quota is used. Notices: queued, sent when the
// relay takes mail again.
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { build } from '../../src/server/app';
import { createMailer, type Mailer } from '../../src/server/mail/mailer';
import { createOutbox } from '../../src/server/mail/outbox';
import { createMember } from '../../src/server/seed';
import { CLIENT_KEY, SECRET, expectError, openTestDb, setUpOrFail, testConfig, type SentMail, type TestDb, testMailLinks } from '../support/api-harness';

const TIMEOUT_MS = 800;
type Mode = 'accept' | 'refuse';

describe('mail relay faults', () => {
  let mode: Mode = 'accept';
  let relay: SMTPServer;
  let relayPort: number;
  let silent: Server;
  let silentPort: number;
  const silentSockets = new Set<Socket>();
  let testDb: TestDb;
  let app: FastifyInstance;
  let hangingApp: FastifyInstance;
  /** Mail the relay accepted (recorded by the app-side wrapper after the relay said OK). */
  const accepted: SentMail[] = [];

  const recording = (inner: Mailer): Mailer => ({
    async send(to, template, values = {}) {
      await inner.send(to, template, values);
      accepted.push({ to, template, values });
    },
  });

  setUpOrFail(async () => {
    relay = new SMTPServer({
      disabledCommands: ['AUTH', 'STARTTLS'],
      logger: false,
      onRcptTo(_address, _session, callback) {
        if (mode === 'refuse') return callback(Object.assign(new Error('Mailbox unavailable (test relay refuses)'), { responseCode: 550 }));
        callback();
      },
      onData(stream, _session, callback) {
        stream.resume();
        stream.on('end', () => callback());
      },
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    relayPort = (relay.server.address() as AddressInfo).port;
    // A "relay" that takes the connection and never says a word.
    silent = createServer((socket) => {
      silentSockets.add(socket);
      socket.on('close', () => silentSockets.delete(socket));
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentPort = (silent.address() as AddressInfo).port;

    testDb = await openTestDb('sqlite');
    const common = { db: testDb.db, clientKey: CLIENT_KEY, secret: SECRET, config: testConfig };
    app = await build({ ...common, mailer: recording(createMailer(`smtp://127.0.0.1:${relayPort}`, 'Test <no-reply@example.jp>', TIMEOUT_MS, testMailLinks)) });
    hangingApp = await build({ ...common, mailer: recording(createMailer(`smtp://127.0.0.1:${silentPort}`, 'Test <no-reply@example.jp>', TIMEOUT_MS, testMailLinks)) });
  });
  afterAll(async () => {
    await app?.close();
    await hangingApp?.close();
    await testDb?.close();
    for (const socket of silentSockets) socket.destroy();
    await new Promise((r) => silent?.close(r));
    await new Promise((r) => relay?.close(() => r(undefined)));
  });
  beforeEach(async () => {
    mode = 'accept';
    accepted.length = 0;
    await testDb.db.deleteFrom('email_codes').execute();
  });

  // One client (browser tab): the code flow the server names is carried back, as the app does.
  let flow: string | undefined;
  const headers = () => ({ 'content-type': 'application/json', 'x-client-key': CLIENT_KEY, ...(flow ? { 'x-code-flow': flow } : {}) });
  const verify = async (target: FastifyInstance, email: string, password: string) => {
    const res = await target.inject({ method: 'POST', url: '/v1/user/verify', headers: headers(), payload: JSON.stringify({ email, password }) });
    if (typeof res.headers['x-code-flow'] === 'string') flow = res.headers['x-code-flow'];
    return res;
  };
  const login = (email: string, password: string, code: string) =>
    app.inject({ method: 'POST', url: '/v1/user/login', headers: headers(), payload: JSON.stringify({ email, password, code }) });
  const liveCodes = (email: string) => testDb.db.selectFrom('email_codes').select('id').where('email', '=', email).execute();

  it('a refusing relay: 502 MAIL_FAILED, no code stored, the earlier code still logs in, no quota used', async () => {
    const email = `refuse-${Date.now()}@example.com`;
    await createMember(testDb.db, email, 'Relay-Pass-1!');
    expect((await verify(app, email, 'Relay-Pass-1!')).statusCode).toBe(200);
    const earlier = String(accepted.at(-1)!.values.code);

    mode = 'refuse';
    for (let i = 0; i < testConfig.codesPerHour + 2; i++) expectError(await verify(app, email, 'Relay-Pass-1!'), 502, 'MAIL_FAILED');
    expect(await liveCodes(email)).toHaveLength(1);

    mode = 'accept';
    expect((await login(email, 'Relay-Pass-1!', earlier)).statusCode).toBe(200);
    // Twelve failed sends used none of the hour's codes.
    expect((await verify(app, email, 'Relay-Pass-1!')).statusCode).toBe(200);
  });

  it(`a relay that never answers: 502 MAIL_FAILED after the SMTP timeout (${TIMEOUT_MS} ms), not minutes; nothing stored`, async () => {
    const email = `hang-${Date.now()}@example.com`;
    await createMember(testDb.db, email, 'Relay-Pass-1!');
    const started = Date.now();
    expectError(await verify(hangingApp, email, 'Relay-Pass-1!'), 502, 'MAIL_FAILED');
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS * 4);
    expect(await liveCodes(email)).toHaveLength(0);
  });

  it('a notice sent while the relay refuses waits in the outbox and goes out when it accepts again', async () => {
    mode = 'refuse';
    const outbox = createOutbox(testDb.db, createMailer(`smtp://127.0.0.1:${relayPort}`, 'Test <no-reply@example.jp>', TIMEOUT_MS, testMailLinks));
    const { id, sent } = await outbox.send('notice@example.com', 'withdrawn', { name: '山田 花子' });
    expect(sent).toBe(false);
    mode = 'accept';
    await outbox.retryNow([id]);
    expect(await outbox.deliverDue()).toBe(1);
    const row = await testDb.db.selectFrom('mail_outbox').select(['sent_at', 'attempts']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.sent_at).not.toBeNull();
    expect(Number(row.attempts)).toBe(2);
  });
});
