// Issue "Limits that stop attackers and never lock a member out", points 11 and 12, through the
// API on both databases (and, for the messages, through the contact form's precompiled
// validator the browser runs).
//   11  The contact form is no relay: a visitor's acknowledgement echoes nothing the visitor
//       typed; at most 3 acknowledgements per recipient a day (the inquiry is always stored);
//       the link/markup ban catches full-width, scheme-less and obfuscated links and bidi controls.
//   12  No member is locked out by the site's own rules: a carrier address with dots before @ or
//       in a row, and every phone length registration stores, are accepted wherever they are typed
//       again; the mailer reaches such an address over SMTP.
import { freePort, freePorts } from '../../bench/stack';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderMail } from '../../src/server/mail/mailer';
import { createMailer } from '../../src/server/mail/mailer';
import { startMailCatcher } from '../../src/server/mail/catcher';
import { canonicalEmail } from '../../src/shared/canonical-email';
import { japanDay } from '../../src/server/services/clock';
import type { FormModule } from '../../src/engine/SchemaForm';
import { buildFormModule } from '../support/forms';
import { browserFieldErrors } from '../support/field-messages';
import { DATABASES, Harness, expectError, japaneseText, setUpOrFail, validContact, testMailLinks } from '../support/api-harness';
import { rulesOf } from '../support/schema-messages';

const contact = rulesOf('contact');
const NO_LINKS = contact.message('purpose_detail', 'not');
const BAD_CHARACTERS = contact.message('purpose_detail', 'pattern');
const CONTENT_MIN = contact.limit('purpose_detail', 'minLength');
const ACKS_PER_DAY = 3;

/** An inquiry text of at least the minimum length around `text`. */
const inquiryWith = (text: string) => `${text}${japaneseText(Math.max(0, CONTENT_MIN - [...text].length))}`;

/** Links and markup written so that the old ban let them through. */
const HIDDEN_LINKS = [
  'ｈｔｔｐｓ：／／evil-example.com/login',
  'ＨＴＴＰ：／／ｅｖｉｌ．ｅｘａｍｐｌｅ．ｃｏｍ',
  'evil-example.com/login',
  'ｅｖｉｌ－ｅｘａｍｐｌｅ．ｃｏｍ／ｌｏｇｉｎ',
  'ｗｗｗ．example．jp',
  'hxxps://evil-example.com',
  'hxxp[:]//evil-example[.]com',
  'h**p://evil-example.com',
  'h t t p s://evil-example.com',
  'ttps://evil-example.com',
  'ログインはこちら evil.example.co.jp/account から',
];

/** Right-to-left overrides and other invisible direction marks (spoof an address or a file name). */
const BIDI = ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069', '\u200E', '\u200F', '\u061C'];

/** What members write: prose with numbers, decimals, times, an address, an English sentence. */
const ORDINARY_TEXTS = [
  '平日は東京で働き、週末は長野で畑仕事をしながら暮らしてみたいと考えています。',
  '家賃は今の1.5倍までなら払えます。広さは2.5倍くらいあると助かります。',
  '面談は10:30〜11:00、または14:00以降でお願いします。よろしくお願いいたします。',
  '予算：月5万円／交通費込み。対象の自治体を教えていただけますか。',
  'docomo.ne.jpのアドレスでもメールを受け取れるか教えてください。',
  '登録したtaro..yamada.@docomo.ne.jp宛てに返信をお願いします。',
  'I moved to Nagano last year. Thank you for your help with the programme.',
  'HTTPやWWWといった言葉には詳しくありませんが、申し込み方法を教えてください。',
  '楽しみですwww 地域のお祭りにも参加したいです。楽しみですｗｗｗ。よろしくお願いします。',
  'Ver.2.0の資料（No.3／No.4）を拝見しました。e.g.の意味を教えてください。',
];

/** A Japanese carrier address from before the carriers enforced RFC 5322: dots before @ and in a row. */
const CARRIER = 'taro..yamada.@docomo.ne.jp';

