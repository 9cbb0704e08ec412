// The abuse suite for the attempt limits (docs/decisions/015): a limit only ever costs the party
// that triggers it. Each test is one point of the design, tried as an attacker would, with the
// default numbers (the per-IP request limit aside, which has its own test), on both databases.
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { DATABASES, Harness, QUICK_LIMITS, expectError, setUpOrFail, testConfig, validContact, validRegistration, type Member } from '../support/api-harness';
import { createOutbox } from '../../src/server/mail/outbox';
import { DEFAULT_LIMITS, slowDownMs, type LimitNumbers } from '../../src/server/limits/rate-limits';
import messages from '../../messages/ja.json';

const API_LOCKED = messages.api.CODE_LOCKED;
import { networkOf } from '../../src/server/limits/requester';

const LIMITS: LimitNumbers = { ...DEFAULT_LIMITS, ...QUICK_LIMITS, ipRequests: 1_000_000 };
const PROFILE = { birthday: '1980-02-03', phone: '09012345678' };

/** A client on network `net` (203.0.113.0/24 …) that carries no code flow of its own. */
const stranger = (net: number, host = 1) => ({ 'x-forwarded-for': `198.18.${net}.${host}`, 'x-code-flow': undefined });
/** A 5-digit code that is not `code`. */
const notThe = (code: string, step = 1) => String((Number(code) + step) % 100_000).padStart(5, '0');
const randomCode = () => String(randomBytes(3).readUIntBE(0, 3) % 100_000).padStart(5, '0');

