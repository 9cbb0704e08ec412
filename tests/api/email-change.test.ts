// E-mail change: POST /v1/user/verify {flow: 'email_change', email} (bearer) mails a code to the
// NEW address; POST /v1/user/email/change {flow, email, code} switches the member to it, tells the
// old address, and from then on the member logs in with the new address only. A code belongs to
// the member who asked for it; an address taken in the meantime is refused.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { UserInfo } from '../../src/shared/api-types';
import { CLIENT_KEY, DATABASES, Harness, expectError, setUpOrFail, testConfig, type Member } from '../support/api-harness';
import { rulesOf } from '../support/schema-messages';

const EMAIL_TAKEN = 'このメールアドレスはすでに登録されています。ログイン、またはパスワードの再設定をご利用ください。';
const EMAIL_FORMAT = rulesOf('email-change').message('email', 'pattern');
const NEW_EMAIL_REQUIRED = rulesOf('email-change').required('email');
const CODE_REQUIRED = rulesOf('email-change-code').required('code');
const CODE_FORMAT = rulesOf('email-change-code').message('code', 'pattern');

/** A 5-digit code that is certainly not `code`. */
const otherCode = (code: string, step = 1) => String((Number(code) + step) % 100_000).padStart(5, '0');

describe.each(DATABASES)('e-mail change ($name)', ({ kind }) => {
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

  /** A fresh member with a session (the login code mail is cleared). */
  async function member(): Promise<Member & { token: string }> {
    const m = await h.createMember(h.uniqueEmail('old'));
    const { token } = await h.loginWithCode(m);
    h.mailer.clear();
    return { ...m, token };
  }

  async function emailOf(id: string): Promise<string> {
    return (await h.db.selectFrom('users').select('email').where('id', '=', id).executeTakeFirstOrThrow()).email;
  }

  /** Asks for a change of `m` to `email`: 200 and the code mailed to `email`. */
  async function codeFor(m: { token: string }, email: string): Promise<string> {
    const res = await h.requestEmailChange(m.token, email);
    expect(res.statusCode, res.body).toBe(200);
    return h.mailer.lastCode(email);
  }

  // -------------------------------------------------------------------------------------------
  describe('POST /v1/user/verify {flow: "email_change"}', () => {
    it('with the bearer token → 200 {message: "sent"} and exactly one emailChangeCode mail, to the NEW address', async () => {
      const m = await member();
      const next = h.uniqueEmail('new');
      const res = await h.requestEmailChange(m.token, next);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ message: 'sent' });
      expect(res.body).not.toMatch(/\b\d{5}\b/);
      expect(h.mailer.sent).toHaveLength(1);
      const [mail] = h.mailer.sent;
      expect(mail.to).toBe(next);
      expect(mail.template).toBe('emailChangeCode');
      expect(String(mail.values.code)).toMatch(/^\d{5}$/);
      expect(mail.values.minutes).toBe(testConfig.codeTtlSeconds / 60);
      expect(h.mailer.to(m.email)).toHaveLength(0);
      // The code is for the new address and the member, held by the flow that asked (docs/decisions/015).
      const rows = await h.db.selectFrom('email_codes').selectAll().where('email', '=', next).where('user_id', '=', m.id).execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ purpose: 'email_change', user_id: m.id, consumed_at: null });
      expect(rows[0].code_hash).not.toContain(String(mail.values.code));
      // Asking changes nothing yet.
      expect(await emailOf(m.id)).toBe(m.email);
    });

    it('without a token (client key only) → 401 UNAUTHENTICATED, no mail', async () => {
      const next = h.uniqueEmail('new');
      expectError(await h.requestEmailChange(undefined, next, { 'x-client-key': CLIENT_KEY }), 401, 'UNAUTHENTICATED');
      expectError(await h.requestEmailChange(undefined, next), 401, 'CLIENT_KEY_INVALID');
      expect(h.mailer.sent).toHaveLength(0);
      expect(await h.db.selectFrom('email_codes').select('id').where('email', '=', next).execute()).toHaveLength(0);
    });

    it('an unknown or expired token → 401, no mail', async () => {
      const m = await member();
      const next = h.uniqueEmail('new');
      expectError(await h.requestEmailChange('AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', next), 401, 'UNAUTHENTICATED');
      await h.db.updateTable('sessions').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('user_id', '=', m.id).execute();
      expectError(await h.requestEmailChange(m.token, next), 401, 'SESSION_EXPIRED');
      expect(h.mailer.sent).toHaveLength(0);
    });

    it('the address of another active member → the same 200 as a free one; that member gets a notice, nobody a code', async () => {
      const m = await member();
      const other = await h.createMember(h.uniqueEmail('taken'));
      const free = await h.requestEmailChange(m.token, h.uniqueEmail('free'));
      const taken = await h.requestEmailChange(m.token, other.email);
      expect(taken.statusCode, taken.body).toBe(200);
      expect(taken.body).toBe(free.body);
      const mails = h.mailer.to(other.email);
      expect(mails.map((mail) => mail.template)).toEqual(['emailChangeAttempted']);
      expect(mails[0].values.code).toBeUndefined();
      expectError(await h.confirmEmailChange(m.token, other.email, '00000'), 400, 'CODE_INVALID');
      expect(await emailOf(m.id)).toBe(m.email);
    });

    it('a withdrawn member\'s address is free: 200 and a code', async () => {
      const m = await member();
      const gone = await h.createMember(h.uniqueEmail('gone'), 'Gone-Pass-3!', { status: 'withdrawn', withdrawn_at: new Date().toISOString() });
      await codeFor(m, gone.email);
      expect(h.mailer.to(gone.email).map((mail) => mail.template)).toEqual(['emailChangeCode']);
    });

    it('a bad or missing address → 400 VALIDATION with fields.email, no mail', async () => {
      const m = await member();
      expectError(await h.requestEmailChange(m.token, 'not-an-email'), 400, 'VALIDATION', { email: [EMAIL_FORMAT] });
      expectError(await h.asMember('POST', '/v1/user/verify', m.token, { flow: 'email_change' }), 400, 'VALIDATION', { email: [NEW_EMAIL_REQUIRED] });
      expect(h.mailer.sent).toHaveLength(0);
    });

    it('a failing mail relay → 502 MAIL_FAILED', async () => {
      const m = await member();
      h.mailer.failing = true;
      expectError(await h.requestEmailChange(m.token, h.uniqueEmail('new')), 502, 'MAIL_FAILED');
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('POST /v1/user/email/change', () => {
    it('the right code → 200 {email}; GET info shows it; the old address gets emailChanged; login works with the new address only', async () => {
      const m = await member();
      const next = h.uniqueEmail('new');
      const code = await codeFor(m, next);
      const res = await h.confirmEmailChange(m.token, next, code);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ email: next });

      const info = await h.info(m.token);
      expect(info.statusCode, info.body).toBe(200);
      expect(info.json<UserInfo>().email).toBe(next);
      expect(await emailOf(m.id)).toBe(next);

      const notices = h.mailer.to(m.email);
      expect(notices).toHaveLength(1);
      expect(notices[0].template).toBe('emailChanged');
      expect(notices[0].values).toEqual({ name: '山田 花子', newEmail: next });
      expect(h.mailer.to(next).map((mail) => mail.template)).toEqual(['emailChangeCode']);

      // The old address no longer logs in; the new one does, all the way to a session.
      expectError(await h.verify(m.email, m.password), 401, 'LOGIN_FAILED');
      const { token } = await h.loginWithCode({ ...m, email: next });
      expect((await h.info(token)).json<UserInfo>().email).toBe(next);
      expect(h.mailer.to(m.email).filter((mail) => mail.template === 'loginCode')).toHaveLength(0);
    });

    it('the code is single-use', async () => {
      const m = await member();
      const next = h.uniqueEmail('new');
      const code = await codeFor(m, next);
      expect((await h.confirmEmailChange(m.token, next, code)).statusCode).toBe(200);
      expectError(await h.confirmEmailChange(m.token, next, code), 400, 'CODE_INVALID');
    });

    it('without a token → 401 UNAUTHENTICATED, the code stays usable', async () => {
      const m = await member();
      const next = h.uniqueEmail('new');
      const code = await codeFor(m, next);
      expectError(await h.confirmEmailChange(undefined, next, code), 401, 'UNAUTHENTICATED');
      expect(await emailOf(m.id)).toBe(m.email);
      expect((await h.confirmEmailChange(m.token, next, code)).statusCode).toBe(200);
    });

    it('a wrong code → 400 CODE_INVALID, the e-mail unchanged; the right one still works afterwards', async () => {
      const m = await member();
      const next = h.uniqueEmail('new');
      const code = await codeFor(m, next);
      expectError(await h.confirmEmailChange(m.token, next, otherCode(code)), 400, 'CODE_INVALID');
      expect(await emailOf(m.id)).toBe(m.email);
      expect(h.mailer.to(m.email)).toHaveLength(0);
      expect((await h.confirmEmailChange(m.token, next, code)).statusCode).toBe(200);
    });

    it('the code for another new address → 400 CODE_INVALID', async () => {
      const m = await member();
      const next = h.uniqueEmail('new');
      const code = await codeFor(m, next);
      expectError(await h.confirmEmailChange(m.token, h.uniqueEmail('elsewhere'), code), 400, 'CODE_INVALID');
      expect(await emailOf(m.id)).toBe(m.email);
    });

    it(`${testConfig.codeMaxAttempts} wrong codes → the last one 429 CODE_LOCKED; then even the right code is refused`, async () => {
      const m = await member();
      const next = h.uniqueEmail('new');
      const code = await codeFor(m, next);
      for (let i = 1; i < testConfig.codeMaxAttempts; i += 1) {
        expectError(await h.confirmEmailChange(m.token, next, otherCode(code, i)), 400, 'CODE_INVALID');
      }
      expectError(await h.confirmEmailChange(m.token, next, otherCode(code, testConfig.codeMaxAttempts)), 429, 'CODE_LOCKED');
      expectError(await h.confirmEmailChange(m.token, next, code), 429, 'CODE_LOCKED');
      expect(await emailOf(m.id)).toBe(m.email);
      expect(h.mailer.to(m.email)).toHaveLength(0);
    });

    it('a code issued for member B\'s change cannot be used by member A', async () => {
      const [a, b] = [await member(), await member()];
      const next = h.uniqueEmail('contested');
      const bCode = await codeFor(b, next);
      expectError(await h.confirmEmailChange(a.token, next, bCode), 400, 'CODE_INVALID');
      expect(await emailOf(a.id)).toBe(a.email);
      expect(await emailOf(b.id)).toBe(b.email);
      expect(await h.db.selectFrom('users').select('id').where('email', '=', next).execute()).toHaveLength(0);
      expect(h.mailer.sent.filter((mail) => mail.template === 'emailChanged')).toHaveLength(0);
      expect((await h.info(a.token)).json<UserInfo>().email).toBe(a.email);
    });

    it('A\'s code for an address does not let B take that address either', async () => {
      const [a, b] = [await member(), await member()];
      const next = h.uniqueEmail('contested');
      const aCode = await codeFor(a, next);
      expectError(await h.confirmEmailChange(b.token, next, aCode), 400, 'CODE_INVALID');
      expect(await emailOf(b.id)).toBe(b.email);
      expect(await emailOf(a.id)).toBe(a.email);
    });

    it('an address taken between the code and the confirmation → 409 EMAIL_TAKEN, the e-mail unchanged', async () => {
      const m = await member();
      const next = h.uniqueEmail('race');
      const code = await codeFor(m, next);
      // Someone registers the address meanwhile (the real flow: it was not taken yet).
      const newcomer = await h.registerMember(next);
      expectError(await h.confirmEmailChange(m.token, next, code), 409, 'EMAIL_TAKEN', { email: [EMAIL_TAKEN] });
      expect(await emailOf(m.id)).toBe(m.email);
      expect((await h.info(m.token)).json<UserInfo>().email).toBe(m.email);
      expect(await emailOf(newcomer.id)).toBe(next);
      expect(h.mailer.sent.filter((mail) => mail.template === 'emailChanged')).toHaveLength(0);
      // The member still logs in with the old address.
      expect((await h.verify(m.email, m.password)).statusCode).toBe(200);
    });

    it('an address another member switched to meanwhile → 409 EMAIL_TAKEN for the second', async () => {
      const [a, b] = [await member(), await member()];
      const next = h.uniqueEmail('both');
      const aCode = await codeFor(a, next);
      expect((await h.confirmEmailChange(a.token, next, aCode)).statusCode).toBe(200);
      // The address is now a's: b is answered as usual, but no code is mailed, only a notice to a.
      expect((await h.requestEmailChange(b.token, next)).statusCode).toBe(200);
      expect(h.mailer.to(next).at(-1)?.template).toBe('emailChangeAttempted');
      expect(await emailOf(b.id)).toBe(b.email);
    });

    it('validation: missing code, a short code and a bad address → 400 VALIDATION with field messages', async () => {
      const m = await member();
      const next = h.uniqueEmail('new');
      expectError(await h.asMember('POST', '/v1/user/email/change', m.token, { flow: 'email_change', email: next }), 400, 'VALIDATION', { code: [CODE_REQUIRED] });
      expectError(await h.confirmEmailChange(m.token, next, '123'), 400, 'VALIDATION', { code: [CODE_FORMAT] });
      expectError(await h.confirmEmailChange(m.token, 'not-an-email', '12345'), 400, 'VALIDATION', { email: [EMAIL_FORMAT] });
      expect(await emailOf(m.id)).toBe(m.email);
    });

    it('a withdrawn member\'s token → 401, the code cannot be used', async () => {
      const m = await member();
      const next = h.uniqueEmail('new');
      const code = await codeFor(m, next);
      await h.db.updateTable('users').set({ status: 'withdrawn', withdrawn_at: new Date().toISOString() }).where('id', '=', m.id).execute();
      expectError(await h.confirmEmailChange(m.token, next, code), 401, 'UNAUTHENTICATED');
      expect(await emailOf(m.id)).toBe(m.email);
    });
  });
});
