// The back office's accounts and sessions (issue 23 point 2), through inject() on SQLite and
// PostgreSQL: the single-use 24-hour set-up link, the site's password rules, login with the
// password and a mailed code every time, the members' attempt limits without a lockout by
// strangers, the cookie session (30 minutes idle, 8 hours in all, CSRF on every change), disabling,
// the wall between member tokens and operator cookies, and exactly one audit entry per action.
import { createHash } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DATABASES, Harness, expectError, expectJapaneseOnly, setUpOrFail, testConfig, type ErrorBody } from '../support/api-harness';
import { operatorSession, type TestOperator } from '../support/admin-session';
import { addOperator, SETUP_LINK_SECONDS } from '../../src/server/admin/accounts';
import type { Role } from '../../src/server/admin/permissions';
import { ADMIN_COOKIE, CSRF_HEADER, DEFAULT_ADMIN_SETTINGS } from '../../src/server/admin/settings';
import { loadSharedSchemas } from '../../src/shared/validation/schema-files';
import setupForm from '../../schemas/forms/admin-operator-setup.schema.json';
import { fillMessage } from '../../src/shared/validation/message-params';
import { adminSettingsOf, loadConfig } from '../../src/server/config';

const PASSWORD = 'Kanri-Sora-2025!';
const PUBLIC_URL = testConfig.publicUrl;
const LIMITS = { ...testConfig.limits, passwordFailures: 5, codeFailures: 8, passwordSlowAfter: 3, operatorPasswordCap: 12, operatorRequestsPerHour: 20 };
const STRANGER = '203.0.113.7';

/** The set-up form's own messages, as the schemas state them (so a reworded message stays tested). */
const fields = loadSharedSchemas()['fields.json'] as { $defs: { newPassword: { allOf: Array<Record<string, unknown>> } } };
const passwordRule = fields.$defs.newPassword.allOf.find((rule) => 'minLength' in rule) as { minLength: number; errorMessage: { minLength: string } };
const TOO_SHORT = fillMessage(passwordRule.errorMessage.minLength, passwordRule, 'minLength');
const NOT_SAME = setupForm.properties.password_confirm.errorMessage.sameAs;

