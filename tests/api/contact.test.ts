// POST /v1/contact: a visitor (client key) or a member (bearer token) sends an inquiry. The
// payload is validated against schemas/api/contact.json (names as registration, content 20 to 200
// characters without URL or HTML, master codes from the database, both agreements true); the
// inquiry is stored 'open' with a ticket number Q<yymmdd>-<5 digits>, and an acknowledgement
// quoting that number goes to the sender: a visitor's (contactReceivedVisitor) holds nothing else,
// a member's (contactReceived) quotes the inquiry. A member's inquiry carries the member's id and
// the member's stored name and address, whatever the form sent. A failing mail does not fail it.
// The per-address daily limit of acknowledgements is in tests/abuse/contact-and-identity.test.ts.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { renderMail } from '../../src/server/mail/mailer';
import type { Selectable } from 'kysely';
import type { InquiriesTable } from '../../src/server/db/types';
import { CLIENT_KEY, DATABASES, Harness, expectError, japaneseText, setUpOrFail, validContact, type Member, testMailLinks } from '../support/api-harness';
import { rulesOf } from '../support/schema-messages';
import messages from '../../messages/ja.json';

// schemas/api/contact.json, schemas/forms/contact.schema.json, schemas/shared/fields.json and
// messages/ja.json "api".
const contactRules = rulesOf('contact');
const MIN_20 = contactRules.message('purpose_detail', 'minLength');
const CONTENT_MIN = contactRules.limit('purpose_detail', 'minLength');
const CONTENT_MAX = contactRules.limit('purpose_detail', 'maxLength');
const NAME_MAX = contactRules.limit('last_name_kanji', 'maxLength');
const MAX_200 = contactRules.message('purpose_detail', 'maxLength');
const NO_URL = contactRules.message('purpose_detail', 'not');
const MASTER_UNKNOWN = messages.api.MASTER_UNKNOWN;
const SELECT = contactRules.message('inquiry_type', 'pattern');
/** The agreements' messages: the form's (agree_privacy) and the payload's own copy (privacy_checked). */
const agreements = { agree_privacy: rulesOf('contact-privacy'), privacy_checked: rulesOf('api.contact.json') };
/** What `field` answers when the given keywords fail (each message once, as the server lists them). */
const agreement = (field: keyof typeof agreements, ...keywords: string[]) => [
  ...new Set(keywords.map((keyword) => (keyword === 'required' ? agreements[field].required(field) : agreements[field].message(field, keyword)))),
];
/** A required field's message. */
const required = (field: string) => contactRules.required(field);
const FAMILY_NAME = contactRules.message('last_name_kanji', 'pattern');
const GIVEN_NAME = contactRules.message('first_name_kanji', 'pattern');
const EMAIL_FORMAT = contactRules.message('email', 'pattern');
type Inquiry = Selectable<InquiriesTable>;
const TICKET = /^Q(\d{6})-\d{5}$/;

/** yymmdd of `at` in UTC and in Japan time (the ticket's day may be either around midnight). */
function ticketDays(at: Date): string[] {
  const yymmdd = (d: Date) => d.toISOString().slice(2, 10).replace(/-/g, '');
  return [yymmdd(at), yymmdd(new Date(at.getTime() + 9 * 3600_000))];
}