describe('requesting networks', () => {
  it('IPv4 counts by /24, IPv6 by /64, IPv4-mapped IPv6 as IPv4', () => {
    expect(networkOf('203.0.113.7')).toBe('203.0.113.0/24');
    expect(networkOf('203.0.113.200')).toBe(networkOf('203.0.113.7'));
    expect(networkOf('::ffff:203.0.113.9')).toBe('203.0.113.0/24');
    expect(networkOf('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(networkOf('2001:db8:1:2:ffff::9')).toBe(networkOf('2001:db8:1:2::1'));
    expect(networkOf('2001:db8:1:3::1')).not.toBe(networkOf('2001:db8:1:2::1'));
  });
});

describe.each(DATABASES)('abuse: limits cost only their trigger ($name)', ({ kind }) => {
  let h: Harness;
  setUpOrFail(async () => {
    h = await Harness.start(kind, { config: { limits: LIMITS } });
  });
  afterAll(async () => {
    await h?.close();
  });
  afterEach(() => {
    h.flow = undefined;
    h.mailer.clear();
  });

  const victim = () => h.createMember(h.uniqueEmail('victim'), 'Victim-Pass-1!', PROFILE);

  /** The member logs in from their own tab (network 10): password, mailed code, session. */
  async function memberLogsIn(m: Member) {
    h.flow = undefined;
    const sent = await h.post('/v1/user/verify', { email: m.email, password: m.password }, { 'x-forwarded-for': '192.0.2.10' });
    expect(sent.statusCode, sent.body).toBe(200);
    const res = await h.login({ ...m, code: h.mailer.lastCode(m.email), headers: { 'x-forwarded-for': '192.0.2.10' } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ token: string }>().token;
  }

  /** The member resets the password from their own tab: identity, mailed code, new password. */
  async function memberResets(m: Member, password = 'Brand-New-Pass-7!') {
    h.flow = undefined;
    const code = await h.requestResetCode({ email: m.email, ...PROFILE });
    const res = await h.setPassword(m.email, code, password);
    expect(res.statusCode, res.body).toBe(200);
    return { ...m, password };
  }

  /** A newcomer finishes registration from their own tab. */
  async function newcomerRegisters(email: string) {
    h.flow = undefined;
    const { code } = await h.verifiedEmail(email);
    const res = await h.register(validRegistration(email, code));
    expect(res.statusCode, res.body).toBe(200);
  }

  it('point 1: 50 wrong codes typed for an address from flows with no code of theirs are answered like any wrong code and cost the member nothing', async () => {
    const m = await victim();
    const newcomer = h.uniqueEmail('newcomer');
    // A code is pending in the member's own flow while the attacker types.
    h.flow = undefined;
    expect((await h.post('/v1/user/verify', { email: m.email, password: m.password })).statusCode).toBe(200);
    const memberFlow = h.flow;
    const pending = h.mailer.lastCode(m.email);

    for (let i = 0; i < 50; i++) {
      const from = stranger(1 + (i % 3), 1 + i);
      const guess = i === 0 ? pending : randomCode(); // even the right code, from another flow
      const tries = [
        () => h.post('/v1/user/set-password', { email: m.email, code: guess, new_password: 'Attacker-Pass-9!' }, from),
        () => h.login({ email: m.email, password: i % 2 ? m.password : 'Wrong-Pass-1!', code: guess, headers: from }),
        () => h.post('/v1/email/verify', { email: newcomer, key: guess }, from),
      ];
      expectError(await tries[i % 3](), 400, 'CODE_INVALID');
    }
    // Nothing was counted against the address, the code or the member (only the member's own
    // code mail is on the address's mail budget).
    const counted = await h.db.selectFrom('rate_limits').select('key').where('key', 'like', `%${m.email}%`).execute();
    expect(counted.map((r) => r.key)).toEqual([`ms:recipient:login:${m.email}`]);
    expect(await h.db.selectFrom('email_codes').select('attempts').where('email', '=', m.email).execute()).toEqual([{ attempts: 0 }]);

    // The member's own flow goes on with the code it holds; then reset works; a newcomer registers.
    const res = await h.login({ ...m, code: pending, headers: { 'x-code-flow': memberFlow } });
    expect(res.statusCode, res.body).toBe(200);
    const reset = await memberResets(m);
    await memberLogsIn(reset);
    await newcomerRegisters(newcomer);
  });

  it('point 1: a code works only in the flow that asked for it, and wrong guesses count against that flow\'s code alone', async () => {
    const m = await victim();
    h.flow = undefined;
    await h.post('/v1/user/verify', { email: m.email, password: m.password });
    const flowA = h.flow!;
    const codeA = h.mailer.lastCode(m.email);
    // A second flow (another tab, or an attacker who knows the password) gets its own code.
    h.flow = undefined;
    await h.post('/v1/user/verify', { email: m.email, password: m.password });
    const flowB = h.flow!;
    expect(flowB).not.toBe(flowA);
    const codeB = h.mailer.lastCode(m.email);

    // In flow B, flow A's code is just a wrong guess at flow B's code.
    expectError(await h.login({ ...m, code: codeA, headers: { 'x-code-flow': flowB } }), 400, 'CODE_INVALID');
    // Flow B spends its own code's tries; flow A's code is untouched and still works.
    for (let i = 2; i < testConfig.codeMaxAttempts; i++) expectError(await h.login({ ...m, code: notThe(codeB, i), headers: { 'x-code-flow': flowB } }), 400, 'CODE_INVALID');
    expectError(await h.login({ ...m, code: notThe(codeB, 99), headers: { 'x-code-flow': flowB } }), 429, 'CODE_LOCKED');
    const res = await h.login({ ...m, code: codeA, headers: { 'x-code-flow': flowA } });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('point 1: login codes go out only after the right password, reset codes only after the right identity', async () => {
    const m = await victim();
    expectError(await h.post('/v1/user/verify', { email: m.email, password: 'Wrong-Pass-1!' }, stranger(4)), 401, 'LOGIN_FAILED');
    expectError(await h.requestPasswordReset({ email: m.email, birthday: '1999-09-09', phone: PROFILE.phone }, stranger(4)), 400, 'IDENTITY_FAILED');
    expect(h.mailer.to(m.email)).toEqual([]);
  });

  it('point 1: a stranger\'s wrong identities hold only the stranger\'s network, never the member\'s own reset', async () => {
    const m = await victim();
    for (let i = 0; i < LIMITS.identityFailuresPerHour; i++) {
      expectError(await h.requestPasswordReset({ email: m.email, birthday: '1999-09-09', phone: PROFILE.phone }, stranger(5, i + 1)), 400, 'IDENTITY_FAILED');
    }
    expectError(await h.requestPasswordReset({ email: m.email, ...PROFILE }, stranger(5, 99)), 429, 'TOO_MANY_ATTEMPTS');
    await memberResets(m);
  });

  it('point 2: junk code requests from 3 networks exhaust only those networks\' budgets; members still get every code they ask for', async () => {
    const m = await victim();
    const newcomer = h.uniqueEmail('newcomer');
    let refused = 0;
    // Each network asks for codes for junk addresses until its budget is gone (36 is the
    // issue's figure; the budget is larger, so every network goes on until refused).
    for (let net = 1; net <= 3; net++) {
      for (let i = 0; i <= LIMITS.mailsPerNetworkHour; i++) {
        const res = await h.post('/v1/email/register', { email: `junk-${net}-${i}-${randomBytes(2).toString('hex')}@example.net` }, stranger(10 + net, 1 + (i % 250)));
        if (res.statusCode === 429) {
          expectError(res, 429, 'CODE_RATE_LIMITED');
          refused++;
        } else expect(res.statusCode, res.body).toBe(200);
      }
    }
    expect(refused).toBe(3);
    expect(h.mailer.sent).toHaveLength(3 * LIMITS.mailsPerNetworkHour);
    // No counter the junk could reach stands between the members and their mail.
    const token = await memberLogsIn(m);
    expect(token).toBeTruthy();
    await memberResets(m);
    await newcomerRegisters(newcomer);
  });

  it('point 3: password-less code requests (the earliest login) get at most 5 mails a day per address and cannot use up the login\'s budget', async () => {
    const m = await victim();
    for (let i = 0; i < 8; i++) {
      const res = await h.post('/v1/user/verify', { email: m.email }, stranger(20 + i));
      if (i < LIMITS.earliestLoginMailsPerDay) expect(res.statusCode, res.body).toBe(200);
      else expectError(res, 429, 'CODE_RATE_LIMITED');
    }
    expect(h.mailer.to(m.email)).toHaveLength(LIMITS.earliestLoginMailsPerDay);
    // The member's own login (password first) draws from its own budget: every one of its
    // codesPerHour mails still goes out.
    h.flow = undefined;
    for (let i = 0; i < testConfig.codesPerHour; i++) expect((await h.post('/v1/user/verify', { email: m.email, password: m.password }, { 'x-forwarded-for': '192.0.2.10' })).statusCode).toBe(200);
    const res = await h.login({ ...m, code: h.mailer.lastCode(m.email), headers: { 'x-forwarded-for': '192.0.2.10' } });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('point 3: one network may make only its own small number of password-less code requests an hour', async () => {
    for (let i = 0; i < LIMITS.earliestLoginPerNetworkHour; i++) {
      expect((await h.post('/v1/user/verify', { email: h.uniqueEmail('any') }, stranger(30, i + 1))).statusCode).toBe(200);
    }
    expectError(await h.post('/v1/user/verify', { email: h.uniqueEmail('any') }, stranger(30, 200)), 429, 'CODE_RATE_LIMITED');
    expect((await h.post('/v1/user/verify', { email: h.uniqueEmail('any') }, stranger(31))).statusCode).toBe(200);
  });

  it('point 4: 30 parallel code requests for one address send exactly codesPerHour mails', async () => {
    const m = await victim();
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => h.post('/v1/user/verify', { email: m.email, password: m.password }, stranger(40, i + 1))));
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(testConfig.codesPerHour);
    for (const r of answers.filter((a) => a.statusCode !== 200)) expectError(r, 429, 'CODE_RATE_LIMITED');
    expect(h.mailer.to(m.email)).toHaveLength(testConfig.codesPerHour);
  });

  it('point 4: 30 parallel password-less requests send exactly 5 mails; 30 parallel guesses in one flow make at most codeMaxAttempts tries', async () => {
    const m = await victim();
    const earliest = await Promise.all(Array.from({ length: 30 }, (_, i) => h.post('/v1/user/verify', { email: m.email }, stranger(50 + (i % 10), i + 1))));
    expect(earliest.filter((r) => r.statusCode === 200)).toHaveLength(LIMITS.earliestLoginMailsPerDay);
    expect(h.mailer.to(m.email)).toHaveLength(LIMITS.earliestLoginMailsPerDay);

    h.flow = undefined;
    await h.post('/v1/user/verify', { email: m.email, password: m.password });
    const code = h.mailer.lastCode(m.email);
    const guesses = await Promise.all(Array.from({ length: 30 }, (_, i) => h.login({ ...m, code: notThe(code, i + 1) })));
    expect(guesses.filter((r) => r.statusCode === 200)).toEqual([]);
    const row = await h.db.selectFrom('email_codes').select('attempts').where('email', '=', m.email).where('purpose', '=', 'login').orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    expect(Number(row.attempts)).toBe(testConfig.codeMaxAttempts);
    // Only the tries the code had left reached the address's ceiling: no guess slipped past.
    const ceiling = await h.db.selectFrom('rate_limits').select('points').where('key', '=', `ms:code:login:${m.email}`).executeTakeFirstOrThrow();
    expect(Number(ceiling.points)).toBe(testConfig.codeMaxAttempts);
  });

  it('point 4: the address\'s ceiling holds over all its flows: after codeFailures wrong codes even the right one is refused', async () => {
    const m = await victim();
    let wrong = 0;
    while (wrong < LIMITS.codeFailures) {
      h.flow = undefined; // a fresh flow each round, as an attacker who knows the password would
      await h.post('/v1/user/verify', { email: m.email, password: m.password }, { 'x-forwarded-for': `198.18.60.${1 + wrong}` });
      const code = h.mailer.lastCode(m.email);
      for (let i = 1; i < testConfig.codeMaxAttempts && wrong < LIMITS.codeFailures; i++, wrong++) expectError(await h.login({ ...m, code: notThe(code, i) }), 400, 'CODE_INVALID');
      await h.db.deleteFrom('rate_limits').where('key', 'like', '%:recipient:%').execute(); // stay under codesPerHour
    }
    h.flow = undefined;
    await h.post('/v1/user/verify', { email: m.email, password: m.password });
    expectError(await h.login({ ...m, code: h.mailer.lastCode(m.email) }), 429, 'TOO_MANY_ATTEMPTS');
  });

  it('point 6: at /v1/user/login a wrong code answers the same with the right and with a wrong password', async () => {
    const m = await victim();
    for (const flow of ['none', 'own']) {
      h.flow = undefined;
      // With no flow, and in a password-less flow of the attacker's own (the earliest login),
      // which holds a live code for the address.
      if (flow === 'own') await h.post('/v1/user/verify', { email: m.email }, { 'x-forwarded-for': '198.18.70.1' });
      const code = flow === 'own' ? h.mailer.lastCode(m.email) : '00000';
      const right = await h.login({ ...m, code: notThe(code) });
      const wrong = await h.login({ email: m.email, password: 'Wrong-Pass-1!', code: notThe(code, 2) });
      expectError(right, 400, 'CODE_INVALID');
      expect(wrong.statusCode).toBe(right.statusCode);
      expect(wrong.body).toBe(right.body);
      expect(wrong.headers['set-cookie']).toBeUndefined();
      // Trying one password five times tells nothing either: the code dies the same way.
      const rights = [];
      for (let i = 0; i < 4; i++) rights.push((await h.login({ ...m, code: notThe(code, 3 + i) })).body);
      if (flow === 'own') expect(rights.at(-1)).toBe(JSON.stringify({ error: API_LOCKED, code: 'CODE_LOCKED' }));
    }
  });

  it('point 6: an attacker\'s password-less flow cannot spend the member\'s login ceiling without the password', async () => {
    const m = await victim();
    for (let round = 0; round < LIMITS.earliestLoginMailsPerDay; round++) {
      h.flow = undefined;
      await h.post('/v1/user/verify', { email: m.email }, { 'x-forwarded-for': `198.18.71.${round + 1}` });
      const code = h.mailer.lastCode(m.email);
      for (let i = 1; i <= testConfig.codeMaxAttempts; i++) await h.login({ email: m.email, password: 'Wrong-Pass-1!', code: notThe(code, i) });
    }
    expect(await h.db.selectFrom('rate_limits').select('key').where('key', '=', `ms:code:login:${m.email}`).execute()).toEqual([]);
    await memberLogsIn(m);
  });

  it('point 7: an e-mail change ends every other session and trusted device; the session that made it goes on', async () => {
    const m = await victim();
    const here = await memberLogsIn(m);
    const elsewhere = await memberLogsIn(m);
    const next = h.uniqueEmail('moved');
    expect((await h.requestEmailChange(here, next)).statusCode).toBe(200);
    expect((await h.confirmEmailChange(here, next, h.mailer.lastCode(next))).statusCode).toBe(200);
    expectError(await h.info(elsewhere), 401, 'UNAUTHENTICATED');
    expect((await h.info(here)).statusCode).toBe(200);
    expect(await h.db.selectFrom('trusted_devices').select('token_hash').where('user_id', '=', m.id).execute()).toEqual([]);
  });

  it('R1: 101 wrong passwords from one network hold only that network; the member\'s right password and code get in from any other, new device or trusted, and the member hears of it once', async () => {
    const m = await victim();
    const { device } = await h.loginWithCode(m);
    h.mailer.clear();
    for (let i = 0; i <= LIMITS.passwordFailures; i++) await h.post('/v1/user/verify', { email: m.email, password: 'Wrong-Pass-1!' }, stranger(80, i + 1));
    // The attacker's own network is refused, even with the right password.
    expectError(await h.post('/v1/user/verify', { email: m.email, password: m.password }, stranger(80, 250)), 429, 'TOO_MANY_ATTEMPTS');
    // The member: from a new browser on their own network, password and code; from the device
    // they trusted, without a code.
    await memberLogsIn(m);
    expect((await h.login({ ...m, device })).statusCode).toBe(200);
    // Told once today (the notice names the count when it went out), never refused.
    const told = h.mailer.to(m.email).filter((mail) => mail.template === 'loginAttempted');
    expect(told).toHaveLength(1);
    expect(Number(told[0]!.values.count)).toBeGreaterThan(LIMITS.passwordSlowAfter);
    // And resetting the password still works.
    const reset = await memberResets(m);
    await memberLogsIn(reset);
  });

  it('R1 on a carrier\'s shared address: wrong passwords from the same /24 as the member hold that /24 for the address, and the member\'s reset (identity and code) still gets in', async () => {
    const m = await victim();
    for (let i = 0; i <= LIMITS.passwordFailures; i++) await h.post('/v1/user/verify', { email: m.email, password: 'Wrong-Pass-1!' }, { 'x-forwarded-for': `192.0.2.${1 + (i % 200)}` });
    // The member's own network is the attacker's: the password route refuses it for this address…
    expectError(await h.post('/v1/user/verify', { email: m.email, password: m.password }, { 'x-forwarded-for': '192.0.2.10' }), 429, 'TOO_MANY_ATTEMPTS');
    // …and the reset, which no wrong password touches, lets the member in from there.
    h.flow = undefined;
    const code = await h.requestResetCode({ email: m.email, ...PROFILE }, { 'x-forwarded-for': '192.0.2.10' });
    expect((await h.setPassword(m.email, code, 'After-Reset-Pass-2!', { 'x-forwarded-for': '192.0.2.10' })).statusCode).toBe(200);
    // The reset ends every network's run of wrong passwords for the address: the new password
    // works from the shared network at once.
    expect((await h.post('/v1/user/verify', { email: m.email, password: 'After-Reset-Pass-2!' }, { 'x-forwarded-for': '192.0.2.10' })).statusCode).toBe(200);
  });
});

describe.each(DATABASES)('abuse: Redis is an accelerator, not the memory ($name)', ({ kind }) => {
  const prefix = `abuse-${randomBytes(4).toString('hex')}`;
  const SMALL: LimitNumbers = { ...DEFAULT_LIMITS, ...QUICK_LIMITS, ipRequests: 10, passwordFailures: 5 };
  let h: Harness;
  let redis: Redis;
  setUpOrFail(async () => {
    redis = new Redis('redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
    h = await Harness.start(kind, { config: { limits: SMALL }, extra: { redis, limitPrefix: prefix } });
  });
  afterAll(async () => {
    await h?.close();
    if (redis) {
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
    }
  });
  const emptyRedis = async () => {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
  };
  // A blind route (a registration code for any address): counted per IP.
  let junk = 0;
  const ask = (ip: string) => h.post('/v1/email/register', { email: `junk-${++junk}-${prefix}@example.net` }, { 'x-forwarded-for': ip });

  it('point 9: Redis coming back empty neither resets nor multiplies a window\'s count', async () => {
    const ip = '198.18.200.1';
    const expectRefusedPassword = async (i: number) => {
      const res = await ask(ip);
      expect(res.statusCode, `request ${i + 1}: ${res.body}`).toBe(200);
    };
    for (let i = 0; i < 6; i++) await expectRefusedPassword(i);
    await emptyRedis();
    for (let i = 6; i < SMALL.ipRequests; i++) await expectRefusedPassword(i);
    expectError(await ask(ip), 429, 'TOO_MANY_ATTEMPTS');
    await emptyRedis(); // the refusal it remembered is gone too: the database still refuses
    expectError(await ask(ip), 429, 'TOO_MANY_ATTEMPTS');
  });

  it('R1 with Redis: a network refused for an address (remembered in Redis too) is heard again once the member resets the password', async () => {
    const m = await h.createMember(h.uniqueEmail('redis-reset'), 'Redis-Reset-1!', PROFILE);
    const from = { 'x-forwarded-for': '198.18.210.1' };
    for (let i = 0; i < SMALL.passwordFailures; i++) await h.post('/v1/user/verify', { email: m.email, password: 'Wrong-Pass-1!' }, from);
    expectError(await h.post('/v1/user/verify', { email: m.email, password: m.password }, from), 429, 'TOO_MANY_ATTEMPTS');
    expect(await redis.keys(`${prefix}:block:password:*${m.email}`)).toHaveLength(1);
    h.flow = undefined;
    const code = await h.requestResetCode({ email: m.email, ...PROFILE }, from);
    expect((await h.setPassword(m.email, code, 'Redis-Reset-2!', from)).statusCode).toBe(200);
    expect(await redis.keys(`${prefix}:block:password:*${m.email}`)).toEqual([]);
    h.flow = undefined;
    expect((await h.post('/v1/user/verify', { email: m.email, password: 'Redis-Reset-2!' }, from)).statusCode).toBe(200);
  });

  it('point 9: a 24-hour budget survives Redis losing everything', async () => {
    const m = await h.createMember(h.uniqueEmail('day'), 'Day-Pass-1!', PROFILE);
    for (let i = 0; i < SMALL.earliestLoginMailsPerDay; i++) expect((await h.post('/v1/user/verify', { email: m.email }, { 'x-forwarded-for': `198.18.201.${i + 1}` })).statusCode).toBe(200);
    await emptyRedis();
    expectError(await h.post('/v1/user/verify', { email: m.email }, { 'x-forwarded-for': '198.18.202.1' }), 429, 'CODE_RATE_LIMITED');
  });

  it('point 9: with Redis unreachable every limit still holds, exactly', async () => {
    const down = new Redis('redis://127.0.0.1:1', { enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null, lazyConnect: true });
    down.on('error', () => {});
    const other = await Harness.start(kind, { config: { limits: SMALL }, extra: { redis: down, limitPrefix: `${prefix}-down` } });
    try {
      const ip = '198.18.203.1';
      for (let i = 0; i < SMALL.ipRequests; i++) {
        const res = await other.post('/v1/email/register', { email: `down-${i}@example.net` }, { 'x-forwarded-for': ip });
        expect(res.statusCode, `request ${i + 1}: ${res.body}`).toBe(200);
      }
      expectError(await other.post('/v1/email/register', { email: 'down-x@example.net' }, { 'x-forwarded-for': ip }), 429, 'TOO_MANY_ATTEMPTS');
    } finally {
      down.disconnect();
      await other.close();
    }
  });
});

describe.each(DATABASES)('abuse: what others can make the site mail one member is bounded ($name)', ({ kind }) => {
  // The real combining: notices wait ATTEMPT_NOTICE_DELAY_SECONDS, gathering the day's attempts.
  const COMBINING: LimitNumbers = { ...DEFAULT_LIMITS, ...QUICK_LIMITS, ipRequests: 1_000_000, mailsPerNetworkHour: 1_000_000, earliestLoginPerNetworkHour: 1_000_000, attemptNoticeDelaySeconds: 600 };
  let h: Harness;
  setUpOrFail(async () => {
    h = await Harness.start(kind, { config: { limits: COMBINING } });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('R5: a day of every unrequested mail others can cause, from 10 networks, reaches the member as at most 10 mails, each kind of attempt once with its count', async () => {
    const m = await h.createMember(h.uniqueEmail('target'), 'Target-Pass-1!', PROFILE);
    const other = await h.createMember(h.uniqueEmail('other'), 'Other-Pass-1!', PROFILE);
    const { token } = await h.loginWithCode(other);
    // As many as the address's hourly code budget takes (CODES_PER_HOUR): past it they are refused.
    const ATTEMPTS = testConfig.codesPerHour;
    for (let i = 0; i < ATTEMPTS; i++) {
      const from = stranger(120 + i);
      h.flow = undefined;
      expect((await h.post('/v1/email/register', { email: m.email }, from)).statusCode).toBe(200);
      h.flow = undefined;
      expect((await h.requestEmailChange(token, m.email, from)).statusCode).toBe(200);
      h.flow = undefined;
      await h.post('/v1/user/verify', { email: m.email }, from); // the password-less code: 4 a day, then 429
      await h.post('/v1/contact', validContact(m.email), from); // acknowledgements: 3 a day, then none
      for (let k = 0; k < 3; k++) await h.post('/v1/user/verify', { email: m.email, password: `Wrong-Pass-${i}-${k}!` }, from);
    }
    // Until the notices are due, only the codes and acknowledgements have gone.
    const early = h.mailer.to(m.email).map((mail) => mail.template);
    expect(early.filter((t) => t.endsWith('Attempted'))).toEqual([]);
    // The worker sends what is due (made due now, as ten minutes later).
    const outbox = createOutbox(h.db, h.mailer);
    await outbox.retryNow();
    await outbox.deliverDue(100);
    const mails = h.mailer.to(m.email);
    expect(mails.length).toBeLessThanOrEqual(10);
    const of = (template: string) => mails.filter((mail) => mail.template === template);
    expect(of('registerAttempted').map((mail) => mail.values.count)).toEqual([ATTEMPTS]);
    expect(of('emailChangeAttempted').map((mail) => mail.values.count)).toEqual([ATTEMPTS]);
    expect(of('loginAttempted').map((mail) => mail.values.count)).toEqual([ATTEMPTS * 3]);
    expect(of('loginCode')).toHaveLength(COMBINING.earliestLoginMailsPerDay);
    expect(of('contactReceivedVisitor')).toHaveLength(COMBINING.acknowledgementsPerDay);
    // More attempts the same day are counted and told of no further.
    await h.post('/v1/email/register', { email: m.email }, stranger(200));
    await outbox.retryNow();
    await outbox.deliverDue(100);
    expect(of('registerAttempted')).toHaveLength(1);
    expect(h.mailer.to(m.email)).toHaveLength(mails.length);
  });

  it('R1: address-wide wrong passwords only slow down, within the bound, and never refuse', async () => {
    const numbers = { after: DEFAULT_LIMITS.passwordSlowAfter, stepMs: DEFAULT_LIMITS.slowStepMs, maxMs: DEFAULT_LIMITS.slowMaxMs };
    expect(slowDownMs(numbers.after, numbers)).toBe(0);
    expect(slowDownMs(numbers.after + 1, numbers)).toBe(numbers.stepMs);
    expect(slowDownMs(numbers.after + 2, numbers)).toBe(2 * numbers.stepMs);
    expect(slowDownMs(10_000, numbers)).toBe(numbers.maxMs);
    // At a real step: after the start, a check from a fresh network waits, and still answers.
    const slow = await Harness.start(kind, { config: { limits: { ...COMBINING, passwordSlowAfter: 2, slowStepMs: 300, slowMaxMs: 300 } } });
    try {
      const m = await slow.createMember(slow.uniqueEmail('slow'), 'Slow-Pass-1!', PROFILE);
      for (let i = 0; i < 3; i++) await slow.post('/v1/user/verify', { email: m.email, password: 'Wrong-Pass-1!' }, stranger(150 + i));
      const started = performance.now();
      const res = await slow.post('/v1/user/verify', { email: m.email, password: m.password }, stranger(160));
      expect(res.statusCode, res.body).toBe(200);
      expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    } finally {
      await slow.close();
    }
  });
});

describe.each(DATABASES)('abuse: the mailbox\'s owner always gets through, by the link beside the code ($name)', ({ kind }) => {
  let h: Harness;
  setUpOrFail(async () => {
    h = await Harness.start(kind, { config: { limits: { ...DEFAULT_LIMITS, ...QUICK_LIMITS, ipRequests: 1_000_000, mailsPerNetworkHour: 1_000_000 } } });
  });
  afterAll(async () => {
    await h?.close();
  });
  afterEach(() => {
    h.flow = undefined;
    h.mailer.clear();
  });

  /** The key of the link in the latest mail to `email`, checked to open `route` in the parent site. */
  const linkKey = (email: string, route: string) => {
    const url = String(h.mailer.to(email).at(-1)?.values.url);
    const match = new RegExp(`^${testConfig.siteTopUrl.replace(/[.?]/g, '\\$&')}\\?path=/user/${route}\\?key=([A-Za-z0-9_-]{43})$`).exec(url);
    if (!match) throw new Error(`No ${route} link in ${url}`);
    return match[1]!;
  };
  const openLink = (key: string, headers: Record<string, string | undefined> = {}) => h.post('/v1/email/link', { key }, { ...headers, 'x-code-flow': undefined });

  it('R4: whoever knows the birthday and phone spends the address\'s reset ceiling; the member\'s typed code is then refused, and the link in the same mail still resets the password', async () => {
    const m = await h.createMember(h.uniqueEmail('reset-target'), 'Reset-Target-1!', PROFILE);
    // The attacker: the identity from five networks, five wrong codes in each flow.
    for (let round = 0; round < 5; round++) {
      h.flow = undefined;
      const from = { 'x-forwarded-for': `198.18.${30 + round}.1` }; // in the attacker's own flow
      const code = await h.requestResetCode({ email: m.email, ...PROFILE }, from);
      for (let i = 1; i <= testConfig.codeMaxAttempts; i++) await h.setPassword(m.email, notThe(code, i), 'Attacker-Pass-9!', from);
    }
    // The member asks for a code from home: the typed code is over the address's ceiling…
    h.flow = undefined;
    const code = await h.requestResetCode({ email: m.email, ...PROFILE }, { 'x-forwarded-for': '192.0.2.10' });
    const memberFlow = h.flow;
    expectError(await h.setPassword(m.email, code, 'Member-New-Pass-3!', { 'x-forwarded-for': '192.0.2.10' }), 429, 'TOO_MANY_ATTEMPTS');
    // …and the link beside it, opened in any tab, gives a fresh code that goes through.
    const key = linkKey(m.email, 'password_reminder');
    const opened = await openLink(key);
    expect(opened.statusCode, opened.body).toBe(200);
    const answer = opened.json<{ purpose: string; email: string; code: string }>();
    expect(answer).toMatchObject({ purpose: 'password_change', email: m.email });
    const linkFlow = opened.headers['x-code-flow'] as string;
    expect(linkFlow).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(linkFlow).not.toBe(memberFlow);
    const set = await h.setPassword(m.email, answer.code, 'Member-New-Pass-3!', { 'x-code-flow': linkFlow });
    expect(set.statusCode, set.body).toBe(200);
    // Used once: the same link again, or a made-up one, opens nothing.
    expectError(await openLink(key), 400, 'CODE_LINK_INVALID');
    expectError(await openLink('A'.repeat(43)), 400, 'CODE_LINK_INVALID');
    expectError(await openLink('short'), 400, 'BAD_REQUEST');
  });

  it('R3: an attacker spends an address\'s hourly code mails and its daily ceiling of wrong codes; the owner finishes registering within the hour through a link in any mail the address received', async () => {
    const email = h.uniqueEmail('newcomer');
    let refused = 0;
    // The attacker asks for registration codes for the address from their own flows and types
    // wrong codes into each, until the address's mails are spent.
    for (let round = 0; round < testConfig.codesPerHour + 2; round++) {
      h.flow = undefined;
      const from = { 'x-forwarded-for': `198.18.${40 + (round % 3)}.1` }; // in the attacker's own flows
      const sent = await h.post('/v1/email/register', { email }, from);
      if (sent.statusCode === 429) {
        refused++;
        continue;
      }
      for (let i = 1; i <= testConfig.codeMaxAttempts; i++) await h.post('/v1/email/verify', { email, key: notThe(h.mailer.lastCode(email), i) }, from);
    }
    expect(refused).toBeGreaterThan(0);
    // The owner can get no new code this hour, nor use a typed one (the ceiling is spent)…
    h.flow = undefined;
    expectError(await h.post('/v1/email/register', { email }, { 'x-forwarded-for': '192.0.2.20' }), 429, 'CODE_RATE_LIMITED');
    // …but opens the link in the latest mail the attacker caused, and registers.
    const opened = await openLink(linkKey(email, 'register'), { 'x-forwarded-for': '192.0.2.20' });
    expect(opened.statusCode, opened.body).toBe(200);
    const { code } = opened.json<{ code: string }>();
    h.flow = opened.headers['x-code-flow'] as string;
    const verified = await h.post('/v1/email/verify', { email, key: code }, { 'x-forwarded-for': '192.0.2.20' });
    expect(verified.statusCode, verified.body).toBe(200);
    const res = await h.register(validRegistration(email, code));
    expect(res.statusCode, res.body).toBe(200);
  });

  it('a link counts nothing, lives as long as its code, and opens only what it was mailed for (no link with a login code, none for a taken address)', async () => {
    const m = await h.createMember(h.uniqueEmail('linkless'), 'Linkless-Pass-1!', PROFILE);
    h.flow = undefined;
    await h.requestCode(m);
    expect(h.mailer.to(m.email).at(-1)?.values.url).toBeUndefined();
    h.flow = undefined;
    await h.post('/v1/email/register', { email: m.email }, stranger(50));
    expect(h.mailer.to(m.email).every((mail) => mail.values.url === undefined)).toBe(true);
    // A registration link past its code's lifetime opens nothing.
    const email = h.uniqueEmail('late');
    h.flow = undefined;
    await h.post('/v1/email/register', { email }, stranger(51));
    const key = linkKey(email, 'register');
    await h.db.updateTable('email_codes').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('email', '=', email).execute();
    expectError(await openLink(key), 400, 'CODE_LINK_INVALID');
    expect(await h.db.selectFrom('rate_limits').select('key').where('key', 'like', `%code:%${email}%`).execute()).toEqual([]);
  });
});
