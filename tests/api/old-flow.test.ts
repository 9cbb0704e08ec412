// The earlier generation on the server: POST /v1/email/register {flow: "link"} mails a
// registration link (key of 256 random bits, stored hashed, single use, REGISTRATION_LINK_SECONDS),
// GET /v1/email/verify?key= answers {email}, POST /v1/user/register-by-link creates the member
// with the old form's own rules (form.old-register.json), and POST /v1/user/verify {email} alone
// (the earliest login) mails a code without telling whether the address is a member's.
// Expected messages come from the schemas and messages/ja.json, not from copies.
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import oldForm from '../../schemas/forms/old-register.schema.json';
import messages from '../../messages/ja.json';
import { fillMessage } from '../../src/shared/validation/message-params';
import { LINK_KEY_PATTERN, hashLinkKey, newLinkKey } from '../../src/server/services/registration-links';
import { DATABASES, Harness, SECRET, expectError, japaneseText, setUpOrFail, testConfig } from '../support/api-harness';
import { rulesOf, schemaSet } from '../support/schema-messages';

// Read as JSON.parse does (the file holds lone-surrogate examples Vite's JSON import refuses).
const defs = JSON.parse(readFileSync(new URL('../../schemas/shared/fields.json', import.meta.url), 'utf8')).$defs;
// The link opens the parent site's top page with the old registration screen in its frame.
const LINK = new RegExp(`^${testConfig.siteTopUrl.replace(/[.?]/g, '\\$&')}\\?path=/user/old/register\\?key=([A-Za-z0-9_-]{43})$`);

/** A complete old registration the server accepts for `email` with link `key`. */
function oldRegistration(email: string, key: string, overrides: Record<string, unknown> = {}) {
  const base: Record<string, unknown> = {
    key,
    email,
    password: 'Sora-Umi-2025!',
    password_confirm: 'Sora-Umi-2025!',
    last_name_kanji: '山田',
    first_name_kanji: '花子',
    last_name_alphabet: 'Yamada',
    first_name_alphabet: 'Hanako',
    birthday: '1990-04-01',
    gender: 'female',
    job: '1',
    industry: '8',
    zip_current: '3800001',
    address_current: '長野県長野市大字長野1-1',
    phone: '09012345678',
    amc: '',
    mail_opt: '1',
    purpose: ['1'],
    purpose_detail: japaneseText(oldForm.properties.purpose_detail.minLength),
    city: '202011',
    condition_no_home: true,
    condition_not_single_transfer: true,
    condition_not_care: true,
  };
  const merged = { ...base, ...overrides };
  for (const k of Object.keys(overrides)) if (overrides[k] === undefined) delete merged[k];
  return merged;
}