let contactForm: FormModule;
beforeAll(async () => {
  contactForm = await buildFormModule('contact');
});

describe.each(DATABASES)('contact and identity limits ($name)', ({ kind }) => {
  let h: Harness;
  setUpOrFail(async () => {
    h = await Harness.start(kind);
  });
  afterAll(async () => {
    vi.useRealTimers();
    await h?.close();
  });
  beforeEach(() => {
    h.mailer.failing = false;
    h.mailer.clear();
  });

  it('11(a) a visitor\'s acknowledgement quotes the ticket number and a fixed text only; a member\'s keeps the content', async () => {
    const email = h.uniqueEmail('relay');
    const lure = '至急ご確認ください。口座が凍結されました。下記の番号へお電話のうえ暗証番号をお伝えください。';
    const res = await h.contact(undefined, validContact(email, { last_name_kanji: '山田銀行', first_name_kanji: '本店', purpose_detail: lure }));
    expect(res.statusCode, res.body).toBe(200);
    const { ticket_no: ticketNo } = res.json<{ ticket_no: string }>();
    // The inquiry itself is kept whole for the secretariat.
    const row = await h.db.selectFrom('inquiries').selectAll().where('ticket_no', '=', ticketNo).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ content: lure, last_name_kanji: '山田銀行', email });

    const mails = h.mailer.to(email);
    expect(mails).toHaveLength(1);
    // Nothing but the number reaches the template, so no wording change can leak the text.
    expect(mails[0].values).toEqual({ ticketNo });
    const { subject, text, html } = renderMail(mails[0].template, mails[0].values, testMailLinks);
    expect(subject).toContain(ticketNo);
    expect(text).toContain(`受付番号：${ticketNo}`);
    for (const typed of [lure.slice(0, 8), '山田銀行', '本店', email]) {
      expect(text).not.toContain(typed);
      expect(html).not.toContain(typed);
      expect(subject).not.toContain(typed);
    }
    expect(text).toMatch(/ます。/); // polite Japanese

    // A member's acknowledgement goes to the member's own verified address and may quote them.
    const member = await h.createMember(h.uniqueEmail('member'), 'Member-Pass-1!', { last_name_kanji: '高橋', first_name_kanji: '美咲' });
    const { token } = await h.loginWithCode(member);
    h.mailer.clear();
    const content = inquiryWith('地域体験メニューの申し込み方法を教えてください。');
    const own = await h.contact(token, validContact('someone-else@example.com', { purpose_detail: content }));
    expect(own.statusCode, own.body).toBe(200);
    expect(h.mailer.to('someone-else@example.com')).toEqual([]);
    const [ack] = h.mailer.to(member.email);
    expect(renderMail(ack.template, ack.values, testMailLinks).text).toContain(content);
    expect(renderMail(ack.template, ack.values, testMailLinks).text).toContain('高橋 美咲 様');
  });

  it('11(b) at most 3 acknowledgements per recipient a day, counted atomically under 30 parallel requests; every inquiry is stored and answered alike', async () => {
    const recipient = h.uniqueEmail('target');
    // One mailbox in several spellings (letter case, full-width): one count.
    const spellings = [recipient, recipient.toUpperCase(), recipient.replace('@', '＠'), ` ${recipient} `];
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => h.contact(undefined, validContact(spellings[i % spellings.length], { purpose_detail: inquiryWith(`お問い合わせ${i}件目です。`) }))));
    for (const res of answers) {
      expect(res.statusCode, res.body).toBe(200);
      expect(Object.keys(res.json())).toEqual(['ticket_no']);
    }
    const tickets = new Set(answers.map((r) => r.json<{ ticket_no: string }>().ticket_no));
    expect(tickets.size).toBe(30);
    const stored = await h.db.selectFrom('inquiries').select('ticket_no').where('email', '=', canonicalEmail(recipient)).execute();
    expect(stored).toHaveLength(30);
    expect(h.mailer.to(recipient)).toHaveLength(ACKS_PER_DAY);
    // Nothing waits in the outbox to be sent later either.
    const queued = await h.db.selectFrom('mail_outbox').select('id').where('to_address', '=', canonicalEmail(recipient)).execute();
    expect(queued).toHaveLength(ACKS_PER_DAY);

    // The next one: stored, the same answer, no mail; another address is not held back.
    const later = await h.contact(undefined, validContact(recipient));
    expect(later.statusCode, later.body).toBe(200);
    expect(Object.keys(later.json())).toEqual(['ticket_no']);
    expect(h.mailer.to(recipient)).toHaveLength(ACKS_PER_DAY);
    const other = h.uniqueEmail('other');
    expect((await h.contact(undefined, validContact(other))).statusCode).toBe(200);
    expect(h.mailer.to(other)).toHaveLength(1);

    // A new day in Japan: acknowledgements again.
    const tomorrow = new Date(Date.now() + 24 * 3600_000);
    expect(japanDay(tomorrow)).not.toBe(japanDay(new Date()));
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    vi.setSystemTime(tomorrow);
    try {
      expect((await h.contact(undefined, validContact(recipient))).statusCode).toBe(200);
    } finally {
      vi.useRealTimers();
    }
    expect(h.mailer.to(recipient)).toHaveLength(ACKS_PER_DAY + 1);
  });

  it('11(c) the link and markup ban catches full-width, scheme-less and obfuscated links and bidi controls, in the form and on the server alike; ordinary Japanese passes', async () => {
    const refused: Array<[string, string]> = [
      ...HIDDEN_LINKS.map((text) => [inquiryWith(`詳しくは ${text} をご覧ください。`), NO_LINKS] as [string, string]),
      ...BIDI.map((mark) => [inquiryWith(`請求書${mark}fdp.exe${mark}を確認してください。`), BAD_CHARACTERS] as [string, string]),
    ];
    for (const [text, message] of refused) {
      const before = await h.count('inquiries');
      const body = validContact(h.uniqueEmail('ban'), { purpose_detail: text });
      expectError(await h.contact(undefined, body), 400, 'VALIDATION', { purpose_detail: [message] });
      expect(await h.count('inquiries'), JSON.stringify(text)).toBe(before);
      // The browser says the same, before anything is sent.
      expect(browserFieldErrors(contactForm, body).purpose_detail, JSON.stringify(text)).toEqual([message]);
    }
    expect(h.mailer.sent).toEqual([]);

    for (const text of ORDINARY_TEXTS) {
      const body = validContact(h.uniqueEmail('prose'), { purpose_detail: inquiryWith(text) });
      const res = await h.contact(undefined, body);
      expect(res.statusCode, `${text}: ${res.body}`).toBe(200);
      expect(browserFieldErrors(contactForm, body).purpose_detail, text).toBeUndefined();
    }
  });

  it('12 a carrier address with dots before @ and in a row registers, logs in (also on the old screen), resets, writes to contact and changes to another', async () => {
    // Registration STEP1 takes it as typed (any letter case, full-width too), STEP2 stores it.
    const registered = await h.registerMember(CARRIER);
    const user = await h.db.selectFrom('users').select(['email', 'phone', 'birthday']).where('id', '=', registered.id).executeTakeFirstOrThrow();
    expect(user.email).toBe(CARRIER);
    h.mailer.clear();

    // Login with a code, typed in capitals.
    const typed = 'Taro..Yamada.@DOCOMO.ne.jp';
    expect((await h.verify(typed, registered.password)).statusCode).toBe(200);
    const login = await h.login({ email: typed, password: registered.password, code: h.mailer.lastCode(CARRIER) });
    expect(login.statusCode, login.body).toBe(200);

    // The earliest login: the address alone asks for a code.
    const early = await h.post('/v1/user/verify', { email: CARRIER });
    expect(early.statusCode, early.body).toBe(200);
    const oldLogin = await h.login({ email: CARRIER, password: registered.password, code: h.mailer.lastCode(CARRIER) });
    expect(oldLogin.statusCode, oldLogin.body).toBe(200);

    // Password reset identity.
    const code = await h.requestResetCode({ email: CARRIER, birthday: user.birthday, phone: user.phone });
    expect(code).toMatch(/^\d{5}$/);

    // Contact, as a visitor writing from that address.
    const asked = await h.contact(undefined, validContact(CARRIER));
    expect(asked.statusCode, asked.body).toBe(200);
    expect(h.mailer.to(CARRIER).at(-1)?.template).toMatch(/^contactReceived/);

    // E-mail change to another carrier address, and the old screen's e-mail authentication.
    const { token } = login.json<{ token: string }>();
    const next = '.hanako..sato.@ezweb.ne.jp';
    expect((await h.requestEmailChange(token, next)).statusCode).toBe(200);
    const changed = await h.confirmEmailChange(token, next, h.mailer.lastCode(next));
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await h.db.selectFrom('users').select('email').where('id', '=', registered.id).executeTakeFirstOrThrow()).email).toBe(next);
    const link = await h.post('/v1/email/register', { email: 'jiro..suzuki.@softbank.ne.jp', flow: 'link' });
    expect(link.statusCode, link.body).toBe(200);
  });

  it('12 every phone length registration stores (12 and 13 digits too) passes the password-reset identity', async () => {
    for (const phone of ['0120-12345678', '0123456789012', '03-1234-5678', '090-1234-5678']) {
      const m = await h.registerMember(h.uniqueEmail('phone'), { phone });
      const user = await h.db.selectFrom('users').select(['phone', 'birthday']).where('id', '=', m.id).executeTakeFirstOrThrow();
      expect(user.phone).toBe(phone.replace(/-/g, ''));
      for (const typed of [user.phone, phone]) {
        const res = await h.requestPasswordReset({ email: m.email, birthday: user.birthday, phone: typed });
        expect(res.statusCode, `${phone} typed as ${typed}: ${res.body}`).toBe(200);
      }
    }
  });
});