describe.each(DATABASES)('back office: accounts and sessions ($name)', ({ kind }) => {
  let h: Harness;
  let admin: TestOperator;

  setUpOrFail(async () => {
    h = await Harness.start(kind, { config: { limits: LIMITS } });
    admin = await operatorSession(h.db, 'admin', '管理 太郎');
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(() => {
    h.mailer.clear();
    h.mailer.failing = false;
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  // -------------------------------------------------------------------------------------------
  // Helpers

  let counter = 0;
  const newEmail = (label = 'op') => `${label}-${++counter}-${kind}@office.example.jp`;

  const inject = (method: 'GET' | 'POST', url: string, body?: unknown, headers: Record<string, string> = {}, remoteAddress?: string) =>
    h.app.inject({
      method,
      url,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
      ...(remoteAddress ? { remoteAddress } : {}),
    });

  /** The key of the latest set-up link mailed to `email`. */
  function mailedKey(email: string): string {
    const mail = h.mailer.to(email).filter((m) => m.template === 'operatorSetup').at(-1);
    if (!mail) throw new Error(`No set-up mail to ${email}`);
    const url = new URL(String(mail.values.url));
    expect(`${url.origin}${url.pathname}`).toBe(`${PUBLIC_URL}/admin/setup`);
    return url.searchParams.get('key')!;
  }

  /** An invited operator added as the command line does, and the key mailed to them. */
  async function invited(role: Role = 'secretariat', name = '事務局 花子') {
    const email = newEmail(role);
    const operator = await addOperator(h.db, h.mailer, PUBLIC_URL, { email, name, role }, { actor: { type: 'cli', user: 'tester' }, ip: null });
    return { ...operator, key: mailedKey(email) };
  }

  const setUp = (key: string, password = PASSWORD, confirm = password) => inject('POST', '/v1/admin/setup', { key, password, password_confirm: confirm });

  /** An active operator with a password. */
  async function active(role: Role = 'secretariat') {
    const operator = await invited(role);
    const res = await setUp(operator.key);
    expect(res.statusCode, res.body).toBe(204);
    return operator;
  }

  const passwordStep = (email: string, password = PASSWORD, remoteAddress?: string) => inject('POST', '/v1/admin/login', { email, password }, {}, remoteAddress);
  const codeStep = (flow: string, code: string, remoteAddress?: string) => inject('POST', '/v1/admin/login/code', { flow, code }, {}, remoteAddress);

  /** Password step → the flow and the code mailed for it. */
  async function codeFor(email: string, remoteAddress?: string): Promise<{ flow: string; code: string }> {
    const before = h.mailer.to(email).length;
    const res = await passwordStep(email, PASSWORD, remoteAddress);
    expect(res.statusCode, res.body).toBe(200);
    const mails = h.mailer.to(email);
    expect(mails).toHaveLength(before + 1);
    expect(mails.at(-1)!.template).toBe('operatorLoginCode');
    return { flow: res.json<{ flow: string }>().flow, code: h.mailer.lastCode(email) };
  }

  /** The full login: the answer and the headers a browser would then send. */
  async function login(email: string) {
    const { flow, code } = await codeFor(email);
    const res = await codeStep(flow, code);
    expect(res.statusCode, res.body).toBe(200);
    const cookie = res.cookies.find((c) => c.name === ADMIN_COOKIE);
    if (!cookie) throw new Error('no session cookie');
    const body = res.json<{ csrfToken: string; expiresAt: string; endsAt: string; operator: { id: string } }>();
    return { res, body, headers: { cookie: `${ADMIN_COOKIE}=${cookie.value}`, [CSRF_HEADER]: body.csrfToken }, token: cookie.value };
  }

  const whoAmI = (headers: Record<string, string>) => inject('GET', '/v1/admin/session', undefined, headers);

  /** Audit entries written after `mark` (ids seen before). */
  async function auditMark(): Promise<Set<string>> {
    return new Set((await h.db.selectFrom('audit_log').select('id').execute()).map((r) => r.id));
  }
  async function auditSince(mark: Set<string>) {
    const rows = await h.db.selectFrom('audit_log').selectAll().execute();
    return rows.filter((r) => !mark.has(r.id)).map((r) => ({ ...r, detail: JSON.parse(r.detail) as Record<string, unknown> }));
  }

  const operatorRow = (id: string) => h.db.selectFrom('operators').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const linkRows = (operatorId: string) => h.db.selectFrom('operator_setup_links').selectAll().where('operator_id', '=', operatorId).orderBy('created_at').execute();

  // -------------------------------------------------------------------------------------------
  describe('the set-up link', () => {
    it('is mailed once with a 24-hour single-use URL; only the key\'s hash is stored, nowhere the key', async () => {
      const operator = await invited('secretariat', '事務局 花子');
      expect(h.mailer.sent).toHaveLength(1);
      expect(h.mailer.sent[0]!.values).toMatchObject({ name: '事務局 花子', lifetime: '24時間' });
      const [link] = await linkRows(operator.id);
      expect(link!.key_hash).toBe(createHash('sha256').update(operator.key).digest('hex'));
      expect(Date.parse(link!.expires_at) - Date.parse(link!.created_at)).toBe(SETUP_LINK_SECONDS * 1000);
      expect(SETUP_LINK_SECONDS).toBe(24 * 3600);
      // Not queued in the outbox either: the key lives only in the mail.
      const outbox = await h.db.selectFrom('mail_outbox').select('values_json').execute();
      expect(outbox.some((row) => row.values_json.includes(operator.key))).toBe(false);
      expect((await operatorRow(operator.id)).status).toBe('invited');
    });

    it('GET tells whose link it is; POST sets the password once: active, link used, one audit entry; then the link opens nothing', async () => {
      const operator = await invited();
      const shown = await inject('GET', `/v1/admin/setup?key=${operator.key}`);
      expect(shown.statusCode, shown.body).toBe(200);
      expect(shown.json()).toEqual({ email: operator.email, name: operator.name });

      const mark = await auditMark();
      const res = await setUp(operator.key);
      expect(res.statusCode, res.body).toBe(204);
      const row = await operatorRow(operator.id);
      expect(row.status).toBe('active');
      expect(row.password_hash).toMatch(/^\$argon2id\$/);
      expect((await linkRows(operator.id))[0]!.used_at).not.toBeNull();
      const entries = await auditSince(mark);
      expect(entries.map((e) => [e.action, e.actor_type, e.operator_id, e.target])).toEqual([['operators.setup', 'operator', operator.id, operator.email]]);
      expect(entries[0]!.ip).toBe('127.0.0.1');

      expectError(await inject('GET', `/v1/admin/setup?key=${operator.key}`), 400, 'LINK_INVALID');
      const again = await setUp(operator.key, 'Another-Pass-9!');
      expectError(again, 400, 'LINK_INVALID');
      expect((await operatorRow(operator.id)).password_hash).toBe(row.password_hash);
      expect(await auditSince(mark)).toHaveLength(1);
    });

    it('works until 24 hours have passed, and not after (the clock moved)', async () => {
      const operator = await invited();
      const issued = Date.now();
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(issued + SETUP_LINK_SECONDS * 1000 - 60_000);
      expect((await inject('GET', `/v1/admin/setup?key=${operator.key}`)).statusCode).toBe(200);
      vi.setSystemTime(issued + SETUP_LINK_SECONDS * 1000 + 1000);
      expectError(await inject('GET', `/v1/admin/setup?key=${operator.key}`), 400, 'LINK_INVALID');
      expectError(await setUp(operator.key), 400, 'LINK_INVALID');
      vi.useRealTimers();
      expect((await operatorRow(operator.id)).status).toBe('invited');
    });

    it('an expired row (expires_at passed), an unknown or malformed key → LINK_INVALID, nothing changed', async () => {
      const operator = await invited();
      await h.db.updateTable('operator_setup_links').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('operator_id', '=', operator.id).execute();
      const mark = await auditMark();
      expectError(await setUp(operator.key), 400, 'LINK_INVALID');
      expectError(await setUp('A'.repeat(43)), 400, 'LINK_INVALID');
      expectError(await setUp('short'), 400, 'LINK_INVALID');
      expectError(await inject('GET', '/v1/admin/setup'), 400, 'LINK_INVALID');
      expectError(await inject('GET', '/v1/admin/setup?key=%00%01'), 400, 'LINK_INVALID');
      expect((await operatorRow(operator.id)).status).toBe('invited');
      expect(await auditSince(mark)).toEqual([]);
    });

    it('the site\'s password rules, with the form\'s Japanese messages under the fields; nothing is saved', async () => {
      const operator = await invited();
      const mark = await auditMark();
      const short = expectError(await setUp(operator.key, 'Ab1!'), 400, 'VALIDATION');
      expect(short.fields?.password).toContain(TOO_SHORT);
      const mismatch = expectError(await setUp(operator.key, PASSWORD, `${PASSWORD}x`), 400, 'VALIDATION');
      expect(mismatch.fields).toEqual({ password_confirm: [NOT_SAME] });
      const plain = expectError(await setUp(operator.key, 'abcdefgh'), 400, 'VALIDATION');
      expect(plain.fields?.password?.length).toBeGreaterThanOrEqual(3); // no capital, digit or symbol
      const missing = expectError(await inject('POST', '/v1/admin/setup', { key: operator.key }), 400, 'VALIDATION');
      expect(Object.keys(missing.fields ?? {}).sort()).toEqual(['password', 'password_confirm']);
      expect((await linkRows(operator.id))[0]!.used_at).toBeNull();
      expect((await operatorRow(operator.id)).status).toBe('invited');
      expect(await auditSince(mark)).toEqual([]);
      // …and the link still works with a good password.
      expect((await setUp(operator.key)).statusCode).toBe(204);
    });

    it('a new link voids the earlier one; setting a password ends the operator\'s sessions', async () => {
      const operator = await active();
      const first = await login(operator.email);
      const renewed = await inject('POST', `/v1/admin/operators/${operator.id}/setup-link`, undefined, admin.headers);
      expect(renewed.statusCode, renewed.body).toBe(204);
      const newKey = mailedKey(operator.email);
      const secondRenew = await inject('POST', `/v1/admin/operators/${operator.id}/setup-link`, undefined, admin.headers);
      expect(secondRenew.statusCode).toBe(204);
      const newestKey = mailedKey(operator.email);
      expectError(await setUp(newKey), 400, 'LINK_INVALID');
      expect((await whoAmI(first.headers)).statusCode).toBe(200);
      expect((await setUp(newestKey, 'Renewed-Pass-7!')).statusCode).toBe(204);
      expectError(await whoAmI(first.headers), 401, 'ADMIN_UNAUTHENTICATED');
      expectError(await passwordStep(operator.email), 401, 'LOGIN_FAILED');
      expect((await passwordStep(operator.email, 'Renewed-Pass-7!')).statusCode).toBe(200);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('login: password, then a mailed code', () => {
    it('opens a session: the operator, CSRF token and both ends; the cookie is HttpOnly, Secure, SameSite=Strict, Path=/; one audit entry', async () => {
      const operator = await active('municipality');
      const mark = await auditMark();
      const { res, body, headers } = await login(operator.email);
      expect(body.operator).toEqual({ id: operator.id, email: operator.email, name: operator.name, role: 'municipality' });
      expect(body.csrfToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Date.parse(body.expiresAt) - Date.now()).toBeGreaterThan(DEFAULT_ADMIN_SETTINGS.sessionSeconds * 1000 - 60_000);
      expect(Date.parse(body.expiresAt) - Date.now()).toBeLessThanOrEqual(DEFAULT_ADMIN_SETTINGS.sessionSeconds * 1000);
      expect(Date.parse(body.endsAt) - Date.now()).toBeGreaterThan(DEFAULT_ADMIN_SETTINGS.sessionMaxSeconds * 1000 - 60_000);
      const raw = String(res.headers['set-cookie']);
      expect(raw).toMatch(new RegExp(`^${ADMIN_COOKIE}=[A-Za-z0-9_-]{43}; `));
      for (const attribute of ['HttpOnly', 'Secure', 'SameSite=Strict', 'Path=/']) expect(raw.split('; ')).toContain(attribute);
      expect(raw).not.toMatch(/Domain=/i);
      expect(res.headers['cache-control']).toBe('no-store');

      const me = await whoAmI(headers);
      expect(me.statusCode, me.body).toBe(200);
      expect(me.json()).toEqual({ operator: body.operator, csrfToken: body.csrfToken, expiresAt: expect.any(String), endsAt: body.endsAt });
      // Every guarded answer says how long the session has left (the back office's warning reads it).
      const expiresIn = Number(me.headers['x-session-expires-in']);
      const endsIn = Number(me.headers['x-session-ends-in']);
      expect(expiresIn).toBeGreaterThan(DEFAULT_ADMIN_SETTINGS.sessionSeconds - 60);
      expect(expiresIn).toBeLessThanOrEqual(DEFAULT_ADMIN_SETTINGS.sessionSeconds);
      expect(endsIn).toBeGreaterThan(DEFAULT_ADMIN_SETTINGS.sessionMaxSeconds - 60);
      expect(endsIn).toBeLessThanOrEqual(DEFAULT_ADMIN_SETTINGS.sessionMaxSeconds);
      const entries = await auditSince(mark);
      expect(entries.map((e) => [e.action, e.operator_id, e.actor_role])).toEqual([['session.login', operator.id, 'municipality']]);
    });

    it('the code is asked for every time, and is single use', async () => {
      const operator = await active();
      const { flow, code } = await codeFor(operator.email);
      expect((await codeStep(flow, code)).statusCode).toBe(200);
      expectError(await codeStep(flow, code), 400, 'CODE_INVALID');
      const next = await codeFor(operator.email); // a second login mails a fresh code
      expect(next.flow).not.toBe(flow);
      expect((await codeStep(next.flow, next.code)).statusCode).toBe(200);
    });

    it('one answer for a wrong password, an unknown address, an operator not set up and a disabled one; no mail, nothing audited', async () => {
      const operator = await active();
      const waiting = await invited();
      const gone = await active();
      await h.db.updateTable('operators').set({ status: 'disabled' }).where('id', '=', gone.id).execute();
      const mark = await auditMark();
      h.mailer.clear();
      const answers = [
        await passwordStep(operator.email, 'Wrong-Pass-1!'),
        await passwordStep(newEmail('nobody')),
        await passwordStep(waiting.email),
        await passwordStep(gone.email),
      ];
      const bodies = answers.map((res) => expectError(res, 401, 'LOGIN_FAILED'));
      expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);
      expect(answers.every((res) => res.headers['set-cookie'] === undefined)).toBe(true);
      expect(h.mailer.sent).toEqual([]);
      expect(await auditSince(mark)).toEqual([]);
    });

    it('bad input → VALIDATION with Japanese field messages', async () => {
      const res = await inject('POST', '/v1/admin/login', { email: 'not-an-email', password: '' });
      const body = expectError(res, 400, 'VALIDATION');
      expect(Object.keys(body.fields ?? {}).sort()).toEqual(['email', 'password']);
      const code = expectError(await inject('POST', '/v1/admin/login/code', { code: '12a' }), 400, 'VALIDATION');
      expect(Object.keys(code.fields ?? {}).sort()).toEqual(['code', 'flow']);
      expectJapaneseOnly(code);
    });

    it('a member\'s login code (another purpose) opens no back-office session', async () => {
      const member = await h.createMember(newEmail('member'));
      const sent = await h.verify(member.email, member.password);
      expect(sent.statusCode).toBe(200);
      const flow = String(sent.headers['x-code-flow']);
      expectError(await codeStep(flow, h.mailer.lastCode(member.email)), 400, 'CODE_INVALID');
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('attempt limits, as members have them, and no lockout by others', () => {
    it('wrong codes: the fifth kills the code (CODE_LOCKED), the right one then too; a new login works', async () => {
      const operator = await active();
      const { flow, code } = await codeFor(operator.email);
      const wrong = String((Number(code) + 1) % 100000).padStart(5, '0');
      for (let i = 1; i < testConfig.codeMaxAttempts; i++) expectError(await codeStep(flow, wrong), 400, 'CODE_INVALID');
      expectError(await codeStep(flow, wrong), 429, 'CODE_LOCKED');
      expectError(await codeStep(flow, code), 429, 'CODE_LOCKED');
      const fresh = await codeFor(operator.email);
      expect((await codeStep(fresh.flow, fresh.code)).statusCode).toBe(200);
    });

    it('wrong codes over all flows of an address: TOO_MANY_ATTEMPTS past the ceiling', async () => {
      const operator = await active();
      let refused: LightMyRequestResponse | undefined;
      for (let round = 0; round < 4 && !refused; round++) {
        const { flow, code } = await codeFor(operator.email);
        const wrong = String((Number(code) + 1) % 100000).padStart(5, '0');
        for (let i = 0; i < testConfig.codeMaxAttempts - 1; i++) {
          const res = await codeStep(flow, wrong);
          if (res.statusCode === 429) {
            refused = res;
            break;
          }
        }
      }
      expect(refused, 'the ceiling was never reached').toBeDefined();
      expectError(refused!, 429, 'TOO_MANY_ATTEMPTS');
    });

    it('wrong passwords hold the network that sent them; the operator\'s own network still logs in', async () => {
      const operator = await active();
      for (let i = 0; i < LIMITS.passwordFailures; i++) expectError(await passwordStep(operator.email, 'Wrong-Pass-1!', STRANGER), 401, 'LOGIN_FAILED');
      expectError(await passwordStep(operator.email, 'Wrong-Pass-1!', STRANGER), 429, 'TOO_MANY_ATTEMPTS');
      expectError(await passwordStep(operator.email, PASSWORD, STRANGER), 429, 'TOO_MANY_ATTEMPTS'); // held, even right
      expect(h.mailer.to(operator.email).filter((m) => m.template === 'operatorLoginCode')).toEqual([]);
      const mine = await login(operator.email);
      expect((await whoAmI(mine.headers)).statusCode).toBe(200);
    });

    it('R6: wrong passwords from many networks tell the operator once, and past the account-wide cap only networks the operator has logged in from are heard', async () => {
      const operator = await active();
      await login(operator.email); // from the office's network (127.0.0.0/24 here)
      h.mailer.clear();
      for (let i = 0; i < LIMITS.operatorPasswordCap; i++) expectError(await passwordStep(operator.email, 'Wrong-Pass-1!', `198.18.${i}.1`), 401, 'LOGIN_FAILED');
      // A network the operator never logged in from is refused now, even with the right password…
      expectError(await passwordStep(operator.email, PASSWORD, '198.18.250.1'), 429, 'TOO_MANY_ATTEMPTS');
      expect(h.mailer.to(operator.email).filter((m) => m.template === 'operatorLoginCode')).toEqual([]);
      // …and the office is never locked out.
      const mine = await login(operator.email);
      expect((await whoAmI(mine.headers)).statusCode).toBe(200);
      const told = h.mailer.to(operator.email).filter((m) => m.template === 'operatorLoginAttempted');
      expect(told).toHaveLength(1);
    });

    it('R11: an operator\'s requests count per operator, never per the office\'s IP: one clerk\'s busy hour holds neither a colleague nor the office\'s logins', async () => {
      const office = '192.0.2.50';
      const busy = await login((await active('admin')).email);
      const colleague = await login((await active('admin')).email);
      const change = (who: { headers: Record<string, string> }) => inject('POST', `/v1/admin/operators/${crypto.randomUUID()}/disable`, undefined, who.headers, office);
      for (let i = 0; i < LIMITS.operatorRequestsPerHour; i++) expectError(await change(busy), 404, 'NOT_FOUND');
      expectError(await change(busy), 429, 'TOO_MANY_ATTEMPTS');
      expectError(await change(colleague), 404, 'NOT_FOUND');
      // The office's IP is untouched: another operator logs in from it.
      const other = await active();
      const { flow, code } = await codeFor(other.email, office);
      expect((await codeStep(flow, code, office)).statusCode).toBe(200);
      // The IP's count holds those two login steps, not the 22 changes.
      const ip = await h.db.selectFrom('rate_limits').select('points').where('key', '=', `ms:ip:${office}`).executeTakeFirst();
      expect(Number(ip?.points)).toBe(2);
    });

    it('a stranger\'s code guesses (no flow, a made-up flow) cost the operator nothing: their code and ceiling stay whole', async () => {
      const operator = await active();
      const { flow, code } = await codeFor(operator.email);
      const madeUp = 'x'.repeat(43);
      for (let i = 0; i < LIMITS.codeFailures + 2; i++) {
        expectError(await codeStep(madeUp, String(10000 + i), STRANGER), 400, 'CODE_INVALID');
      }
      expectError(await inject('POST', '/v1/admin/login/code', { code, flow: '' }, {}, STRANGER), 400, 'CODE_INVALID');
      expectError(await inject('POST', '/v1/admin/login/code', { code, flow: 'x'.repeat(101) }, {}, STRANGER), 400, 'VALIDATION');
      expect((await codeStep(flow, code)).statusCode).toBe(200);
      // …and the code ceiling was not touched: four wrong tries on a new code are plain wrong codes.
      const next = await codeFor(operator.email);
      const wrong = String((Number(next.code) + 1) % 100000).padStart(5, '0');
      for (let i = 1; i < testConfig.codeMaxAttempts; i++) expectError(await codeStep(next.flow, wrong), 400, 'CODE_INVALID');
      expect((await codeStep(next.flow, next.code)).statusCode).toBe(200);
    });

    it('disabled between the password and the code: the code opens nothing', async () => {
      const operator = await active();
      const { flow, code } = await codeFor(operator.email);
      await h.db.updateTable('operators').set({ status: 'disabled' }).where('id', '=', operator.id).execute();
      expectError(await codeStep(flow, code), 400, 'CODE_INVALID');
      expect(await h.db.selectFrom('operator_sessions').select('token_hash').where('operator_id', '=', operator.id).execute()).toEqual([]);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('the session', () => {
    it('ends after 30 minutes idle (expires_at passed) and after 8 hours in all (ends_at passed)', async () => {
      const idle = await active();
      const a = await login(idle.email);
      await h.db.updateTable('operator_sessions').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('operator_id', '=', idle.id).execute();
      expectError(await whoAmI(a.headers), 401, 'ADMIN_UNAUTHENTICATED');

      const long = await active();
      const b = await login(long.email);
      await h.db.updateTable('operator_sessions').set({ ends_at: new Date(Date.now() - 1000).toISOString() }).where('operator_id', '=', long.id).execute();
      expectError(await whoAmI(b.headers), 401, 'ADMIN_UNAUTHENTICATED');
    });

    it('slides with the operator\'s requests, never past 8 hours after login (the clock moved)', async () => {
      const operator = await active();
      const { headers, body } = await login(operator.email);
      const start = Date.now();
      const endsAt = Date.parse(body.endsAt);
      vi.useFakeTimers({ toFake: ['Date'] });
      // Every 25 minutes a request: still in at 7 h 55, the end fixed at login does not move.
      for (let t = 25; t * 60_000 < DEFAULT_ADMIN_SETTINGS.sessionMaxSeconds * 1000; t += 25) {
        vi.setSystemTime(start + t * 60_000);
        const res = await whoAmI(headers);
        expect(res.statusCode, `${t} min: ${res.body}`).toBe(200);
        const me = res.json<{ expiresAt: string; endsAt: string }>();
        expect(me.endsAt).toBe(body.endsAt);
        expect(Date.parse(me.expiresAt)).toBeLessThanOrEqual(endsAt);
      }
      vi.setSystemTime(endsAt + 1000);
      expectError(await whoAmI(headers), 401, 'ADMIN_UNAUTHENTICATED');

      // Another login, then 31 minutes without a request.
      vi.useRealTimers();
      const again = await login(operator.email);
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + 31 * 60_000);
      expectError(await whoAmI(again.headers), 401, 'ADMIN_UNAUTHENTICATED');
    });

    it('a change without the CSRF token, or with a wrong one → 403 CSRF_INVALID and nothing changed', async () => {
      const operator = await active();
      const { headers } = await login(operator.email);
      const mark = await auditMark();
      const { [CSRF_HEADER]: _token, ...cookieOnly } = headers;
      expectError(await inject('POST', '/v1/admin/logout', undefined, cookieOnly), 403, 'CSRF_INVALID');
      expectError(await inject('POST', '/v1/admin/logout', undefined, { ...cookieOnly, [CSRF_HEADER]: 'x'.repeat(43) }), 403, 'CSRF_INVALID');
      expect((await whoAmI(headers)).statusCode).toBe(200);

      const email = newEmail('csrf');
      const { [CSRF_HEADER]: _adminToken, ...adminCookie } = admin.headers;
      expectError(await inject('POST', '/v1/admin/operators', { email, name: '追加 一郎', role: 'secretariat' }, adminCookie), 403, 'CSRF_INVALID');
      expectError(await inject('POST', `/v1/admin/operators/${operator.id}/disable`, undefined, { ...adminCookie, [CSRF_HEADER]: headers[CSRF_HEADER]! }), 403, 'CSRF_INVALID');
      expect(await h.db.selectFrom('operators').select('id').where('email', '=', email).execute()).toEqual([]);
      expect((await operatorRow(operator.id)).status).toBe('active');
      expect(h.mailer.to(email)).toEqual([]);
      expect(await auditSince(mark)).toEqual([]);
    });

    it('logout ends the session and clears the cookie; one audit entry', async () => {
      const operator = await active();
      const { headers } = await login(operator.email);
      const mark = await auditMark();
      const res = await inject('POST', '/v1/admin/logout', undefined, headers);
      expect(res.statusCode, res.body).toBe(204);
      const cleared = String(res.headers['set-cookie']);
      expect(cleared).toMatch(new RegExp(`^${ADMIN_COOKIE}=;`));
      expect(cleared).toMatch(/Expires=Thu, 01 Jan 1970|Max-Age=0/);
      for (const attribute of ['HttpOnly', 'Secure', 'SameSite=Strict', 'Path=/']) expect(cleared.split('; ')).toContain(attribute);
      expectError(await whoAmI(headers), 401, 'ADMIN_UNAUTHENTICATED');
      expectError(await inject('POST', '/v1/admin/logout', undefined, headers), 401, 'ADMIN_UNAUTHENTICATED');
      expect((await auditSince(mark)).map((e) => [e.action, e.operator_id])).toEqual([['session.logout', operator.id]]);
    });

    it('no cookie, an unknown one, or a member\'s bearer token on /v1/admin/ → 401 ADMIN_UNAUTHENTICATED', async () => {
      const member = await h.createMember(newEmail('member'));
      const { token } = await h.loginWithCode(member);
      expectError(await whoAmI({}), 401, 'ADMIN_UNAUTHENTICATED');
      expectError(await whoAmI({ cookie: `${ADMIN_COOKIE}=${'y'.repeat(43)}` }), 401, 'ADMIN_UNAUTHENTICATED');
      expectError(await whoAmI({ authorization: `Bearer ${token}` }), 401, 'ADMIN_UNAUTHENTICATED');
      expectError(await whoAmI({ cookie: `${ADMIN_COOKIE}=${token}` }), 401, 'ADMIN_UNAUTHENTICATED');
      expectError(await inject('GET', '/v1/admin/operators', undefined, { authorization: `Bearer ${token}` }), 401, 'ADMIN_UNAUTHENTICATED');
      expect((await h.info(token)).statusCode).toBe(200); // the member's token itself is fine
    });

    it('an operator\'s cookie (or its token as a bearer) on member routes → 401, no member data', async () => {
      const operator = await active();
      const { headers, token } = await login(operator.email);
      for (const url of ['/v1/user/info', '/v1/user/notification', '/v1/user/application']) {
        expectError(await inject('GET', url, undefined, headers), 401, 'UNAUTHENTICATED');
        expectError(await inject('GET', url, undefined, { authorization: `Bearer ${token}` }), 401, 'UNAUTHENTICATED');
      }
      expect((await whoAmI(headers)).statusCode).toBe(200);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('operators (admin only)', () => {
    it('secretariat and municipality are refused every operator route (403), nothing changed', async () => {
      const target = await active();
      for (const role of ['secretariat', 'municipality'] as const) {
        const other = await operatorSession(h.db, role);
        expectError(await inject('GET', '/v1/admin/operators', undefined, other.headers), 403, 'FORBIDDEN');
        expectError(await inject('POST', '/v1/admin/operators', { email: newEmail(), name: '追加 一郎', role: 'admin' }, other.headers), 403, 'FORBIDDEN');
        expectError(await inject('POST', `/v1/admin/operators/${target.id}/disable`, undefined, other.headers), 403, 'FORBIDDEN');
        expectError(await inject('POST', `/v1/admin/operators/${target.id}/setup-link`, undefined, other.headers), 403, 'FORBIDDEN');
        expect((await whoAmI(other.headers)).statusCode).toBe(200); // session.own: every role
      }
      expect((await operatorRow(target.id)).status).toBe('active');
    });

    it('GET lists every operator with role and status, never a password hash', async () => {
      const operator = await active('municipality');
      const res = await inject('GET', '/v1/admin/operators', undefined, admin.headers);
      expect(res.statusCode, res.body).toBe(200);
      const items = res.json<{ items: Array<Record<string, unknown>> }>().items;
      expect(items).toContainEqual({ id: operator.id, email: operator.email, name: operator.name, role: 'municipality', status: 'active', created_at: operator.created_at });
      expect(items.some((i) => i.id === admin.id)).toBe(true);
      expect(res.body).not.toContain('argon2');
    });

    it('POST adds an invited operator and mails the link: 201, one audit entry with the admin, the address and the role', async () => {
      const email = newEmail('added');
      const mark = await auditMark();
      const res = await inject('POST', '/v1/admin/operators', { email: `  ${email.toUpperCase()} `, name: ' 追加 一郎 ', role: 'secretariat' }, admin.headers);
      expect(res.statusCode, res.body).toBe(201);
      const { operator } = res.json<{ operator: { id: string; email: string; name: string; role: string; status: string } }>();
      expect(operator).toMatchObject({ email, name: '追加 一郎', role: 'secretariat', status: 'invited' });
      const key = mailedKey(email);
      const entries = await auditSince(mark);
      expect(entries.map((e) => [e.action, e.actor_type, e.operator_id, e.target, e.detail])).toEqual([
        ['operators.add', 'operator', admin.id, email, { name: '追加 一郎', role: 'secretariat' }],
      ]);
      expect(entries[0]!.actor_label).toBe(`管理 太郎 <${admin.email}>`);
      // The new operator sets a password and logs in.
      expect((await setUp(key)).statusCode).toBe(204);
      const session = await login(email);
      expect(session.body.operator).toMatchObject({ id: operator.id, role: 'secretariat' });
    });

    it('a taken address, a bad body, a relay that refuses the mail → refused, nothing saved, nothing audited', async () => {
      const existing = await active();
      const mark = await auditMark();
      h.mailer.clear();
      expectError(await inject('POST', '/v1/admin/operators', { email: existing.email, name: '重複 二郎', role: 'admin' }, admin.headers), 409, 'OPERATOR_EXISTS');
      expect(h.mailer.sent).toEqual([]);
      const bad = expectError(await inject('POST', '/v1/admin/operators', { email: 'x@', name: '', role: 'root' }, admin.headers), 400, 'VALIDATION');
      expect(Object.keys(bad.fields ?? {}).sort()).toEqual(['email', 'name', 'role']);

      const email = newEmail('relay');
      h.mailer.failing = true;
      const failed = expectError(await inject('POST', '/v1/admin/operators', { email, name: '送信 三郎', role: 'secretariat' }, admin.headers), 502, 'SETUP_MAIL_FAILED');
      expect(failed.error).toContain('何も保存していません');
      expect(await h.db.selectFrom('operators').select('id').where('email', '=', email).execute()).toEqual([]);
      expect(await auditSince(mark)).toEqual([]);
    });

    it('disable ends every session of the operator and voids their link; one audit entry; then login is refused', async () => {
      const operator = await active();
      const one = await login(operator.email);
      const two = await login(operator.email);
      const pending = await inject('POST', `/v1/admin/operators/${operator.id}/setup-link`, undefined, admin.headers);
      expect(pending.statusCode).toBe(204);
      const key = mailedKey(operator.email);
      const mark = await auditMark();
      const res = await inject('POST', `/v1/admin/operators/${operator.id}/disable`, undefined, admin.headers);
      expect(res.statusCode, res.body).toBe(204);
      expectError(await whoAmI(one.headers), 401, 'ADMIN_UNAUTHENTICATED');
      expectError(await whoAmI(two.headers), 401, 'ADMIN_UNAUTHENTICATED');
      const sessions = await h.db.selectFrom('operator_sessions').select('revoked_at').where('operator_id', '=', operator.id).execute();
      expect(sessions.length).toBe(2);
      expect(sessions.every((s) => s.revoked_at !== null)).toBe(true);
      expectError(await setUp(key), 400, 'LINK_INVALID');
      expectError(await passwordStep(operator.email), 401, 'LOGIN_FAILED');
      expect((await auditSince(mark)).map((e) => [e.action, e.operator_id, e.target])).toEqual([['operators.disable', admin.id, operator.email]]);

      const twice = await auditMark();
      expectError(await inject('POST', `/v1/admin/operators/${operator.id}/disable`, undefined, admin.headers), 409, 'OPERATOR_DISABLED');
      expectError(await inject('POST', `/v1/admin/operators/${admin.id}/disable`, undefined, admin.headers), 409, 'OPERATOR_SELF');
      expectError(await inject('POST', '/v1/admin/operators/00000000-0000-0000-0000-000000000000/disable', undefined, admin.headers), 404, 'NOT_FOUND');
      expect((await whoAmI(admin.headers)).statusCode).toBe(200);
      expect(await auditSince(twice)).toEqual([]);
    });

    it('a new link for a disabled operator takes them back once they set a password; one audit entry per step', async () => {
      const operator = await active();
      await inject('POST', `/v1/admin/operators/${operator.id}/disable`, undefined, admin.headers);
      const mark = await auditMark();
      const res = await inject('POST', `/v1/admin/operators/${operator.id}/setup-link`, undefined, admin.headers);
      expect(res.statusCode, res.body).toBe(204);
      expect((await operatorRow(operator.id)).status).toBe('disabled');
      expectError(await passwordStep(operator.email), 401, 'LOGIN_FAILED');
      expect((await setUp(mailedKey(operator.email), 'Back-Again-5!')).statusCode).toBe(204);
      expect((await operatorRow(operator.id)).status).toBe('active');
      expect((await auditSince(mark)).map((e) => e.action).sort()).toEqual(['operators.link', 'operators.setup']);
    });

    it('a relay that refuses the new link\'s mail → SETUP_MAIL_FAILED; the earlier link still works', async () => {
      const operator = await invited();
      h.mailer.failing = true;
      const mark = await auditMark();
      const body: ErrorBody = expectError(await inject('POST', `/v1/admin/operators/${operator.id}/setup-link`, undefined, admin.headers), 502, 'SETUP_MAIL_FAILED');
      expect(body.error).toContain('何も保存していません');
      expect(await auditSince(mark)).toEqual([]);
      h.mailer.failing = false;
      expect((await setUp(operator.key)).statusCode).toBe(204);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe("the operator's own password reset (「パスワードをお忘れの方」)", () => {
    const ask = (email: string, remoteAddress?: string) => inject('POST', '/v1/admin/password-reset', { email }, {}, remoteAddress);
    const check = (key: string) => inject('GET', `/v1/admin/password-reset/link?key=${encodeURIComponent(key)}`);
    const reset = (key: string, password = 'Wasure-Ta-2026!', confirm = password) => inject('POST', '/v1/admin/password-reset/link', { key, password, password_confirm: confirm });

    /** The key of the latest reset link mailed to `email`. */
    function resetKey(email: string): string {
      const mail = h.mailer.to(email).filter((m) => m.template === 'operatorPasswordReset').at(-1);
      if (!mail) throw new Error(`No reset mail to ${email}`);
      const url = new URL(String(mail.values.url));
      expect(`${url.origin}${url.pathname}`).toBe(`${PUBLIC_URL}/admin/password-reset`);
      expect(mail.values.lifetime).toBe('1時間');
      return url.searchParams.get('key')!;
    }

    it('answers the same for an operator and any other address (the others get a relay round trip and no mail); the link sets a new password once, ends every session, is audited and the old password stops', async () => {
      const operator = await active();
      const invitedOne = await invited();
      const disabled = await active();
      await inject('POST', `/v1/admin/operators/${disabled.id}/disable`, undefined, admin.headers);
      const session = await login(operator.email);
      h.mailer.clear();
      const touch = vi.spyOn(h.mailer, 'touch');
      const mark = await auditMark();

      const answers = [];
      for (const email of [operator.email.toUpperCase(), newEmail('nobody'), invitedOne.email, disabled.email]) {
        const res = await ask(email);
        answers.push([res.statusCode, res.body]);
      }
      expect(new Set(answers.map((a) => JSON.stringify(a)))).toEqual(new Set([JSON.stringify([202, '{}'])]));
      expect(h.mailer.sent.map((m) => [m.to, m.template])).toEqual([[operator.email, 'operatorPasswordReset']]);
      expect(touch).toHaveBeenCalledTimes(3);
      touch.mockRestore();
      expect(await auditSince(mark)).toEqual([]);

      const key = resetKey(operator.email);
      // Each kind opens only its own page: the reset key is no set-up key.
      expectError(await inject('GET', `/v1/admin/setup?key=${key}`), 400, 'LINK_INVALID');
      expectError(await setUp(key), 400, 'LINK_INVALID');
      const opened = await check(key);
      expect(opened.statusCode, opened.body).toBe(200);
      expect(opened.json()).toEqual({ email: operator.email, name: operator.name });
      expect(opened.headers['cache-control']).toBe('no-store');
      // The set-up form's rules.
      expect(expectError(await reset(key, 'short'), 400, 'VALIDATION').fields?.password).toContain(TOO_SHORT);
      expectError(await reset(key, 'Wasure-Ta-2026!', 'Wasure-Ta-2027!'), 400, 'VALIDATION', { password_confirm: [NOT_SAME] });

      expect((await reset(key)).statusCode).toBe(204);
      expectError(await reset(key, 'Mata-Wasure-2026!'), 400, 'LINK_INVALID');
      expectError(await check(key), 400, 'LINK_INVALID');
      expect((await whoAmI(session.headers)).statusCode).toBe(401);
      expect(await auditSince(mark)).toEqual([expect.objectContaining({ action: 'operators.password_reset', operator_id: operator.id, target: operator.email, detail: { previous: 'active' } })]);
      expectError(await passwordStep(operator.email), 401, 'LOGIN_FAILED');
      expect((await passwordStep(operator.email, 'Wasure-Ta-2026!')).statusCode).toBe(200);
    });

    it('at most CODES_PER_HOUR reset mails an hour to one address from any number of networks, refused alike for an operator and any other address', async () => {
      const operator = await active();
      const nobody = newEmail('nobody-many');
      for (const email of [operator.email, nobody]) {
        h.mailer.clear();
        for (let i = 0; i < testConfig.codesPerHour; i++) expect((await ask(email, `198.51.${i}.7`)).statusCode).toBe(202);
        expectError(await ask(email.toUpperCase(), '203.0.113.9'), 429, 'CODE_RATE_LIMITED');
        expect(h.mailer.sent.filter((m) => m.template === 'operatorPasswordReset')).toHaveLength(email === operator.email ? testConfig.codesPerHour : 0);
      }
    });

    it('a newer link voids the earlier; a link expires after an hour; disabling voids it', async () => {
      const operator = await active();
      await ask(operator.email);
      const first = resetKey(operator.email);
      await ask(operator.email);
      const second = resetKey(operator.email);
      expectError(await check(first), 400, 'LINK_INVALID');
      expect((await check(second)).statusCode).toBe(200);

      const issued = Date.now();
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(issued + 3600 * 1000 - 60_000);
      expect((await check(second)).statusCode).toBe(200);
      vi.setSystemTime(issued + 3600 * 1000 + 1000);
      expectError(await check(second), 400, 'LINK_INVALID');
      expectError(await reset(second), 400, 'LINK_INVALID');
      vi.useRealTimers();

      await ask(operator.email);
      const third = resetKey(operator.email);
      expect((await inject('POST', `/v1/admin/operators/${operator.id}/disable`, undefined, admin.headers)).statusCode).toBe(204);
      expectError(await reset(third), 400, 'LINK_INVALID');
      expect((await operatorRow(operator.id)).status).toBe('disabled');
    });

    it('a relay that is down answers MAIL_FAILED whoever asks, and nothing is stored', async () => {
      const operator = await active();
      const links = (await linkRows(operator.id)).length;
      h.mailer.failing = true;
      expectError(await ask(operator.email), 502, 'MAIL_FAILED');
      expectError(await ask(newEmail('nobody')), 502, 'MAIL_FAILED');
      expect(await linkRows(operator.id)).toHaveLength(links);
    });
  });
});

describe('ADMIN_SESSION_SECONDS and ADMIN_SESSION_MAX_SECONDS', () => {
  it('default to 30 minutes idle and 8 hours in all, as the back office\'s settings', () => {
    expect(adminSettingsOf(loadConfig({}))).toEqual({ sessionSeconds: 1800, sessionMaxSeconds: 8 * 3600 });
    expect(adminSettingsOf(loadConfig({}))).toEqual(DEFAULT_ADMIN_SETTINGS);
  });

  it('are read from the environment, and an absolute end shorter than the idle one is refused at start-up', () => {
    expect(adminSettingsOf(loadConfig({ ADMIN_SESSION_SECONDS: '600', ADMIN_SESSION_MAX_SECONDS: '3600' }))).toEqual({ sessionSeconds: 600, sessionMaxSeconds: 3600 });
    expect(() => loadConfig({ ADMIN_SESSION_SECONDS: '3600', ADMIN_SESSION_MAX_SECONDS: '600' })).toThrow(/ADMIN_SESSION_MAX_SECONDS/);
    expect(() => loadConfig({ ADMIN_SESSION_SECONDS: 'soon' })).toThrow(/ADMIN_SESSION_SECONDS/);
  });
});
