// Sessions slide (docs/decisions/024): each member request moves the idle end to sessionSeconds
// from now, never past the absolute end fixed at login (sessionMaxSeconds); the extend call
// always moves it; the server refuses a session past either end, and says which.
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config';
import { DATABASES, Harness, expectError, setUpOrFail, testConfig, type Member } from '../support/api-harness';

const HOUR = testConfig.sessionSeconds * 1000;
const MAX = testConfig.sessionMaxSeconds * 1000;
const at = (msFromNow: number) => new Date(Date.now() + msFromNow).toISOString();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The two numbers every member answer carries, in seconds. */
function told(res: LightMyRequestResponse) {
  return { expiresIn: Number(res.headers['x-session-expires-in']), endsIn: Number(res.headers['x-session-ends-in']) };
}

describe.each(DATABASES)('sliding sessions, absolute end and POST /v1/user/session/extend ($name)', ({ kind }) => {
  let h: Harness;
  let member: Member;

  setUpOrFail(async () => {
    h = await Harness.start(kind);
    member = await h.createMember();
  });
  afterAll(async () => {
    await h?.close();
  });

  /** A fresh session and the row that stores it. */
  async function login() {
    const code = await h.requestCode(member);
    const res = await h.login({ email: member.email, password: member.password, code });
    expect(res.statusCode, res.body).toBe(200);
    const { token, expires_in, ends_in } = res.json<{ token: string; expires_in: number; ends_in: number }>();
    const rows = await h.db.selectFrom('sessions').selectAll().where('user_id', '=', member.id).orderBy('created_at', 'desc').execute();
    return { token, expires_in, ends_in, hash: rows[0]!.token_hash };
  }
  const row = (hash: string) => h.db.selectFrom('sessions').selectAll().where('token_hash', '=', hash).executeTakeFirstOrThrow();
  const setRow = (hash: string, values: { expires_at?: string; ends_at?: string | null }) => h.db.updateTable('sessions').set(values).where('token_hash', '=', hash).execute();
  const extend = (token?: string) =>
    h.app.inject({ method: 'POST', url: '/v1/user/session/extend', headers: token ? { authorization: `Bearer ${token}` } : {} });

  it('login fixes the absolute end sessionMaxSeconds after login and says so (ends_in)', async () => {
    const { expires_in, ends_in, hash } = await login();
    expect(expires_in).toBe(testConfig.sessionSeconds);
    expect(ends_in).toBe(testConfig.sessionMaxSeconds);
    const stored = await row(hash);
    expect(Date.parse(stored.ends_at!) - Date.parse(stored.created_at)).toBe(MAX);
    expect(Date.parse(stored.expires_at) - Date.parse(stored.created_at)).toBe(HOUR);
  });

  it('a member request after a quiet spell moves the idle end to sessionSeconds from now, and says so', async () => {
    const { token, hash } = await login();
    await setRow(hash, { expires_at: at(100_000) }); // as if idle for 58 minutes
    const before = Date.now();
    const res = await h.info(token);
    expect(res.statusCode, res.body).toBe(200);
    const stored = await row(hash);
    expect(Date.parse(stored.expires_at)).toBeGreaterThanOrEqual(before + HOUR);
    expect(Date.parse(stored.expires_at)).toBeLessThanOrEqual(Date.now() + HOUR);
    expect(told(res).expiresIn).toBeGreaterThanOrEqual(testConfig.sessionSeconds - 2);
    expect(told(res).expiresIn).toBeLessThanOrEqual(testConfig.sessionSeconds);
    expect(told(res).endsIn).toBeGreaterThan(testConfig.sessionMaxSeconds - 10);
    // Other member routes slide too (the check is the same hook).
    await setRow(hash, { expires_at: at(100_000) });
    expect((await h.applications(token)).statusCode).toBe(200);
    expect(Date.parse((await row(hash)).expires_at)).toBeGreaterThan(Date.now() + HOUR - 5000);
  });

  it('a request that gains less than a minute writes nothing; the answer tells the stored end', async () => {
    const { token, hash } = await login();
    const stored = at(HOUR - 30_000);
    await setRow(hash, { expires_at: stored });
    const res = await h.info(token);
    expect(res.statusCode).toBe(200);
    expect((await row(hash)).expires_at).toBe(stored);
    expect(told(res).expiresIn).toBeLessThanOrEqual(testConfig.sessionSeconds - 29);
  });

  it('the idle end never passes the absolute end', async () => {
    const { token, hash } = await login();
    const end = at(120_000);
    await setRow(hash, { expires_at: at(10_000), ends_at: end });
    const res = await h.info(token);
    expect(res.statusCode).toBe(200);
    expect((await row(hash)).expires_at).toBe(end);
    expect(told(res).expiresIn).toBe(told(res).endsIn);
    expect(told(res).endsIn).toBeGreaterThanOrEqual(118);
    expect(told(res).endsIn).toBeLessThanOrEqual(120);
    const extended = await extend(token);
    expect(extended.statusCode, extended.body).toBe(200);
    expect(extended.json()).toEqual({ expires_in: told(extended).expiresIn, ends_in: told(extended).endsIn });
    expect(extended.json<{ expires_in: number; ends_in: number }>().expires_in).toBe(extended.json<{ ends_in: number }>().ends_in);
  });

  it('past the absolute end → 401 SESSION_LIMIT, however recent the last request (extend too)', async () => {
    const { token, hash } = await login();
    await setRow(hash, { expires_at: at(HOUR), ends_at: at(-1000) });
    expectError(await h.info(token), 401, 'SESSION_LIMIT');
    expectError(await extend(token), 401, 'SESSION_LIMIT');
    expectError(await h.logout(token), 401, 'SESSION_LIMIT');
  });

  it('past the idle end → 401 SESSION_EXPIRED, and extend cannot revive it', async () => {
    const { token, hash } = await login();
    await setRow(hash, { expires_at: at(-1000) });
    expectError(await extend(token), 401, 'SESSION_EXPIRED');
    expectError(await h.info(token), 401, 'SESSION_EXPIRED');
    expect(Date.parse((await row(hash)).expires_at)).toBeLessThan(Date.now());
  });

  it('extend writes the new idle end even when it gains only seconds, and answers both ends', async () => {
    const { token, hash } = await login();
    await setRow(hash, { expires_at: at(HOUR - 20_000) });
    const before = Date.now();
    const res = await extend(token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toMatch(/no-store/);
    const body = res.json<{ expires_in: number; ends_in: number }>();
    expect(body.expires_in).toBeGreaterThanOrEqual(testConfig.sessionSeconds - 1);
    expect(body.expires_in).toBeLessThanOrEqual(testConfig.sessionSeconds);
    expect(body.ends_in).toBeGreaterThan(testConfig.sessionMaxSeconds - 10);
    expect(told(res)).toEqual({ expiresIn: body.expires_in, endsIn: body.ends_in });
    expect(Date.parse((await row(hash)).expires_at)).toBeGreaterThanOrEqual(before + HOUR);
  });

  it('extend needs a live session: none or logged out → 401 UNAUTHENTICATED', async () => {
    expectError(await extend(), 401, 'UNAUTHENTICATED');
    const { token } = await login();
    expect((await h.logout(token)).statusCode).toBe(204);
    expectError(await extend(token), 401, 'UNAUTHENTICATED');
  });

  it('a session opened before migration 011 (no absolute end) ends where it always would have', async () => {
    const { token, hash } = await login();
    const end = at(100_000);
    await setRow(hash, { expires_at: end, ends_at: null });
    const res = await h.info(token);
    expect(res.statusCode).toBe(200);
    expect((await row(hash)).expires_at).toBe(end);
    expect(told(res).endsIn).toBeLessThanOrEqual(100);
  });
});

describe.each(DATABASES)('sessions in real time: sessionSeconds 2, sessionMaxSeconds 5 ($name)', ({ kind }) => {
  let h: Harness;
  setUpOrFail(async () => {
    h = await Harness.start(kind, { config: { sessionSeconds: 2, sessionMaxSeconds: 5 } });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('an active member stays logged in past sessionSeconds, up to sessionMaxSeconds; then SESSION_LIMIT', { timeout: 15_000 }, async () => {
    const member = await h.createMember();
    const { token } = await h.loginWithCode(member);
    const started = Date.now();
    // A request every 0.8 s: each moves the idle end 2 s on.
    while (Date.now() - started < 4200) {
      await sleep(800);
      const res = await h.info(token);
      expect(res.statusCode, `${Date.now() - started} ms after login: ${res.body}`).toBe(200);
    }
    await sleep(5000 - (Date.now() - started) + 300);
    expectError(await h.info(token), 401, 'SESSION_LIMIT');
  });

  it('an idle member is logged out sessionSeconds after the last request: SESSION_EXPIRED', { timeout: 10_000 }, async () => {
    const member = await h.createMember();
    const { token } = await h.loginWithCode(member);
    await sleep(1200);
    expect((await h.info(token)).statusCode).toBe(200); // 1.2 s in: slides to 3.2 s
    await sleep(1200);
    expect((await h.info(token)).statusCode).toBe(200); // 2.4 s in: past the first end, alive
    await sleep(2400);
    expectError(await h.info(token), 401, 'SESSION_EXPIRED');
  });
});

describe('SESSION_MAX_SECONDS', () => {
  it('defaults to 12 hours and may not be shorter than SESSION_SECONDS', () => {
    expect(loadConfig({}).sessionMaxSeconds).toBe(43200);
    expect(loadConfig({ SESSION_SECONDS: '60', SESSION_MAX_SECONDS: '60' }).sessionMaxSeconds).toBe(60);
    expect(() => loadConfig({ SESSION_SECONDS: '3600', SESSION_MAX_SECONDS: '600' })).toThrow(/SESSION_MAX_SECONDS/);
  });
});
