// Password reminder. POST /v1/user/verify {flow: 'password_change', email, birthday, phone}
// (client key) checks the identity and mails a 5-digit code; an unknown address and a wrong
// birthday or phone get the same answer (400 IDENTITY_FAILED) after comparable work, and after
// 10 failures for one address in an hour every try for it is refused (429 TOO_MANY_ATTEMPTS).
// POST /v1/user/set-password {email, code, new_password} (client key) spends the code, sets the
// password, ends every session and trusted device of the member and mails passwordChanged.
// Codes follow the login rules: replaced by a newer one, single-use, expiring, locked after
// codeMaxAttempts wrong tries, at most codesPerHour an hour.
import { performance } from 'node:perf_hooks';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { renderMail } from '../../src/server/mail/mailer';
import {
  CLIENT_KEY,
  DATABASES,
  Harness,
  SlowReads,
  TRUSTED_COOKIE,
  expectError,
  setUpOrFail,
  testConfig,
  validProfileUpdate,
  type ErrorBody,
  type Member,
  type ResetIdentity,
  testMailLinks,
} from '../support/api-harness';
import { passwordMessages, rulesOf } from '../support/schema-messages';

// schemas/shared/fields.json, schemas/api/user-verify-password-change.json,
// schemas/api/user-set-password.json, schemas/forms/reset-password.schema.json.
// Field messages as the schemas state them (the reset forms), so a JSON edit moves these with it.
const identity = rulesOf('reset-identity');
const reset = rulesOf('reset-password');
const BIRTHDAY_FORMAT = identity.message('birthday', 'format');
const BIRTHDAY_REQUIRED = identity.required('birthday');
const PHONE_DIGITS = identity.message('phone', 'pattern');
/** Registration's phone limit, which the reset follows (docs/decisions/018). */
const PHONE_MAX = identity.limit('phone', 'maxLength');
const PHONE_REQUIRED = identity.required('phone');
const EMAIL_REQUIRED = identity.required('email');
const EMAIL_FORMAT = identity.message('email', 'pattern');
const CODE_REQUIRED = reset.required('code');
const CODE_FORMAT = reset.message('code', 'pattern');
const NEW_PASSWORD_REQUIRED = reset.required('new_password');
const PW_NOT_EMAIL = reset.message('new_password', 'differentFrom');
const PW = passwordMessages();
const PW_MIN = PW.min;
const PW_REPEAT = PW.repeat;
const PW_SYMBOL = PW.symbol;
const PW_UPPER = PW.upper;
const PW_CHARSET = PW.charset;

const FAILURES_PER_HOUR = 10;
const BIRTHDAY = '1985-12-24';
const PHONE = '09011112222';
const OLD_PASSWORD = 'Old-Pass-2024!';
const NEW_PASSWORD = 'New-Pass-2025?';

/** A 5-digit code that is certainly not `code`. */
const otherCode = (code: string, step = 1) => String((Number(code) + step) % 100_000).padStart(5, '0');
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

