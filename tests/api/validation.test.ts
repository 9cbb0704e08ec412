// Request bodies are checked against schemas/api; every failure answers 400 with Japanese
// messages only — the general one in `error` and one per field in `fields`.
import { afterAll, describe, expect, it } from 'vitest';
import { DATABASES, Harness, expectError, expectJapaneseOnly, setUpOrFail, type ErrorBody, type Member } from '../support/api-harness';
import { rulesOf } from '../support/schema-messages';

const login = rulesOf('login');
const REQUIRED_EMAIL = login.required('email');
const REQUIRED_PASSWORD = login.required('password');
const EMAIL_FORMAT = login.message('email', 'pattern');
const EMAIL_LENGTH = login.message('email', 'maxLength');
const PASSWORD_LENGTH = login.message('password', 'maxLength');
const CODE_FORMAT = rulesOf('login-code').message('code', 'pattern');
const CODE_TYPE = rulesOf('user-login').message('code', 'type');

describe.each(DATABASES)('request validation ($name)', ({ kind }) => {
  let h: Harness;
  let member: Member;

  setUpOrFail(async () => {
    h = await Harness.start(kind);
    member = await h.createMember();
  });
  afterAll(async () => {
    await h?.close();
  });

  describe.each(['/v1/user/verify', '/v1/user/login'])('POST %s', (url) => {
    it('missing email → 400 VALIDATION, fields.email', async () => {
      const res = await h.post(url, { password: 'whatever' });
      expectError(res, 400, 'VALIDATION', { email: [REQUIRED_EMAIL] });
    });

    // {email} alone is the earliest login, which mails a code (tests/api/old-flow.test.ts).
    it('empty password → 400 VALIDATION, fields.password', async () => {
      const res = await h.post(url, { email: member.email, password: '' });
      expectError(res, 400, 'VALIDATION', { password: [REQUIRED_PASSWORD] });
    });

    it('empty object → the e-mail is required (and on login the password)', async () => {
      const res = await h.post(url, {});
      const password: Record<string, string[]> = url === '/v1/user/login' ? { password: [REQUIRED_PASSWORD] } : {};
      expectError(res, 400, 'VALIDATION', { email: [REQUIRED_EMAIL], ...password });
    });

    it.each(['not-an-email', 'user@', '@example.com', 'user example@example.com', 'ユーザー'])(
      'bad email format %j → fields.email',
      async (email) => {
        const res = await h.post(url, { email, password: 'whatever' });
        expectError(res, 400, 'VALIDATION', { email: [EMAIL_FORMAT] });
      },
    );

    it('email that is not a string → fields.email format message', async () => {
      const res = await h.post(url, { email: 12345, password: 'whatever' });
      expectError(res, 400, 'VALIDATION', { email: [EMAIL_FORMAT] });
    });

    it('email longer than 254 characters → fields.email length message', async () => {
      const email = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.example.com`;
      expect(email.length).toBeGreaterThan(254);
      const res = await h.post(url, { email, password: 'whatever' });
      const body = expectError(res, 400, 'VALIDATION');
      expect(body.fields?.email).toContain(EMAIL_LENGTH);
      expect(Object.keys(body.fields ?? {})).toEqual(['email']);
    });

    it('empty password → fields.password', async () => {
      const res = await h.post(url, { email: member.email, password: '' });
      expectError(res, 400, 'VALIDATION', { password: [REQUIRED_PASSWORD] });
    });

    it('password longer than its maximum → fields.password', async () => {
      const res = await h.post(url, { email: member.email, password: 'x'.repeat(login.limit('password', 'maxLength') + 1) });
      expectError(res, 400, 'VALIDATION', { password: [PASSWORD_LENGTH] });
    });

    it('password that is not a string → fields.password', async () => {
      const res = await h.post(url, { email: member.email, password: 12345 });
      expectError(res, 400, 'VALIDATION', { password: [REQUIRED_PASSWORD] });
    });

    it.each<[string, unknown]>([
      ['an array', ['a@example.com', 'x']],
      ['a string', 'hello'],
      ['a number', 42],
      ['true', true],
      ['null', null],
    ])('a non-object JSON body (%s) → 400 with Japanese messages only', async (_, value) => {
      const res = await h.post(url, value);
      expect(res.statusCode, res.body).toBe(400);
      const body = res.json<ErrorBody>();
      expect(['VALIDATION', 'BAD_REQUEST']).toContain(body.code);
      expectJapaneseOnly(body);
      expect(body.fields?.email).toBeUndefined();
    });

    it('a JSON array body → BAD_REQUEST, with no field to attach a message to', async () => {
      const res = await h.post(url, [{ email: member.email, password: member.password }]);
      expectError(res, 400, 'BAD_REQUEST');
    });

    it('malformed JSON → 400 BAD_REQUEST in Japanese', async () => {
      const res = await h.postRaw(url, '{"email": ');
      expectError(res, 400, 'BAD_REQUEST');
    });

    it('an empty body declared as JSON → 400 BAD_REQUEST in Japanese', async () => {
      const res = await h.postRaw(url, '');
      expectError(res, 400, 'BAD_REQUEST');
    });

    it('no body at all → 400 with Japanese messages only', async () => {
      const res = await h.postRaw(url, undefined);
      expect(res.statusCode, res.body).toBe(400);
      expectJapaneseOnly(res.json<ErrorBody>());
    });

    it('validation failures send no mail', async () => {
      const before = h.mailer.sent.length;
      await h.post(url, { email: 'bad', password: member.password });
      await h.post(url, { email: member.email, password: '' });
      await h.post(url, { email: 'bad' });
      expect(h.mailer.sent).toHaveLength(before);
    });
  });

  describe('POST /v1/user/login code', () => {
    it.each(['1234', '123456', 'abcde', '12 34', '１２３４５', ' 12345'])('code %j → fields.code', async (code) => {
      const res = await h.post('/v1/user/login', { email: member.email, password: member.password, code });
      expectError(res, 400, 'VALIDATION', { code: [CODE_FORMAT] });
    });

    it('a numeric code (not a string) → fields.code', async () => {
      const res = await h.post('/v1/user/login', { email: member.email, password: member.password, code: 12345 });
      expectError(res, 400, 'VALIDATION', { code: [CODE_TYPE] });
    });

    it('several bad fields at once → one Japanese message under each', async () => {
      const res = await h.post('/v1/user/login', { email: 'nope', password: '', code: '1' });
      expectError(res, 400, 'VALIDATION', { email: [EMAIL_FORMAT], password: [REQUIRED_PASSWORD], code: [CODE_FORMAT] });
    });
  });

  describe('no English message ever appears', () => {
    const bodies: unknown[] = [
      {},
      { email: null, password: null, code: null },
      { email: ['a@example.com'], password: { x: 1 }, code: [] },
      { email: true, password: false, code: false },
      { email: 'a@example.com', password: 'x', code: '12a45' },
      { email: '', password: 'x' },
      { email: 'a@example.com', password: 'x', flow: 'nope' },
      { email: 'a@example.com', password: 'x', flow: 7 },
      { email: 'a@example.com', password: 'x', flow: 'login', extra: { deep: [1, 2, 3] } },
      'string',
      0,
      [],
      null,
    ];
    it.each(['/v1/user/verify', '/v1/user/login'])('%s answers only in Japanese to every malformed body', async (url) => {
      for (const value of bodies) {
        const res = await h.post(url, value);
        expect(res.statusCode, `${JSON.stringify(value)} → ${res.body}`).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, `${JSON.stringify(value)} → ${res.body}`).toBeLessThan(500);
        expectJapaneseOnly(res.json<ErrorBody>());
      }
    });

    it('a text/plain body answers in Japanese', async () => {
      const res = await h.postRaw('/v1/user/login', 'email=a@example.com', { 'content-type': 'text/plain' });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expectJapaneseOnly(res.json<ErrorBody>());
    });

    it('an unknown verify flow → 400 BAD_REQUEST', async () => {
      const res = await h.post('/v1/user/verify', { flow: 'no-such-flow', email: member.email, password: member.password });
      expectError(res, 400, 'BAD_REQUEST');
    });
  });
});