describe.each(DATABASES)('old flow ($name)', ({ kind }) => {
  let h: Harness;
  setUpOrFail(async () => {
    h = await Harness.start(kind);
  });
  afterAll(async () => {
    await h?.close();
  });

  const askLink = (email: string) => h.post('/v1/email/register', { email, flow: 'link' });
  const verifyKey = (key: string) => h.app.inject({ method: 'GET', url: `/v1/email/verify?key=${encodeURIComponent(key)}` });
  const register = (body: unknown) => h.post('/v1/user/register-by-link', body);

  /** Asks for a link and returns the key from the mail. */
  async function linkFor(email: string): Promise<string> {
    const res = await askLink(email);
    expect(res.statusCode, res.body).toBe(200);
    const mail = h.mailer.to(email).at(-1)!;
    expect(mail.template).toBe('registerLink');
    const match = LINK.exec(String(mail.values.url));
    expect(match, String(mail.values.url)).not.toBeNull();
    return match![1];
  }

  describe('POST /v1/email/register {flow: "link"}', () => {
    it('mails a link to the parent site with /user/old/register?key=… in its frame, whose key is stored only as a keyed hash, living REGISTRATION_LINK_SECONDS', async () => {
      const email = h.uniqueEmail('link');
      const key = await linkFor(email);
      expect(Buffer.from(key, 'base64url')).toHaveLength(32); // 256 random bits
      const rows = await h.db.selectFrom('registration_links').selectAll().where('email', '=', email).execute();
      expect(rows).toHaveLength(1);
      expect(rows[0].key_hash).toBe(hashLinkKey(SECRET, key));
      expect(JSON.stringify(rows[0])).not.toContain(key);
      const ttl = Date.parse(rows[0].expires_at) - Date.parse(rows[0].created_at);
      expect(Math.abs(ttl - testConfig.registrationLinkSeconds * 1000)).toBeLessThan(1000);
      expect(h.mailer.to(email).at(-1)!.values.lifetime).toBe(`${testConfig.registrationLinkSeconds / 3600}時間`);
    });

    it('checks the site\'s one e-mail rule (docs/decisions/018): a@b is refused with its message and nothing is mailed', async () => {
      for (const bad of ['a@b', 'a b@c.jp', '@example.com', 'a@example.', '山田@example.jp']) {
        const before = h.mailer.sent.length;
        expectError(await askLink(bad), 400, 'VALIDATION', { email: [defs.email.errorMessage.pattern] });
        expect(h.mailer.sent.length).toBe(before);
      }
    });

    it('a member\'s address gets the same answer, and its owner a notice instead of a link', async () => {
      const member = await h.createMember();
      const free = await askLink(h.uniqueEmail('free'));
      const taken = await askLink(member.email);
      expect(taken.statusCode).toBe(200);
      expect(taken.json()).toEqual(free.json());
      expect(h.mailer.to(member.email).map((m) => m.template)).toEqual(['registerAttempted']);
    });

    it('the hourly quota of codes applies to links (and to a member\'s address alike) → 429', async () => {
      const member = await h.createMember();
      for (const email of [h.uniqueEmail('quota'), member.email]) {
        for (let i = 0; i < testConfig.codesPerHour; i += 1) expect((await askLink(email)).statusCode).toBe(200);
        expectError(await askLink(email), 429, 'LINK_RATE_LIMITED');
      }
    });

    it('a failed mail stores no link and uses no quota: the earlier link still works', async () => {
      const email = h.uniqueEmail('relay');
      const key = await linkFor(email);
      h.mailer.failing = true;
      try {
        expect((await askLink(email)).statusCode).toBe(502);
      } finally {
        h.mailer.failing = false;
      }
      expect(await h.db.selectFrom('registration_links').select('id').where('email', '=', email).execute()).toHaveLength(1);
      expect((await verifyKey(key)).json()).toEqual({ email });
    });
  });

  describe('GET /v1/email/verify?key=', () => {
    it('a live key → 200 {email}, again on reload (checking does not use it up)', async () => {
      const email = h.uniqueEmail('check');
      const key = await linkFor(email);
      for (let i = 0; i < 2; i += 1) {
        const res = await verifyKey(key);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json()).toEqual({ email });
      }
    });

    it('well-formed keys that open nothing (forged, expired) → 400 LINK_INVALID', async () => {
      const email = h.uniqueEmail('expired');
      const key = await linkFor(email);
      await h.db.updateTable('registration_links').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('email', '=', email).execute();
      expectError(await verifyKey('A'.repeat(43)), 400, 'LINK_INVALID');
      expectError(await verifyKey(key), 400, 'LINK_INVALID');
    });

    // Refused by the route's query schema (schemas/api/email-verify-query.json), which says why.
    const query = rulesOf('api.email-verify-query.json');
    const get = (search: string) => h.app.inject({ method: 'GET', url: `/v1/email/verify${search}` });
    it('missing and malformed keys → 400 BAD_REQUEST with the query schema\'s message under key; the live link is untouched', async () => {
      const email = h.uniqueEmail('malformed');
      const key = await linkFor(email);
      const rows = () => h.db.selectFrom('registration_links').selectAll().where('email', '=', email).execute();
      const before = await rows();
      const cases: Array<[string, string, string]> = [
        ['no key', '', query.required('key')],
        ['another parameter only', `?k=${key}`, query.required('key')],
        ['an empty key', '?key=', query.message('key', 'pattern')],
        ['one character short', `?key=${key.slice(1)}`, query.message('key', 'pattern')],
        ['one character long', `?key=${key}A`, query.message('key', 'pattern')],
        ['a character base64url has not', `?key=${encodeURIComponent(`+${key.slice(1)}`)}`, query.message('key', 'pattern')],
        ['padding', `?key=${encodeURIComponent(`${key.slice(1)}=`)}`, query.message('key', 'pattern')],
        ['spaces around it', `?key=${encodeURIComponent(` ${key} `)}`, query.message('key', 'pattern')],
        ['text', '?key=not%20a%20key', query.message('key', 'pattern')],
        ['the key twice (an array)', `?key=${key}&key=${key}`, query.message('key', 'type')],
      ];
      for (const [label, search, message] of cases) {
        const body = expectError(await get(search), 400, 'BAD_REQUEST', { key: [message] });
        expect(body.error, label).toBe(messages.api.BAD_REQUEST);
      }
      expect(await rows()).toEqual(before);
      expect((await verifyKey(key)).json()).toEqual({ email });
    });

    it('every issued key is well-formed by the query schema, which is the pattern the service checks too', () => {
      const pattern = new RegExp((schemaSet().api['api.email-verify-query.json'] as { properties: { key: { pattern: string } } }).properties.key.pattern);
      expect(LINK_KEY_PATTERN.source).toBe(pattern.source);
      for (let i = 0; i < 50; i++) expect(newLinkKey()).toMatch(pattern);
    });
  });

  describe('POST /v1/user/register-by-link', () => {
    it('creates an active member with a pending application and the desired municipality; the link is then spent', async () => {
      const email = h.uniqueEmail('old');
      const key = await linkFor(email);
      const other = await linkFor(email);
      const res = await register(oldRegistration(email, key));
      expect(res.statusCode, res.body).toBe(200);
      const user = await h.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
      expect(user).toMatchObject({ status: 'active', city: '202011', zip_current: '3800001', phone: '09012345678', last_name_alpha: 'YAMADA', first_name_alpha: 'HANAKO' });
      const application = await h.db.selectFrom('applications').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow();
      expect(application.status).toBe('pending');
      // The answer carries the register number the welcome mail quotes.
      expect(res.json()).toEqual({ message: 'registered', register_number: application.register_number });
      expect(h.mailer.to(email).at(-1)!.template).toBe('welcome');
      expect(h.mailer.to(email).at(-1)!.values.registerNumber).toBe(application.register_number);
      // Single use: the same link, and any other link to that address, open nothing now.
      expectError(await verifyKey(key), 400, 'LINK_INVALID');
      expectError(await verifyKey(other), 400, 'LINK_INVALID');
      expectError(await register(oldRegistration(email, key)), 400, 'LINK_INVALID');
      // The new member logs in as any other: password, then the mailed code.
      const code = await h.requestCode({ email, password: 'Sora-Umi-2025!' });
      expect((await h.login({ email, password: 'Sora-Umi-2025!', code })).statusCode).toBe(200);
    });

    it('a forged key creates nobody; an address other than the link\'s is refused on the e-mail field', async () => {
      const email = h.uniqueEmail('forged');
      const key = await linkFor(email);
      expectError(await register(oldRegistration(email, 'B'.repeat(43))), 400, 'LINK_INVALID');
      expectError(await register(oldRegistration(h.uniqueEmail('else'), key)), 400, 'VALIDATION', { email: [messages.api.LINK_EMAIL_MISMATCH] });
      expect(await h.db.selectFrom('users').select('id').where('email', '=', email).execute()).toHaveLength(0);
      expect((await verifyKey(key)).statusCode).toBe(200);
    });

    it('takes the names the current forms take: Van Dyke, Anne-Marie and José, stored as letters only in the passport spelling', async () => {
      const email = h.uniqueEmail('old-names');
      const key = await linkFor(email);
      const res = await register(oldRegistration(email, key, { last_name_alphabet: "Van Dyke-O'Neil", first_name_alphabet: 'José', last_name_kanji: 'ヴァン・ダイク', first_name_kanji: 'アン＝マリー' }));
      expect(res.statusCode, res.body).toBe(200);
      const user = await h.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
      expect([user.last_name_alpha, user.first_name_alpha, user.last_name_kanji, user.first_name_kanji]).toEqual(['VANDYKEONEIL', 'JOSE', 'ヴァン・ダイク', 'アン＝マリー']);
    });

    const detail = oldForm.properties.purpose_detail;
    it.each([
      ['zip_current', '380000', defs.oldZip.errorMessage.pattern],
      ['zip_current', '380-00011', defs.oldZip.errorMessage.pattern],
      ['phone', '090-1234-567', defs.oldPhone.errorMessage.pattern],
      ['phone', '0901234567', defs.oldPhone.errorMessage.pattern],
      ['phone', '090123456789', defs.oldPhone.errorMessage.pattern],
      ['phone', '19012345678', defs.oldPhone.errorMessage.pattern],
      ['last_name_alphabet', 'Yamada2', defs.oldAlphabetName.errorMessage.pattern],
      ['first_name_alphabet', 'Anne.Marie', defs.oldAlphabetName.errorMessage.pattern],
      ['purpose_detail', japaneseText(detail.minLength - 1), fillMessage(detail.errorMessage.minLength, detail, 'minLength')],
      ['purpose_detail', japaneseText(detail.maxLength + 1), fillMessage(detail.errorMessage.maxLength, detail, 'maxLength')],
      ['email', 'a@b', defs.email.errorMessage.pattern],
      ['city', '20201', defs.municipality.errorMessage.pattern],
      ['city', '999999', messages.api.MASTER_UNKNOWN],
      ['city', undefined, defs.municipality['x-required-message']],
      ['condition_no_home', false, defs.consent.errorMessage.const],
      ['condition_not_single_transfer', false, defs.consent.errorMessage.const],
      ['condition_not_care', undefined, defs.consent['x-required-message']],
    ])('old rule: %s = %j → 400 with "%s" on the field, nobody created', async (field, value, message) => {
      const email = h.uniqueEmail('rule');
      const key = await linkFor(email);
      const body = oldRegistration(email, key, { [field]: value });
      expectError(await register(body), 400, 'VALIDATION', { [field]: [message] });
      expect(await h.db.selectFrom('users').select('id').where('email', '=', email).execute()).toHaveLength(0);
    });

    // Hyphens as members type them are taken and removed (x-normalise removeHyphens): the old
    // rules judge, and the member record keeps, the digits.
    it.each([
      ['zip_current', '380-0001', '3800001'],
      ['zip_current', '３８０ー０００１', '3800001'],
      ['phone', '090-9876-5432', '09098765432'],
    ])('old rule, hyphenated input: %s = %j is stored as %j', async (field, value, stored) => {
      const email = h.uniqueEmail('hyphen');
      const key = await linkFor(email);
      const res = await register(oldRegistration(email, key, { [field]: value }));
      expect(res.statusCode, res.body).toBe(200);
      const user = await h.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
      expect(user[field as 'zip_current' | 'phone']).toBe(stored);
    });

    it.each([
      ['purpose_detail', japaneseText(detail.maxLength)],
      ['phone', '08098765432'],
      ['zip_current', '0600001'],
      ['city', '131016'],
    ])('old rule edge accepted: %s = %j', async (field, value) => {
      const email = h.uniqueEmail('edge');
      const key = await linkFor(email);
      const res = await register(oldRegistration(email, key, { [field]: value }));
      expect(res.statusCode, res.body).toBe(200);
    });
  });

  describe('POST /v1/user/verify {email} alone (the earliest login)', () => {
    it('a member gets a login code, any other address the same answer and a "not registered" notice', async () => {
      const member = await h.createMember();
      const stranger = h.uniqueEmail('stranger');
      const known = await h.post('/v1/user/verify', { email: member.email });
      const unknown = await h.post('/v1/user/verify', { email: stranger });
      expect(known.statusCode, known.body).toBe(200);
      expect(unknown.statusCode).toBe(200);
      expect(unknown.json()).toEqual(known.json());
      expect(h.mailer.to(member.email).at(-1)!.template).toBe('loginCode');
      expect(h.mailer.to(stranger).map((m) => m.template)).toEqual(['loginUnknownAddress']);
      // The password is checked by the login call, with the code from the mail; a wrong one
      // answers as a wrong code does (no password oracle, docs/decisions/015) and spends nothing.
      const code = h.mailer.lastCode(member.email);
      expectError(await h.login({ email: member.email, password: 'Wrong-Pass-1!', code }), 400, 'CODE_INVALID');
      expect((await h.login({ email: member.email, password: member.password, code })).statusCode).toBe(200);
    });

    it('a malformed address → 400 on the field, nothing mailed', async () => {
      const before = h.mailer.sent.length;
      expectError(await h.post('/v1/user/verify', { email: 'no-at-sign' }), 400, 'VALIDATION', { email: [defs.email.errorMessage.pattern] });
      expect(h.mailer.sent.length).toBe(before);
    });
  });
});