describe.each(DATABASES)('password reset ($name)', ({ kind }) => {
  let h: Harness;

  setUpOrFail(async () => {
    h = await Harness.start(kind);
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(() => {
    h.mailer.failing = false;
    h.mailer.clear();
  });

  /** A fresh active member with a known birthday and phone, and its identity. */
  async function member(email = h.uniqueEmail('reset')): Promise<Member & { identity: ResetIdentity }> {
    const m = await h.createMember(email, OLD_PASSWORD, { birthday: BIRTHDAY, phone: PHONE, last_name_kanji: '中村', first_name_kanji: '由美' });
    return { ...m, identity: { email, birthday: BIRTHDAY, phone: PHONE } };
  }

  async function codesFor(email: string) {
    return h.db.selectFrom('email_codes').selectAll().where('email', '=', email).execute();
  }

  async function failuresFor(email: string): Promise<number> {
    return (await h.db.selectFrom('failed_attempts').select('id').where('subject', '=', email).execute()).length;
  }

  async function passwordHash(id: string): Promise<string> {
    return (await h.db.selectFrom('users').select('password_hash').where('id', '=', id).executeTakeFirstOrThrow()).password_hash;
  }

  // ===========================================================================================
  describe('POST /v1/user/verify {flow: "password_change"}', () => {
    it('the right identity → 200 {message: "sent"} and exactly one passwordResetCode mail with a 5-digit code', async () => {
      const m = await member();
      const res = await h.requestPasswordReset(m.identity);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ message: 'sent' });
      expect(res.body).not.toMatch(/\b\d{5}\b/); // the code travels only by mail
      expect(h.mailer.sent).toHaveLength(1);
      const [mail] = h.mailer.sent;
      expect(mail.to).toBe(m.email);
      expect(mail.template).toBe('passwordResetCode');
      expect(String(mail.values.code)).toMatch(/^\d{5}$/);
      expect(mail.values.minutes).toBe(testConfig.codeTtlSeconds / 60);
      expect(renderMail('passwordResetCode', mail.values, testMailLinks).text).toContain(`    ${mail.values.code}\n`);

      const rows = await codesFor(m.email);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ purpose: 'password_change', user_id: m.id, consumed_at: null });
      expect(rows[0].code_hash).not.toContain(String(mail.values.code));
      expect(await failuresFor(m.email)).toBe(0);
      // Nothing about the member changes yet.
      expect((await h.verify(m.email, OLD_PASSWORD)).statusCode).toBe(200);
    });

    it('unknown address, wrong birthday and wrong phone → the same 400 IDENTITY_FAILED, byte for byte, and no mail', async () => {
      const m = await member();
      const unknown = await h.requestPasswordReset({ ...m.identity, email: h.uniqueEmail('nobody') });
      const wrongBirthday = await h.requestPasswordReset({ ...m.identity, birthday: '1985-12-25' });
      const wrongPhone = await h.requestPasswordReset({ ...m.identity, phone: '09011112223' });
      const bothWrong = await h.requestPasswordReset({ ...m.identity, birthday: '1970-01-01', phone: '0312345678' });
      for (const res of [unknown, wrongBirthday, wrongPhone, bothWrong]) expectError(res, 400, 'IDENTITY_FAILED');
      expect(unknown.json<ErrorBody>().fields).toBeUndefined();
      for (const res of [wrongBirthday, wrongPhone, bothWrong]) {
        expect(res.statusCode).toBe(unknown.statusCode);
        expect(res.body).toBe(unknown.body);
        expect(res.headers['content-type']).toBe(unknown.headers['content-type']);
        expect(res.headers['content-length']).toBe(unknown.headers['content-length']);
        expect(res.headers['set-cookie']).toBeUndefined();
      }
      expect(h.mailer.sent).toEqual([]);
      expect(await codesFor(m.email)).toEqual([]);
      expect(await failuresFor(m.email)).toBe(3);
    });

    it('unknown-address and wrong-birthday answers take comparable time (medians of 10)', async () => {
      const m = await member();
      const time = async (identity: ResetIdentity) => {
        // Only the failure under measurement may count against the address.
        await h.db.deleteFrom('failed_attempts').where('subject', '=', identity.email).execute();
        const started = performance.now();
        const res = await h.requestPasswordReset(identity);
        const took = performance.now() - started;
        expectError(res, 400, 'IDENTITY_FAILED');
        return took;
      };
      const unknownIdentity = () => ({ ...m.identity, email: h.uniqueEmail('ghost') });
      const wrongBirthday = { ...m.identity, birthday: '1985-12-25' };
      // Warm up both paths, then alternate so that drift in the machine's load hits both alike.
      for (let i = 0; i < 3; i += 1) {
        await time(unknownIdentity());
        await time(wrongBirthday);
      }
      const unknown: number[] = [];
      const wrong: number[] = [];
      for (let i = 0; i < 10; i += 1) {
        unknown.push(await time(unknownIdentity()));
        wrong.push(await time(wrongBirthday));
      }
      const [a, b] = [median(unknown), median(wrong)];
      const detail = `unknown ${a.toFixed(2)} ms, wrong birthday ${b.toFixed(2)} ms`;
      // Generous: a password hash (tens of milliseconds) run on one path only would break it.
      expect(Math.max(a, b), detail).toBeLessThanOrEqual(3 * Math.min(a, b) + 25);
      expect(h.mailer.sent).toEqual([]);
    });

    it('a withdrawn member\'s identity → 400 IDENTITY_FAILED, no mail', async () => {
      const m = await member();
      await h.db.updateTable('users').set({ status: 'withdrawn', withdrawn_at: new Date().toISOString() }).where('id', '=', m.id).execute();
      const unknown = await h.requestPasswordReset({ ...m.identity, email: h.uniqueEmail('nobody') });
      const res = await h.requestPasswordReset(m.identity);
      expectError(res, 400, 'IDENTITY_FAILED');
      expect(res.body).toBe(unknown.body);
      expect(h.mailer.sent).toEqual([]);
      expect(await codesFor(m.email)).toEqual([]);
    });

    it('a withdrawn account and a new member on the same address: only the new member\'s identity passes', async () => {
      const email = h.uniqueEmail('reused');
      await h.createMember(email, 'Former-Pass-1!', { status: 'withdrawn', withdrawn_at: new Date().toISOString(), birthday: '1970-05-05', phone: '0299998888' });
      const current = await member(email);
      expectError(await h.requestPasswordReset({ email, birthday: '1970-05-05', phone: '0299998888' }), 400, 'IDENTITY_FAILED');
      const code = await h.requestResetCode(current.identity);
      expect((await codesFor(email))[0].user_id).toBe(current.id);
      expect((await h.setPassword(email, code, NEW_PASSWORD)).statusCode).toBe(200);
      expect((await h.verify(email, NEW_PASSWORD)).statusCode).toBe(200);
    });

    it('a member registered through the site (hyphenated phone) and after a profile update: the identity in digits passes', async () => {
      const registered = await h.registerMember(h.uniqueEmail('registered'), { birthday: '1988-07-15', phone: '090-1234-5678' });
      h.mailer.clear();
      const identity = { email: registered.email, birthday: '1988-07-15', phone: '09012345678' };
      expect((await h.requestPasswordReset(identity)).statusCode).toBe(200);
      const updated = await h.updateInfo(registered.token, validProfileUpdate(registered.email, '1988-07-15', { phone: '011-123-4567' }));
      expect(updated.statusCode, updated.body).toBe(200);
      expectError(await h.requestPasswordReset(identity), 400, 'IDENTITY_FAILED');
      expect((await h.requestPasswordReset({ ...identity, phone: '0111234567' })).statusCode).toBe(200);
      expect(h.mailer.to(registered.email).map((mail) => mail.template)).toEqual(['passwordResetCode', 'passwordResetCode']);
    });

    it('the phone compares as one number: +81 90-…, 090-… and full-width digits match the stored one, as does a number stored in another form', async () => {
      const m = await member();
      // PHONE is 09011112222, stored as registration stores it (digits only).
      for (const phone of ['+81 90-1111-2222', '\uFF0B81 (0)90 1111 2222', '090-1111-2222', '\uFF10\uFF19\uFF10\uFF11\uFF11\uFF11\uFF11\uFF12\uFF12\uFF12\uFF12']) {
        const res = await h.requestPasswordReset({ ...m.identity, phone });
        expect(res.statusCode, `${phone}: ${res.body}`).toBe(200);
      }
      expectError(await h.requestPasswordReset({ ...m.identity, phone: '+81 90-1111-2223' }), 400, 'IDENTITY_FAILED');
      expectError(await h.requestPasswordReset({ ...m.identity, phone: '+1 901-111-2222' }), 400, 'IDENTITY_FAILED');
      // Numbers stored before hyphens were removed, or imported in their international form.
      for (const stored of ['03-5555-6666', '+81 3-5555-6666']) {
        const other = await h.createMember(h.uniqueEmail('stored-phone'), OLD_PASSWORD, { birthday: BIRTHDAY, phone: stored });
        const res = await h.requestPasswordReset({ email: other.email, birthday: BIRTHDAY, phone: '0355556666' });
        expect(res.statusCode, `${stored}: ${res.body}`).toBe(200);
      }
    });

    it(`${FAILURES_PER_HOUR} failures for one address in an hour → the next try, even with the right identity, → 429 TOO_MANY_ATTEMPTS`, async () => {
      const m = await member();
      for (let i = 0; i < FAILURES_PER_HOUR; i += 1) {
        const wrong = i % 2 ? { ...m.identity, birthday: `1985-12-${String(i + 1).padStart(2, '0')}` } : { ...m.identity, phone: `0901111${String(i).padStart(4, '0')}` };
        expectError(await h.requestPasswordReset(wrong), 400, 'IDENTITY_FAILED');
      }
      expectError(await h.requestPasswordReset(m.identity), 429, 'TOO_MANY_ATTEMPTS');
      expectError(await h.requestPasswordReset({ ...m.identity, phone: '0000000000' }), 429, 'TOO_MANY_ATTEMPTS');
      expect(h.mailer.sent).toEqual([]);
      expect(await codesFor(m.email)).toEqual([]);

      // Other addresses are not affected.
      const other = await member();
      expect((await h.requestPasswordReset(other.identity)).statusCode).toBe(200);
    });

    it(`${FAILURES_PER_HOUR} failures for an unknown address → the next → 429 TOO_MANY_ATTEMPTS`, async () => {
      const email = h.uniqueEmail('probe');
      const identity = { email, birthday: BIRTHDAY, phone: PHONE };
      for (let i = 0; i < FAILURES_PER_HOUR; i += 1) expectError(await h.requestPasswordReset(identity), 400, 'IDENTITY_FAILED');
      expectError(await h.requestPasswordReset(identity), 429, 'TOO_MANY_ATTEMPTS');
      // Even once a member holds the address.
      await h.createMember(email, OLD_PASSWORD, { birthday: BIRTHDAY, phone: PHONE });
      expectError(await h.requestPasswordReset(identity), 429, 'TOO_MANY_ATTEMPTS');
      expect(h.mailer.sent).toEqual([]);
    });

    it(`${FAILURES_PER_HOUR - 1} failures do not block the right identity`, async () => {
      const m = await member();
      for (let i = 0; i < FAILURES_PER_HOUR - 1; i += 1) expectError(await h.requestPasswordReset({ ...m.identity, birthday: '2000-01-01' }), 400, 'IDENTITY_FAILED');
      expect((await h.requestPasswordReset(m.identity)).statusCode).toBe(200);
      expect(h.mailer.to(m.email).map((mail) => mail.template)).toEqual(['passwordResetCode']);
    });

    it('failures older than an hour do not count', async () => {
      const m = await member();
      for (let i = 0; i < FAILURES_PER_HOUR; i += 1) expectError(await h.requestPasswordReset({ ...m.identity, birthday: '2000-01-01' }), 400, 'IDENTITY_FAILED');
      expectError(await h.requestPasswordReset(m.identity), 429, 'TOO_MANY_ATTEMPTS');
      await h.db
        .updateTable('failed_attempts')
        .set({ created_at: new Date(Date.now() - 3600_000 - 60_000).toISOString() })
        .where('subject', '=', m.email)
        .execute();
      expect((await h.requestPasswordReset(m.identity)).statusCode).toBe(200);
    });

    it.each<[string, Partial<ResetIdentity>, Record<string, string[]>]>([
      ['birthday 1990-02-30 (no such day)', { birthday: '1990-02-30' }, { birthday: [BIRTHDAY_FORMAT] }],
      ['birthday 1990-13-01', { birthday: '1990-13-01' }, { birthday: [BIRTHDAY_FORMAT] }],
      ['birthday 1990/13/01 (normalised, still no such month)', { birthday: '1990/13/01' }, { birthday: [BIRTHDAY_FORMAT] }],
      ['birthday 1990.01.01', { birthday: '1990.01.01' }, { birthday: [BIRTHDAY_FORMAT] }],
      [`phone of ${PHONE_MAX + 1} digits`, { phone: '1'.repeat(PHONE_MAX + 1) }, { phone: [PHONE_DIGITS] }],
      // Its normaliser keeps the digits: none are left, so it is not given (as the form shows it once left).
      ['phone of letters only', { phone: 'abcdefgh' }, { phone: [PHONE_REQUIRED] }],
      ['email not an address', { email: 'not-an-email' }, { email: [EMAIL_FORMAT] }],
    ])('%s → 400 VALIDATION with the field message; not counted as a failure, no mail', async (_label, change, fields) => {
      const m = await member();
      expectError(await h.requestPasswordReset({ ...m.identity, ...change }), 400, 'VALIDATION', fields);
      expect(await failuresFor(m.email)).toBe(0);
      expect(h.mailer.sent).toEqual([]);
    });

    // The fields' x-normalise runs on the server as in the form: a birthday as members type it
    // becomes YYYY-MM-DD, a phone keeps its digits.
    it.each<[string, Partial<ResetIdentity>]>([
      ['birthday 1985/12/24', { birthday: '1985/12/24' }],
      ['birthday 19851224', { birthday: '19851224' }],
      ['birthday 1985年12月24日', { birthday: '1985年12月24日' }],
      ['birthday in full-width digits', { birthday: '１９８５／１２／２４' }],
      ['phone with hyphens', { phone: '090-1111-2222' }],
      ['phone with +81', { phone: '+81 90-1111-2222' }],
      ['phone in full-width digits', { phone: '０９０１１１１２２２２' }],
    ])('%s is normalised as the form does and matches the member', async (_label, change) => {
      const m = await member();
      expect((await h.requestPasswordReset({ ...m.identity, ...change })).statusCode).toBe(200);
    });

    it(`phone 1234567 (7 digits) → 400 VALIDATION with "${PHONE_DIGITS}"`, async () => {
      const m = await member();
      const body = expectError(await h.requestPasswordReset({ ...m.identity, phone: '1234567' }), 400, 'VALIDATION');
      expect(Object.keys(body.fields ?? {})).toEqual(['phone']);
      expect(body.fields?.phone).toContain(PHONE_DIGITS);
      // Also allowed: the "at least 8 characters" rule's own message (section 5 gives it one).
      for (const message of body.fields?.phone ?? []) expect([PHONE_DIGITS, PHONE_REQUIRED]).toContain(message);
      expect(await failuresFor(m.email)).toBe(0);
      expect(h.mailer.sent).toEqual([]);
    });

    it(`phones of 8, 11 and ${PHONE_MAX} digits pass validation (and are then checked against the member)`, async () => {
      const m = await member();
      expectError(await h.requestPasswordReset({ ...m.identity, phone: '12345678' }), 400, 'IDENTITY_FAILED');
      expectError(await h.requestPasswordReset({ ...m.identity, phone: '0'.repeat(PHONE_MAX) }), 400, 'IDENTITY_FAILED');
      expect((await h.requestPasswordReset({ ...m.identity, phone: '09011112222' })).statusCode).toBe(200);
      for (const phone of ['12345678', `0${'1'.repeat(PHONE_MAX - 1)}`]) {
        const other = await h.createMember(h.uniqueEmail('digits'), OLD_PASSWORD, { birthday: BIRTHDAY, phone });
        expect((await h.requestPasswordReset({ email: other.email, birthday: BIRTHDAY, phone })).statusCode).toBe(200);
      }
    });

    it('missing fields → 400 VALIDATION with each required message', async () => {
      expectError(await h.post('/v1/user/verify', { flow: 'password_change' }), 400, 'VALIDATION', {
        email: [EMAIL_REQUIRED],
        birthday: [BIRTHDAY_REQUIRED],
        phone: [PHONE_REQUIRED],
      });
      expect(h.mailer.sent).toEqual([]);
    });

    it('without the client key → 401 CLIENT_KEY_INVALID, no mail, not counted', async () => {
      const m = await member();
      expectError(await h.requestPasswordReset(m.identity, { 'x-client-key': undefined }), 401, 'CLIENT_KEY_INVALID');
      expectError(await h.requestPasswordReset({ ...m.identity, birthday: '2000-01-01' }, { 'x-client-key': `${CLIENT_KEY}x` }), 401, 'CLIENT_KEY_INVALID');
      expect(h.mailer.sent).toEqual([]);
      expect(await codesFor(m.email)).toEqual([]);
      expect(await failuresFor(m.email)).toBe(0);
    });

    it('a failing mail relay → 502 MAIL_FAILED', async () => {
      const m = await member();
      h.mailer.failing = true;
      expectError(await h.requestPasswordReset(m.identity), 502, 'MAIL_FAILED');
      expect(h.mailer.sent).toEqual([]);
    });

    // -----------------------------------------------------------------------------------------
    describe('code limits (as login)', () => {
      it('a newer code replaces the older one: the old → CODE_INVALID, the new one works', async () => {
        const m = await member();
        const oldCode = await h.requestResetCode(m.identity);
        let newCode = oldCode;
        while (newCode === oldCode) newCode = await h.requestResetCode(m.identity);
        expectError(await h.setPassword(m.email, oldCode, NEW_PASSWORD), 400, 'CODE_INVALID');
        expect((await h.setPassword(m.email, newCode, NEW_PASSWORD)).statusCode).toBe(200);
        expect((await h.verify(m.email, NEW_PASSWORD)).statusCode).toBe(200);
      });

      it(`${testConfig.codeMaxAttempts - 1} wrong codes → 400 CODE_INVALID; the ${testConfig.codeMaxAttempts}th → 429 CODE_LOCKED; then the right code → 429`, async () => {
        const m = await member();
        const code = await h.requestResetCode(m.identity);
        const before = await passwordHash(m.id);
        for (let i = 1; i < testConfig.codeMaxAttempts; i += 1) expectError(await h.setPassword(m.email, otherCode(code, i), NEW_PASSWORD), 400, 'CODE_INVALID');
        expectError(await h.setPassword(m.email, otherCode(code, testConfig.codeMaxAttempts), NEW_PASSWORD), 429, 'CODE_LOCKED');
        expectError(await h.setPassword(m.email, code, NEW_PASSWORD), 429, 'CODE_LOCKED');
        expect(await passwordHash(m.id)).toBe(before);
        expectError(await h.verify(m.email, NEW_PASSWORD), 401, 'LOGIN_FAILED');
        expect(h.mailer.to(m.email).filter((mail) => mail.template === 'passwordChanged')).toEqual([]);
      });

      it('a right code after some wrong ones (below the limit) still works', async () => {
        const m = await member();
        const code = await h.requestResetCode(m.identity);
        for (let i = 1; i < testConfig.codeMaxAttempts; i += 1) expectError(await h.setPassword(m.email, otherCode(code, i), NEW_PASSWORD), 400, 'CODE_INVALID');
        expect((await h.setPassword(m.email, code, NEW_PASSWORD)).statusCode).toBe(200);
      });

      it('an expired code → 400 CODE_INVALID, the password unchanged', async () => {
        const m = await member();
        const code = await h.requestResetCode(m.identity);
        await h.db
          .updateTable('email_codes')
          .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
          .where('email', '=', m.email)
          .where('purpose', '=', 'password_change')
          .execute();
        const before = await passwordHash(m.id);
        expectError(await h.setPassword(m.email, code, NEW_PASSWORD), 400, 'CODE_INVALID');
        expect(await passwordHash(m.id)).toBe(before);
      });

      it('a code expires codeTtlSeconds after it was sent', async () => {
        const m = await member();
        await h.requestResetCode(m.identity);
        const [row] = await codesFor(m.email);
        expect(Math.abs(Date.parse(row.expires_at) - Date.parse(row.created_at) - testConfig.codeTtlSeconds * 1000)).toBeLessThan(1000);
      });

      it(`more than codesPerHour (${testConfig.codesPerHour}) codes for one address → 429 CODE_RATE_LIMITED`, async () => {
        const m = await member();
        for (let i = 0; i < testConfig.codesPerHour; i += 1) expect((await h.requestPasswordReset(m.identity)).statusCode).toBe(200);
        expectError(await h.requestPasswordReset(m.identity), 429, 'CODE_RATE_LIMITED');
        expect(h.mailer.to(m.email)).toHaveLength(testConfig.codesPerHour);
        // The right identity is no failure: the identity limit is not what answered.
        expect(await failuresFor(m.email)).toBe(0);
      });

      it('login codes and reset codes are counted apart', async () => {
        const m = await member();
        for (let i = 0; i < testConfig.codesPerHour; i += 1) expect((await h.verify(m.email, OLD_PASSWORD)).statusCode).toBe(200);
        expectError(await h.verify(m.email, OLD_PASSWORD), 429, 'CODE_RATE_LIMITED');
        expect((await h.requestPasswordReset(m.identity)).statusCode).toBe(200);
      });
    });
  });

  // ===========================================================================================
  describe('POST /v1/user/set-password', () => {
    it('success → 200; the new password logs in and the old fails; every session ends, trusted devices are removed; a passwordChanged mail', async () => {
      const m = await member();
      const first = await h.loginWithCode({ ...m, password: OLD_PASSWORD });
      const second = await h.loginWithCode({ ...m, password: OLD_PASSWORD });
      for (const token of [first.token, second.token]) expect((await h.info(token)).statusCode).toBe(200);
      expect(await h.db.selectFrom('trusted_devices').select('token_hash').where('user_id', '=', m.id).execute()).toHaveLength(2);
      const other = await h.createMember(h.uniqueEmail('bystander'), 'Bystander-Pass-6!');
      const otherSession = await h.loginWithCode(other);
      h.mailer.clear();

      const code = await h.requestResetCode(m.identity);
      const res = await h.setPassword(m.email, code, NEW_PASSWORD);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ message: 'changed' });

      // Every session of the member ends; its trusted devices are gone.
      for (const token of [first.token, second.token]) {
        expectError(await h.info(token), 401, 'UNAUTHENTICATED');
        expectError(await h.contactList(token), 401, 'UNAUTHENTICATED');
      }
      const sessions = await h.db.selectFrom('sessions').select('revoked_at').where('user_id', '=', m.id).execute();
      expect(sessions).toHaveLength(2);
      for (const s of sessions) expect(s.revoked_at).not.toBeNull();
      expect(await h.db.selectFrom('trusted_devices').select('token_hash').where('user_id', '=', m.id).execute()).toEqual([]);

      // The old password fails; the new one needs a code again (the device is no longer trusted).
      expectError(await h.verify(m.email, OLD_PASSWORD), 401, 'LOGIN_FAILED');
      // Without a trusted device the code-less answer is CODE_REQUIRED whatever the password
      // (no oracle, docs/decisions/015).
      expectError(await h.login({ email: m.email, password: OLD_PASSWORD, device: first.device }), 401, 'CODE_REQUIRED');
      expectError(await h.login({ email: m.email, password: NEW_PASSWORD, device: first.device }), 401, 'CODE_REQUIRED');

      // One mail since the code: passwordChanged, to the member.
      expect(h.mailer.to(m.email).map((mail) => mail.template)).toEqual(['passwordResetCode', 'passwordChanged']);
      const changed = h.mailer.to(m.email)[1];
      expect(changed.values).toEqual({ name: '中村 由美' });
      const rendered = renderMail('passwordChanged', changed.values, testMailLinks);
      expect(rendered.subject).toContain('パスワードが変更されました');
      expect(rendered.text).toContain('中村 由美 様');

      // The new password logs in with a code.
      const again = await h.loginWithCode({ ...m, password: NEW_PASSWORD });
      expect((await h.info(again.token)).statusCode).toBe(200);
      const login = await h.login({ email: m.email, password: NEW_PASSWORD, device: again.device });
      expect(login.statusCode, login.body).toBe(200);
      expect(login.cookies.find((c) => c.name === TRUSTED_COOKIE)).toBeUndefined();

      // Nobody else is touched.
      expect((await h.info(otherSession.token)).statusCode).toBe(200);
      expect((await h.verify(other.email, other.password)).statusCode).toBe(200);
    });

    it('the code is single-use: the second use → 400 CODE_INVALID and the first new password stays', async () => {
      const m = await member();
      const code = await h.requestResetCode(m.identity);
      expect((await h.setPassword(m.email, code, NEW_PASSWORD)).statusCode).toBe(200);
      expectError(await h.setPassword(m.email, code, 'Third-Pass-2026#'), 400, 'CODE_INVALID');
      expect((await h.verify(m.email, NEW_PASSWORD)).statusCode).toBe(200);
      expectError(await h.verify(m.email, 'Third-Pass-2026#'), 401, 'LOGIN_FAILED');
      expect(h.mailer.to(m.email).filter((mail) => mail.template === 'passwordChanged')).toHaveLength(1);
    });

    it('a wrong code → 400 CODE_INVALID; nothing changes', async () => {
      const m = await member();
      const { token } = await h.loginWithCode({ ...m, password: OLD_PASSWORD });
      const code = await h.requestResetCode(m.identity);
      const before = await passwordHash(m.id);
      expectError(await h.setPassword(m.email, otherCode(code), NEW_PASSWORD), 400, 'CODE_INVALID');
      expect(await passwordHash(m.id)).toBe(before);
      expect((await h.info(token)).statusCode).toBe(200);
      expect(h.mailer.to(m.email).filter((mail) => mail.template === 'passwordChanged')).toEqual([]);
      expect((await h.verify(m.email, OLD_PASSWORD)).statusCode).toBe(200);
    });

    it('no code ever sent → 400 CODE_INVALID', async () => {
      const m = await member();
      expectError(await h.setPassword(m.email, '12345', NEW_PASSWORD), 400, 'CODE_INVALID');
      expectError(await h.setPassword(h.uniqueEmail('nobody'), '12345', NEW_PASSWORD), 400, 'CODE_INVALID');
    });

    it('a code issued for login cannot be used here (and a reset code does not log in)', async () => {
      const m = await member();
      const loginCode = await h.requestCode({ email: m.email, password: OLD_PASSWORD });
      const before = await passwordHash(m.id);
      expectError(await h.setPassword(m.email, loginCode, NEW_PASSWORD), 400, 'CODE_INVALID');
      expect(await passwordHash(m.id)).toBe(before);

      const fresh = await member();
      const resetCode = await h.requestResetCode(fresh.identity);
      expectError(await h.login({ email: fresh.email, password: OLD_PASSWORD, code: resetCode }), 400, 'CODE_INVALID');
      expect((await h.setPassword(fresh.email, resetCode, NEW_PASSWORD)).statusCode).toBe(200); // still unspent
    });

    it('a code mailed to one member does not reset another', async () => {
      const a = await member();
      const b = await member();
      const codeA = await h.requestResetCode(a.identity);
      const codeB = await h.requestResetCode(b.identity);
      expectError(await h.setPassword(b.email, codeA === codeB ? otherCode(codeA) : codeA, NEW_PASSWORD), 400, 'CODE_INVALID');
      expectError(await h.verify(b.email, NEW_PASSWORD), 401, 'LOGIN_FAILED');
    });

    it('a member withdrawn after the code was sent → 400 CODE_INVALID', async () => {
      const m = await member();
      const code = await h.requestResetCode(m.identity);
      await h.db.updateTable('users').set({ status: 'withdrawn', withdrawn_at: new Date().toISOString() }).where('id', '=', m.id).execute();
      const before = await passwordHash(m.id);
      expectError(await h.setPassword(m.email, code, NEW_PASSWORD), 400, 'CODE_INVALID');
      expect(await passwordHash(m.id)).toBe(before);
      expect(h.mailer.to(m.email).filter((mail) => mail.template === 'passwordChanged')).toEqual([]);
    });

    it('new_password equal to the e-mail address → 400 VALIDATION "メールアドレスと異なるパスワードを設定してください"; the code stays usable', async () => {
      // An address that, with one capital, meets every other password rule (upper, lower, digit,
      // symbol, 8+); addresses are canonical (lower-case), so the comparison ignores case.
      const m = await member('ab1!xyzw@example.com');
      const code = await h.requestResetCode(m.identity);
      const before = await passwordHash(m.id);
      expectError(await h.setPassword(m.email, code, 'Ab1!xyzw@example.com'), 400, 'VALIDATION', { new_password: [PW_NOT_EMAIL] });
      expect(await passwordHash(m.id)).toBe(before);
      expect((await h.setPassword(m.email, code, NEW_PASSWORD)).statusCode).toBe(200);
    });

    it.each<[string, string, Record<string, string[]>]>([
      ['too short (7 characters)', 'Ab1!xyz', { new_password: [PW_MIN] }],
      ['the same character 8 times in a row', `B${'a'.repeat(8)}1!`, { new_password: [PW_REPEAT] }],
      ['one digit 8 times plus the rest', '11111111Ab!', { new_password: [PW_REPEAT] }],
      ['no symbol', 'Abcdefgh12', { new_password: [PW_SYMBOL] }],
      ['no upper case', 'abcdefg1!', { new_password: [PW_UPPER] }],
      ['a full-width character', 'Abcdefg1!あ', { new_password: [PW_CHARSET] }],
      ['empty (not given)', '', { new_password: [NEW_PASSWORD_REQUIRED] }],
    ])('new_password %s → 400 VALIDATION with the rule\'s message; the code is not spent', async (_label, password, fields) => {
      const m = await member();
      const code = await h.requestResetCode(m.identity);
      const res = await h.setPassword(m.email, code, password);
      expectError(res, 400, 'VALIDATION', fields);
      expect((await h.setPassword(m.email, code, NEW_PASSWORD)).statusCode).toBe(200);
    });

    it('exactly 8 characters and the same character 7 times are accepted', async () => {
      const m = await member();
      expect((await h.setPassword(m.email, await h.requestResetCode(m.identity), 'Ab1!cdEf')).statusCode).toBe(200);
      expect((await h.verify(m.email, 'Ab1!cdEf')).statusCode).toBe(200);
      const n = await member();
      const seven = `B${'a'.repeat(7)}1!`;
      expect((await h.setPassword(n.email, await h.requestResetCode(n.identity), seven)).statusCode).toBe(200);
      expect((await h.verify(n.email, seven)).statusCode).toBe(200);
    });

    it.each<[string, unknown, Record<string, string[]>]>([
      ['an empty body', {}, { email: [EMAIL_REQUIRED], code: [CODE_REQUIRED], new_password: [NEW_PASSWORD_REQUIRED] }],
      ['a 4-digit code', { email: 'a@example.com', code: '1234', new_password: NEW_PASSWORD }, { code: [CODE_FORMAT] }],
      ['a numeric code', { email: 'a@example.com', code: 12345, new_password: NEW_PASSWORD }, { code: [CODE_FORMAT] }],
      ['a bad address', { email: 'nope', code: '12345', new_password: NEW_PASSWORD }, { email: [EMAIL_FORMAT] }],
    ])('%s → 400 VALIDATION with the field messages', async (_label, body, fields) => {
      expectError(await h.post('/v1/user/set-password', body), 400, 'VALIDATION', fields);
    });

    it('without the client key → 401 CLIENT_KEY_INVALID; the code is not spent', async () => {
      const m = await member();
      const code = await h.requestResetCode(m.identity);
      expectError(await h.setPassword(m.email, code, NEW_PASSWORD, { 'x-client-key': undefined }), 401, 'CLIENT_KEY_INVALID');
      expect((await h.verify(m.email, OLD_PASSWORD)).statusCode).toBe(200);
      expect((await h.setPassword(m.email, code, NEW_PASSWORD)).statusCode).toBe(200);
    });

    it('a failing passwordChanged mail does not undo the reset', async () => {
      const m = await member();
      const { token } = await h.loginWithCode({ ...m, password: OLD_PASSWORD });
      const code = await h.requestResetCode(m.identity);
      h.mailer.failing = true;
      const res = await h.setPassword(m.email, code, NEW_PASSWORD);
      h.mailer.failing = false;
      expect(res.statusCode, res.body).toBe(200);
      expectError(await h.info(token), 401, 'UNAUTHENTICATED');
      expect((await h.verify(m.email, NEW_PASSWORD)).statusCode).toBe(200);
      expectError(await h.verify(m.email, OLD_PASSWORD), 401, 'LOGIN_FAILED');
    });
  });
});

