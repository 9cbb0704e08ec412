// Attempt limits (docs/decisions/015): per client IP, per account (canonical address) for wrong
// passwords and wrong codes, and for the site's outgoing mail — each answering 429 with the
// spec's Japanese message. The arithmetic behind the default numbers is checked first.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { DATABASES, Harness, QUICK_LIMITS, expectError, openTestDb, setUpOrFail, testConfig } from '../support/api-harness';
import { DEFAULT_LIMITS, createRateLimits, type LimitNumbers } from '../../src/server/limits/rate-limits';
import { codeSpace } from '../../src/server/services/codes';
import { codeLength } from '../../src/server/schema-settings';
import { loadSchemaSet } from '../../src/shared/validation/schema-files';
import { sweepRateLimits } from '../../src/server/limits/kysely-store';
import { routesOf } from '../../src/server/app';
import messages from '../../messages/ja.json';

/** Codes have as many digits as the schemas' code field says. */
const CODE_LENGTH = codeLength(loadSchemaSet());
const CODE_SPACE = codeSpace(CODE_LENGTH);

/** The chance that `guesses` tries, each at a uniformly drawn code of CODE_SPACE, ever hit:
 *  at worst every wrong guess rules one value out (1 − Π (1 − 1/(N − k))). */
function guessChance(guesses: number): number {
  let miss = 1;
  for (let k = 0; k < guesses; k++) miss *= 1 - 1 / (CODE_SPACE - k);
  return 1 - miss;
}

/** The most wrong codes one address can enter in any 24 hours: fixed windows, so a day can
 *  touch one more window than fit in it. */
function codeGuessesPerDay(limits: LimitNumbers): number {
  return (Math.floor(86_400 / limits.codeWindowSeconds) + 1) * limits.codeFailures;
}

describe('the arithmetic of the default limits', () => {
  it('a code guess succeeds with at most 0.1% per address per day, over the two purposes that can succeed for one address', () => {
    // A member's address: login and reset; any other address: registration and e-mail change
    // (docs/decisions/015). Each purpose has its own ceiling.
    const chance = guessChance(2 * codeGuessesPerDay(DEFAULT_LIMITS));
    expect(chance).toBeLessThanOrEqual(0.001);
    // Without the address's ceiling the per-code limit alone allowed codesPerHour × attempts × 24.
    expect(guessChance(testConfig.codesPerHour * testConfig.codeMaxAttempts * 24)).toBeGreaterThan(0.01);
  });

  it('at most 100 consecutive wrong passwords per account (NIST SP 800-63B §5.2.2)', () => {
    expect(DEFAULT_LIMITS.passwordFailures).toBeLessThanOrEqual(100);
  });

  it('the 429 text is the spec\'s "attempt limit reached, please try again after a while"', () => {
    expect(messages.api.TOO_MANY_ATTEMPTS).toBe('試行回数の上限に達しました。しばらく時間をおいてから、もう一度お試しください。');
  });
});

/** A code that is certainly not `code`. */
const otherCode = (code: string) => String((Number(code) + 1) % CODE_SPACE).padStart(CODE_LENGTH, '0');

const SMALL: LimitNumbers = { ...DEFAULT_LIMITS, ...QUICK_LIMITS, ipRequests: 30, passwordFailures: 3, codeFailures: 4, mailsPerNetworkHour: 12 };