describe.each(DATABASES)('POST /v1/contact ($name)', ({ kind }) => {
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

  async function inquiry(ticketNo: string): Promise<Inquiry> {
    return h.db.selectFrom('inquiries').selectAll().where('ticket_no', '=', ticketNo).executeTakeFirstOrThrow();
  }

  /** A fresh member with a session (the login mail is cleared). */
  async function member(profile: Parameters<Harness['createMember']>[2] = {}): Promise<Member & { token: string }> {
    const m = await h.createMember(h.uniqueEmail('asker'), 'Asker-Pass-5!', profile);
    const { token } = await h.loginWithCode(m);
    h.mailer.clear();
    return { ...m, token };
  }

  /** `body` sent by a visitor is refused with exactly `fields`; nothing stored, no mail. */
  async function expectRefused(body: unknown, fields: Record<string, string[]>) {
    const before = await h.count('inquiries');
    expectError(await h.contact(undefined, body), 400, 'VALIDATION', fields);
    expect(await h.count('inquiries')).toBe(before);
    expect(h.mailer.sent).toEqual([]);
  }

  /** `body` sent by a visitor is accepted: the stored inquiry. */
  async function expectAccepted(body: unknown): Promise<Inquiry> {
    const res = await h.contact(undefined, body);
    expect(res.statusCode, res.body).toBe(200);
    return inquiry(res.json<{ ticket_no: string }>().ticket_no);
  }

  // -------------------------------------------------------------------------------------------
  describe('a visitor (client key, no token)', () => {
    it('→ 200 {ticket_no: Q<yymmdd>-<5 digits>}, an open inquiry without user_id, one contactReceivedVisitor mail quoting the number only', async () => {
      const email = h.uniqueEmail('visitor');
      const payload = validContact(email, { inquiry_type: '2', inquiry_user_type: '3', job: '6', purpose_detail: japaneseText(120) });
      const started = new Date();
      const res = await h.contact(undefined, payload);
      const finished = new Date();
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      const body = res.json<{ ticket_no: string }>();
      expect(Object.keys(body)).toEqual(['ticket_no']);
      const match = TICKET.exec(body.ticket_no);
      expect(match, body.ticket_no).not.toBeNull();
      expect([...ticketDays(started), ...ticketDays(finished)]).toContain(match![1]);

      // One row, open, nobody's, as sent.
      const rows = await h.db.selectFrom('inquiries').selectAll().where('email', '=', email).execute();
      expect(rows).toHaveLength(1);
      const [row] = rows;
      expect(row).toMatchObject({
        ticket_no: body.ticket_no,
        user_id: null,
        last_name_kanji: '佐藤',
        first_name_kanji: '次郎',
        email,
        inquiry_user_type: '3',
        inquiry_type: '2',
        job: '6',
        content: payload.purpose_detail,
        status: 'open',
        answer: null,
      });
      expect(row.created_at >= started.toISOString() && row.created_at <= finished.toISOString()).toBe(true);

      // One mail, to the given address, quoting the ticket number and nothing the visitor typed
      // (docs/decisions/011: anyone can type anyone's address here).
      expect(h.mailer.sent).toEqual([{ to: email, template: 'contactReceivedVisitor', values: { ticketNo: body.ticket_no } }]);
      const rendered = renderMail('contactReceivedVisitor', h.mailer.sent[0].values, testMailLinks);
      expect(rendered.subject).toContain(`受付番号：${body.ticket_no}`);
      expect(rendered.text).toContain(`受付番号：${body.ticket_no}`);
      expect(rendered.text).not.toContain('佐藤');
      expect(rendered.text).not.toContain(payload.purpose_detail.slice(0, 10));
    });

    it('every inquiry gets its own ticket number', async () => {
      const email = h.uniqueEmail('twice');
      const first = await h.contact(undefined, validContact(email));
      const second = await h.contact(undefined, validContact(email));
      expect(first.statusCode, first.body).toBe(200);
      expect(second.statusCode, second.body).toBe(200);
      expect(first.json<{ ticket_no: string }>().ticket_no).not.toBe(second.json<{ ticket_no: string }>().ticket_no);
      expect(await h.db.selectFrom('inquiries').select('id').where('email', '=', email).execute()).toHaveLength(2);
    });

    it('without the client key (and without a token) → 401 CLIENT_KEY_INVALID; nothing stored, no mail', async () => {
      const before = await h.count('inquiries');
      const email = h.uniqueEmail('nokey');
      expectError(await h.contact(undefined, validContact(email), { 'x-client-key': undefined }), 401, 'CLIENT_KEY_INVALID');
      expectError(await h.contact(undefined, validContact(email), { 'x-client-key': `${CLIENT_KEY}x` }), 401, 'CLIENT_KEY_INVALID');
      expect(await h.count('inquiries')).toBe(before);
      expect(h.mailer.sent).toEqual([]);
    });

    it('a failing acknowledgement mail does not fail the inquiry: 200 and the row is stored', async () => {
      const email = h.uniqueEmail('relay');
      h.mailer.failing = true;
      const res = await h.contact(undefined, validContact(email));
      h.mailer.failing = false;
      expect(res.statusCode, res.body).toBe(200);
      const { ticket_no } = res.json<{ ticket_no: string }>();
      expect(ticket_no).toMatch(TICKET);
      expect(await inquiry(ticket_no)).toMatchObject({ email, status: 'open', user_id: null });
      expect(h.mailer.sent).toEqual([]);
    });

    it('surrounding white space of the content is trimmed before it is stored and counted', async () => {
      const row = await expectAccepted(validContact(h.uniqueEmail('trim'), { purpose_detail: `  ${japaneseText(30)}\n ` }));
      expect(row.content).toBe(japaneseText(30));
      h.mailer.clear();
      await expectRefused(validContact(h.uniqueEmail('trim'), { purpose_detail: `   ${japaneseText(CONTENT_MIN - 1)}   ` }), { purpose_detail: [MIN_20] });
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('a member (bearer token)', () => {
    it('→ 200; the inquiry has the member\'s id and the member\'s stored name and address, not the payload\'s; the mail goes to the member', async () => {
      const m = await member({ last_name_kanji: '高橋', first_name_kanji: '美咲' });
      const stranger = h.uniqueEmail('stranger');
      const res = await h.contact(m.token, validContact(stranger, { last_name_kanji: '偽名', first_name_kanji: '太郎' }));
      expect(res.statusCode, res.body).toBe(200);
      const { ticket_no } = res.json<{ ticket_no: string }>();
      expect(ticket_no).toMatch(TICKET);
      expect(await inquiry(ticket_no)).toMatchObject({
        user_id: m.id,
        last_name_kanji: '高橋',
        first_name_kanji: '美咲',
        email: m.email,
        status: 'open',
      });
      expect(h.mailer.to(stranger)).toEqual([]);
      expect(h.mailer.sent).toHaveLength(1);
      expect(h.mailer.sent[0]).toMatchObject({ to: m.email, template: 'contactReceived', values: { name: '高橋 美咲', ticketNo: ticket_no } });
    });

    it('a member needs no client key', async () => {
      const m = await member();
      const res = await h.contact(m.token, validContact(m.email), { 'x-client-key': undefined });
      expect(res.statusCode, res.body).toBe(200);
      expect((await inquiry(res.json<{ ticket_no: string }>().ticket_no)).user_id).toBe(m.id);
    });

    it('an ended session (even with the client key) → 401 UNAUTHENTICATED, nothing stored', async () => {
      const m = await member();
      expect((await h.logout(m.token)).statusCode).toBe(204);
      const before = await h.count('inquiries');
      expectError(await h.contact(m.token, validContact(m.email), { 'x-client-key': CLIENT_KEY }), 401, 'UNAUTHENTICATED');
      expectError(await h.contact('not-a-token', validContact(m.email), { 'x-client-key': CLIENT_KEY }), 401, 'UNAUTHENTICATED');
      expect(await h.count('inquiries')).toBe(before);
      expect(h.mailer.sent).toEqual([]);
    });

    it('a failing mail does not fail a member\'s inquiry either', async () => {
      const m = await member();
      h.mailer.failing = true;
      const res = await h.contact(m.token, validContact(m.email));
      h.mailer.failing = false;
      expect(res.statusCode, res.body).toBe(200);
      expect((await inquiry(res.json<{ ticket_no: string }>().ticket_no)).user_id).toBe(m.id);
    });

    it('a member\'s payload is validated too', async () => {
      const m = await member();
      const before = await h.count('inquiries');
      expectError(await h.contact(m.token, validContact(m.email, { purpose_detail: japaneseText(CONTENT_MIN - 1) })), 400, 'VALIDATION', { purpose_detail: [MIN_20] });
      expectError(await h.contact(m.token, validContact(m.email, { job: '77' })), 400, 'VALIDATION', { job: [MASTER_UNKNOWN] });
      expect(await h.count('inquiries')).toBe(before);
      expect(h.mailer.sent).toEqual([]);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('validation', () => {
    it.each([CONTENT_MIN, CONTENT_MAX])('content of %i characters is accepted and stored whole', async (n) => {
      const row = await expectAccepted(validContact(h.uniqueEmail('len'), { purpose_detail: japaneseText(n) }));
      expect(row.content).toBe(japaneseText(n));
    });

    it.each<[string, Record<string, unknown>, Record<string, string[]>]>([
      // content: 20 to 200, no URL or HTML
      [`content of ${CONTENT_MIN - 1} characters`, { purpose_detail: japaneseText(CONTENT_MIN - 1) }, { purpose_detail: [MIN_20] }],
      [`content of ${CONTENT_MAX + 1} characters`, { purpose_detail: japaneseText(CONTENT_MAX + 1) }, { purpose_detail: [MAX_200] }],
      ['content empty (not given)', { purpose_detail: '' }, { purpose_detail: [required('purpose_detail')] }],
      ['content missing', { purpose_detail: undefined }, { purpose_detail: [required('purpose_detail')] }],
      ['content with https://', { purpose_detail: `${japaneseText(CONTENT_MIN)}https://example.jp` }, { purpose_detail: [NO_URL] }],
      ['content with http:', { purpose_detail: `http://example.jp ${japaneseText(CONTENT_MIN)}` }, { purpose_detail: [NO_URL] }],
      ['content with ftp:', { purpose_detail: `ftp://example.jp ${japaneseText(CONTENT_MIN)}` }, { purpose_detail: [NO_URL] }],
      ['content with www.', { purpose_detail: `${japaneseText(CONTENT_MIN)}www.example.jp` }, { purpose_detail: [NO_URL] }],
      ['content with <b>', { purpose_detail: `<b>${japaneseText(CONTENT_MIN)}</b>` }, { purpose_detail: [NO_URL] }],
      ['content with <script>', { purpose_detail: `${japaneseText(CONTENT_MIN)}<script>alert(1)</script>` }, { purpose_detail: [NO_URL] }],
      // the three selects
      ['job missing', { job: undefined }, { job: [required('job')] }],
      ['inquiry_type missing', { inquiry_type: undefined }, { inquiry_type: [required('inquiry_type')] }],
      ['inquiry_user_type missing', { inquiry_user_type: undefined }, { inquiry_user_type: [required('inquiry_user_type')] }],
      ['job 77 (not in the list)', { job: '77' }, { job: [MASTER_UNKNOWN] }],
      ['inquiry_type 77 (not in the list)', { inquiry_type: '77' }, { inquiry_type: [MASTER_UNKNOWN] }],
      ['inquiry_user_type 77 (not in the list)', { inquiry_user_type: '77' }, { inquiry_user_type: [MASTER_UNKNOWN] }],
      ['all three unknown', { job: '98', inquiry_type: '98', inquiry_user_type: '98' }, { job: [MASTER_UNKNOWN], inquiry_type: [MASTER_UNKNOWN], inquiry_user_type: [MASTER_UNKNOWN] }],
      ['inquiry_type not a code', { inquiry_type: 'abc' }, { inquiry_type: [SELECT] }],
      // the agreements
      ['privacy_checked false', { privacy_checked: false }, { privacy_checked: agreement('privacy_checked', 'const') }],
      ['agree_privacy false', { agree_privacy: false }, { agree_privacy: agreement('agree_privacy', 'const') }],
      ['privacy_checked missing', { privacy_checked: undefined }, { privacy_checked: agreement('privacy_checked', 'required') }],
      ['agree_privacy missing', { agree_privacy: undefined }, { agree_privacy: agreement('agree_privacy', 'required') }],
      ['agree_privacy "true" as text', { agree_privacy: 'true' }, { agree_privacy: agreement('agree_privacy', 'type', 'const') }],
      ['both agreements false', { privacy_checked: false, agree_privacy: false }, { privacy_checked: agreement('privacy_checked', 'const'), agree_privacy: agreement('agree_privacy', 'const') }],
      // names, as registration
      ['last_name_kanji missing', { last_name_kanji: undefined }, { last_name_kanji: [required('last_name_kanji')] }],
      ['first_name_kanji missing', { first_name_kanji: undefined }, { first_name_kanji: [required('first_name_kanji')] }],
      ['last_name_kanji with two full-width spaces', { last_name_kanji: '山　田　太' }, { last_name_kanji: [FAMILY_NAME] }],
      ['last_name_kanji with a half-width space', { last_name_kanji: '山田 太' }, { last_name_kanji: [FAMILY_NAME] }],
      ['last_name_kanji in Latin letters', { last_name_kanji: 'Yamada' }, { last_name_kanji: [FAMILY_NAME] }],
      ['first_name_kanji with a full-width space', { first_name_kanji: '太　郎' }, { first_name_kanji: [GIVEN_NAME] }],
      ['first_name_kanji with a half-width space', { first_name_kanji: '太 郎' }, { first_name_kanji: [GIVEN_NAME] }],
      ['first_name_kanji with digits', { first_name_kanji: '太郎2' }, { first_name_kanji: [GIVEN_NAME] }],
      [`last_name_kanji of ${NAME_MAX + 1} characters`, { last_name_kanji: '山'.repeat(NAME_MAX + 1) }, { last_name_kanji: [contactRules.message('last_name_kanji', 'maxLength')] }],
      // e-mail
      ['email missing', { email: undefined }, { email: [required('email')] }],
      ['email not an address', { email: 'not-an-email' }, { email: [EMAIL_FORMAT] }],
    ])('%s → 400 VALIDATION with the field message, nothing stored, no mail', async (_label, overrides, fields) => {
      await expectRefused(validContact(h.uniqueEmail('bad'), overrides), fields);
    });

    it.each<[string, Record<string, unknown>]>([
      ['last_name_kanji with one full-width space', { last_name_kanji: '山田　太' }],
      ['kana and kanji marks in names', { last_name_kanji: 'さいとう々ヶ', first_name_kanji: 'ユーキ' }],
      [`${NAME_MAX}-character names`, { last_name_kanji: '山'.repeat(NAME_MAX), first_name_kanji: '花'.repeat(contactRules.limit('first_name_kanji', 'maxLength')) }],
      ['job 99, inquiry_type 99, inquiry_user_type 99', { job: '99', inquiry_type: '99', inquiry_user_type: '99' }],
    ])('%s is accepted', async (_label, overrides) => {
      const row = await expectAccepted(validContact(h.uniqueEmail('good'), overrides));
      expect(row).toMatchObject(overrides);
    });

    it('an empty body → 400 VALIDATION with every required field\'s message', async () => {
      await expectRefused(
        {},
        {
          last_name_kanji: [required('last_name_kanji')],
          first_name_kanji: [required('first_name_kanji')],
          email: [required('email')],
          inquiry_user_type: [required('inquiry_user_type')],
          inquiry_type: [required('inquiry_type')],
          job: [required('job')],
          purpose_detail: [required('purpose_detail')],
          privacy_checked: agreement('privacy_checked', 'required'),
          agree_privacy: agreement('agree_privacy', 'required'),
        },
      );
    });

    it.each<[string, unknown]>([
      ['an array', [validContact('a@example.com')]],
      ['a string', 'please answer'],
      ['null', null],
    ])('%s as the body → 400 BAD_REQUEST', async (_label, body) => {
      expectError(await h.contact(undefined, body), 400, 'BAD_REQUEST');
    });
  });
});
