// STEP1 of registration takes as long for a taken address as for a free one: both wait for the
// relay (here a mailer that takes 60 ms, as a real one does), where a taken address used to be
// refused in ~2 ms against ~107 ms for a free one. The e-mail change target runs the same
// code path (codes.issue with a decoy); tests/api/email-change.test.ts checks its answer.
import { afterAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { build } from '../../src/server/app';
import { createMember } from '../../src/server/seed';
import { CLIENT_KEY, DATABASES, FakeMailer, SECRET, openTestDb, setUpOrFail, testConfig, type TestDb } from '../support/api-harness';
import type { MailTemplate } from '../../src/server/mail/mailer';

const RELAY_MS = 60;

class SlowMailer extends FakeMailer {
  override async send(to: string, template: MailTemplate, values: Record<string, string | number> = {}): Promise<void> {
    await new Promise((r) => setTimeout(r, RELAY_MS));
    return super.send(to, template, values);
  }

  override async touch(): Promise<void> {
    await new Promise((r) => setTimeout(r, RELAY_MS));
    return super.touch();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

describe.each(DATABASES)('no timing difference for a taken address ($name)', ({ kind }) => {
  let testDb: TestDb;
  let app: FastifyInstance;
  const mailer = new SlowMailer();
  setUpOrFail(async () => {
    testDb = await openTestDb(kind);
    app = await build({ db: testDb.db, mailer, clientKey: CLIENT_KEY, secret: SECRET, config: testConfig });
  });
  afterAll(async () => {
    await app?.close();
    await testDb?.close();
  });

  async function timed(email: string): Promise<{ ms: number; status: number; body: string }> {
    const started = performance.now();
    const res = await app.inject({ method: 'POST', url: '/v1/email/register', headers: { 'content-type': 'application/json', 'x-client-key': CLIENT_KEY }, payload: JSON.stringify({ email }) });
    return { ms: performance.now() - started, status: res.statusCode, body: res.body };
  }

  it('POST /v1/email/register: same status, body and time (within a factor of two) for taken and free', async () => {
    const taken: number[] = [];
    const free: number[] = [];
    for (let i = 0; i < 8; i++) {
      const member = `taken-${i}-${Date.now()}@example.com`;
      await createMember(testDb.db, member, 'Taken-Pass-1!');
      const a = await timed(member);
      const b = await timed(`free-${i}-${Date.now()}@example.com`);
      expect([a.status, a.body]).toEqual([b.status, b.body]);
      taken.push(a.ms);
      free.push(b.ms);
    }
    expect(median(taken)).toBeGreaterThanOrEqual(RELAY_MS);
    expect(median(taken)).toBeGreaterThan(median(free) / 2);
    expect(median(taken)).toBeLessThan(median(free) * 2);
  });
});