describe.each(DATABASES)('attempt limits ($name)', ({ kind }) => {
  let h: Harness;
  let ip = 0;
  /** Every test comes from its own client address, so the per-IP limit stays out of the way. */
  const from = () => ({ 'x-forwarded-for': `198.51.100.${++ip}` });

  setUpOrFail(async () => {
    h = await Harness.start(kind, { config: { limits: SMALL } });
  });
  afterAll(async () => {
    await h?.close();
  });
  afterEach(async () => {
    await h.db.deleteFrom('rate_limits').execute();
    h.mailer.clear();
  });

  it('per IP only the routes anyone can use blind; a session\'s requests per session holder; a member\'s own credential flow and the passkeys (nothing to guess; docs/decisions/031) by no IP', () => {
    const of = (by: string | false) =>
      routesOf(h.app)
        .filter((r) => r.url.startsWith('/v1/') && r.method !== 'HEAD' && r.limited === by)
        .map((r) => `${r.method} ${r.url}`)
        .sort();
    expect(of('ip')).toEqual(['GET /v1/admin/password-reset/link', 'GET /v1/admin/setup', 'POST /v1/admin/login', 'POST /v1/admin/login/code', 'POST /v1/admin/password-reset', 'POST /v1/admin/password-reset/link', 'POST /v1/admin/setup', 'POST /v1/email/link', 'POST /v1/email/register']);
    expect(of('visitor')).toEqual(['POST /v1/contact']);
    // A member's own routes that mail them (a download of their data, a request about it): per member.
    expect(of('member')).toEqual(['GET /v1/user/disclosure/download', 'POST /v1/user/requests']);
    // Every back-office route that changes or mails counts per operator, never per the office's IP.
    const adminPosts = routesOf(h.app).filter((r) => r.method === 'POST' && r.url.startsWith('/v1/admin/') && !r.url.startsWith('/v1/admin/login') && !r.url.startsWith('/v1/admin/setup') && !r.url.startsWith('/v1/admin/password-reset') && !r.url.includes('passkey'));
    expect(adminPosts.filter((r) => r.limited !== 'operator').map((r) => r.url)).toEqual(['/v1/admin/logout']);
    // A member's own flow: counted per address and network, per code, per address's ceiling.
    for (const own of ['POST /v1/user/login', 'POST /v1/user/verify', 'POST /v1/user/set-password', 'POST /v1/email/verify', 'POST /v1/user/register']) expect(of(false)).toContain(own);
    expect(routesOf(h.app).filter((r) => r.url.includes('passkey') && r.limited)).toEqual([]);
  });

  it(`per IP: the ${SMALL.ipRequests + 1}th blind request → 429; a member on the same IP still logs in and resets, another IP and other routes are not held`, async () => {
    const client = from();
    const m = await h.createMember(h.uniqueEmail('shared-ip'), 'Shared-Pass-1!', { birthday: '1980-02-03', phone: '09012345678' });
    // Junk registration codes: past the network's mail budget (12) they are refused for that
    // reason; every one counts against the IP.
    for (let i = 0; i < SMALL.ipRequests; i++) {
      const res = await h.post('/v1/email/register', { email: `junk-${i}-${Date.now()}@example.net` }, client);
      expect(res.statusCode === 200 || res.json<{ code: string }>().code === 'CODE_RATE_LIMITED', res.body).toBe(true);
    }
    expectError(await h.post('/v1/email/register', { email: 'junk-x@example.net' }, client), 429, 'TOO_MANY_ATTEMPTS');
    expectError(await h.post('/v1/contact', {}, client), 429, 'TOO_MANY_ATTEMPTS');
    expectError(await h.post('/v1/user/verify', { email: 'junk-y@example.net' }, client), 429, 'TOO_MANY_ATTEMPTS');
    // The member behind the same address (a carrier's NAT) is not refused: login and reset.
    h.flow = undefined;
    expect((await h.post('/v1/user/verify', { email: m.email, password: m.password }, client)).statusCode).toBe(200);
    expect((await h.login({ ...m, code: h.mailer.lastCode(m.email), headers: client })).statusCode).toBe(200);
    h.flow = undefined;
    expect((await h.requestPasswordReset({ email: m.email, birthday: '1980-02-03', phone: '09012345678' }, client)).statusCode).toBe(200);
    expect((await h.post('/v1/email/register', { email: 'junk-z@example.net' }, { 'x-forwarded-for': '203.0.113.9' })).statusCode).toBe(200);
    const masters = await h.app.inject({ method: 'GET', url: '/v1/master/options?master_name=job', headers: { 'x-client-key': 'x', ...client } });
    expect(masters.statusCode).not.toBe(429);
  });

  it(`per address and network: wrong passwords in every letter case count together; the ${SMALL.passwordFailures + 1}th try from that network → 429 even with the right password; from another network the right password gets in`, async () => {
    const m = await h.createMember(h.uniqueEmail('guess'));
    const network = from();
    const spellings = [m.email.toUpperCase(), m.email, m.email.replace(/^./, (c) => c.toUpperCase())];
    for (const email of spellings) expectError(await h.post('/v1/user/verify', { email, password: 'Wrong-Pass-1!' }, network), 401, 'LOGIN_FAILED');
    expectError(await h.post('/v1/user/verify', { email: m.email, password: m.password }, network), 429, 'TOO_MANY_ATTEMPTS');
    expect(h.mailer.sent).toHaveLength(0);
    expect((await h.post('/v1/user/verify', { email: m.email, password: m.password }, { 'x-forwarded-for': '203.0.113.77' })).statusCode).toBe(200);
  });

  it('a right password ends the run: wrong tries after it start from zero', async () => {
    const m = await h.createMember(h.uniqueEmail('run'));
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < SMALL.passwordFailures - 1; i++) expectError(await h.post('/v1/user/verify', { email: m.email, password: 'Wrong-Pass-1!' }, from()), 401, 'LOGIN_FAILED');
      expect((await h.post('/v1/user/verify', { email: m.email, password: m.password }, from())).statusCode).toBe(200);
    }
  });

  it('an unknown address is held the same way (no hint that it is unknown)', async () => {
    const email = h.uniqueEmail('nobody');
    for (let i = 0; i < SMALL.passwordFailures; i++) expectError(await h.post('/v1/user/verify', { email, password: 'Wrong-Pass-1!' }, from()), 401, 'LOGIN_FAILED');
    expectError(await h.post('/v1/user/verify', { email, password: 'Wrong-Pass-1!' }, from()), 429, 'TOO_MANY_ATTEMPTS');
  });

  it(`per account: wrong codes count over every code and purpose; after ${SMALL.codeFailures} even the right code → 429`, async () => {
    const m = await h.createMember(h.uniqueEmail('codes'));
    const code = await h.requestCode(m);
    const wrong = otherCode(code);
    // Two wrong tries on this code, then a fresh code and two more: the per-code limit (5) is never reached.
    for (let i = 0; i < 2; i++) expectError(await h.login({ email: m.email.toUpperCase(), password: m.password, code: wrong }), 400, 'CODE_INVALID');
    const fresh = await h.requestCode(m);
    const wrongFresh = otherCode(fresh);
    for (let i = 0; i < 2; i++) expectError(await h.login({ email: m.email, password: m.password, code: wrongFresh }), 400, 'CODE_INVALID');
    expectError(await h.login({ email: m.email, password: m.password, code: fresh }), 429, 'TOO_MANY_ATTEMPTS');
    expect(await h.db.selectFrom('sessions').select('token_hash').where('user_id', '=', m.id).execute()).toEqual([]);
  });

  it('a right code takes its try back', async () => {
    const m = await h.createMember(h.uniqueEmail('right'));
    // One wrong try first, so the count is near the limit and only give-backs keep it there.
    const first = await h.requestCode(m);
    for (let i = 0; i < SMALL.codeFailures - 1; i++) expectError(await h.login({ email: m.email, password: m.password, code: otherCode(first) }), 400, 'CODE_INVALID');
    await h.db.deleteFrom('email_codes').execute();
    for (let i = 0; i < SMALL.codeFailures + 2; i++) {
      const res = await h.login({ email: m.email, password: m.password, code: await h.requestCode(m) });
      expect(res.statusCode, res.body).toBe(200);
      await h.db.deleteFrom('rate_limits').where('key', 'like', '%:recipient:%').execute(); // stay under codesPerHour
    }
  });

  it(`outgoing mail: the ${SMALL.mailsPerNetworkHour + 1}th code mail of the hour from one network → 429; other networks are not held; a failed send does not count`, async () => {
    h.mailer.failing = true;
    expectError(await h.post('/v1/email/register', { email: h.uniqueEmail('down') }, { 'x-forwarded-for': '203.0.113.1' }), 502, 'MAIL_FAILED');
    h.mailer.failing = false;
    // Every address of one /24 counts together.
    for (let i = 0; i < SMALL.mailsPerNetworkHour; i++) {
      expect((await h.post('/v1/email/register', { email: h.uniqueEmail('mail') }, { 'x-forwarded-for': `203.0.113.${1 + (i % 200)}` })).statusCode).toBe(200);
    }
    expectError(await h.post('/v1/email/register', { email: h.uniqueEmail('mail') }, { 'x-forwarded-for': '203.0.113.250' }), 429, 'CODE_RATE_LIMITED');
    expect(h.mailer.sent).toHaveLength(SMALL.mailsPerNetworkHour);
    expect((await h.post('/v1/email/register', { email: h.uniqueEmail('mail') }, { 'x-forwarded-for': '203.0.114.1' })).statusCode).toBe(200);
  });

  it('windows that ended over an hour ago are swept; live ones stay', async () => {
    await h.db.insertInto('rate_limits').values([
      { key: 'sweep:old', points: 3, expire: Date.now() - 2 * 3600_000 },
      { key: 'sweep:live', points: 3, expire: Date.now() + 60_000 },
    ]).execute();
    await sweepRateLimits(h.db);
    expect((await h.db.selectFrom('rate_limits').select('key').where('key', 'like', 'sweep:%').execute()).map((r) => r.key)).toEqual(['sweep:live']);
  });

  it('a window that has ended counts from zero again', async () => {
    const m = await h.createMember(h.uniqueEmail('later'));
    for (let i = 0; i < SMALL.passwordFailures; i++) await h.post('/v1/user/verify', { email: m.email, password: 'Wrong-Pass-1!' }, from());
    expectError(await h.post('/v1/user/verify', { email: m.email, password: m.password }, from()), 429, 'TOO_MANY_ATTEMPTS');
    await h.db.updateTable('rate_limits').set({ expire: Date.now() - 1 }).execute();
    expect((await h.post('/v1/user/verify', { email: m.email, password: m.password }, from())).statusCode).toBe(200);
  });
});

describe('Redis unreachable', () => {
  it('the database counts meanwhile: the limits still hold', async () => {
    const testDb = await openTestDb('sqlite');
    // Nothing listens on port 1: every Redis command fails at once.
    const redis = new Redis('redis://127.0.0.1:1', { enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null, lazyConnect: true });
    redis.on('error', () => {});
    try {
      const limits = createRateLimits({ ...DEFAULT_LIMITS, passwordFailures: 2 }, testConfig.codesPerHour, { db: testDb.db, redis, prefix: 'down' });
      await limits.hit('password', 'a@example.com');
      await limits.hit('password', 'a@example.com');
      await expect(limits.hit('password', 'a@example.com')).rejects.toMatchObject({ code: 'TOO_MANY_ATTEMPTS', status: 429 });
      expect(await testDb.db.selectFrom('rate_limits').select('points').where('key', '=', 'down:password:a@example.com').executeTakeFirst()).toEqual({ points: 3 });
    } finally {
      redis.disconnect();
      await testDb.close();
    }
  });
});