describe('12 the mailer reaches a carrier address over SMTP', () => {
  it('nodemailer quotes the local part in RCPT TO, an SMTP server takes it, and so does the embedded catcher', async () => {
    // A relay as RFC 5321 has it (smtp-server, told not to apply its stricter dot rule to a
    // quoted local part, as Postfix does not): what exactly arrives in the envelope.
    const recipients: string[] = [];
    const relay = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      lenientAddressParsing: true,
      logger: false,
      onRcptTo(address, _session, callback) {
        recipients.push(address.address);
        callback();
      },
      onData(stream, _session, callback) {
        stream.resume();
        stream.on('end', () => callback());
      },
    });
    const relayPort = await freePort();
    await new Promise<void>((resolve) => relay.listen(relayPort, '127.0.0.1', resolve));
    try {
      await createMailer(`smtp://127.0.0.1:${relayPort}`, 'Test <no-reply@example.jp>', 5000, testMailLinks).send(CARRIER, 'passwordChanged', { name: '山田 太郎' });
      expect(recipients).toEqual([`"${CARRIER.split('@')[0]}"@docomo.ne.jp`]);
    } finally {
      await new Promise<void>((resolve) => relay.close(() => resolve()));
    }

    // The catcher `npm start` embeds (what members' mail goes to by default).
    const [smtpPort, webPort] = await freePorts(2);
    const catcher = await startMailCatcher(smtpPort, webPort);
    try {
      await createMailer(`smtp://127.0.0.1:${smtpPort}`, 'Test <no-reply@example.jp>', 5000, testMailLinks).send(CARRIER, 'passwordChanged', { name: '山田 太郎' });
      const caught = (await (await fetch(`http://127.0.0.1:${webPort}/email`)).json()) as Array<{ envelope: { to: Array<{ address: string }> }; subject: string }>;
      expect(caught.flatMap((m) => m.envelope.to.map((t) => t.address))).toEqual([`"${CARRIER.split('@')[0]}"@docomo.ne.jp`]);
    } finally {
      await catcher.close();
    }
  });
});