// The identity limit must hold under concurrency, as the code attempt limit does
// (code-lock-race.test.ts): guesses sent in parallel must not get more than 10 failures for one
// address. Reads of failed_attempts are slowed down (a loaded database) so that the parallel
// requests overlap on every run.
describe.each(DATABASES)('the password-reset identity limit under concurrent guesses ($name)', ({ kind }) => {
  let h: Harness;

  setUpOrFail(async () => {
    h = await Harness.start(kind, { plugins: [new SlowReads('failed_attempts', 40)] });
  });
  afterAll(async () => {
    await h?.close();
  });

  it(`${2 * FAILURES_PER_HOUR} wrong identities at once → at most ${FAILURES_PER_HOUR} IDENTITY_FAILED, the rest 429; then the right identity → 429`, async () => {
    const email = h.uniqueEmail('target');
    await h.createMember(email, OLD_PASSWORD, { birthday: BIRTHDAY, phone: PHONE });
    const guesses = Array.from({ length: 2 * FAILURES_PER_HOUR }, (_, i) => ({ email, birthday: BIRTHDAY, phone: `0800000${String(i).padStart(4, '0')}` }));
    const answers = await Promise.all(guesses.map((identity) => h.requestPasswordReset(identity)));
    const statuses = answers.map((r) => r.statusCode);
    expect(statuses.every((s) => s === 400 || s === 429), statuses.join(',')).toBe(true);
    for (const res of answers) expectError(res, res.statusCode, res.statusCode === 400 ? 'IDENTITY_FAILED' : 'TOO_MANY_ATTEMPTS');
    const failures = (await h.db.selectFrom('failed_attempts').select('id').where('subject', '=', email).execute()).length;
    const guessed = statuses.filter((s) => s === 400).length;
    expect(guessed, `answers ${statuses.join(',')}; failures recorded ${failures}`).toBeLessThanOrEqual(FAILURES_PER_HOUR);
    expectError(await h.requestPasswordReset({ email, birthday: BIRTHDAY, phone: PHONE }), 429, 'TOO_MANY_ATTEMPTS');
    expect(h.mailer.sent).toEqual([]);
  });
});
