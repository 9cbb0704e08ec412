// The back office's records (issue 23, points 4–7): applications (list, search, detail, decide,
// reverse; a withdrawn member's application leaves the pending list), notices (to one and to
// all with the recipients count, scheduled, retracted), inquiries (answer, correction, assign,
// done) and members (search, view, CSV); the statistics: tests/api/admin-stats.test.ts. On
// SQLite and PostgreSQL.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { DATABASES, Harness, expectError, setUpOrFail, validContact } from '../support/api-harness';
import { operatorSession, type TestOperator } from '../support/admin-session';
import { applicant, asOperator, auditRows, membersReads } from '../support/admin-records';
import { rulesOf } from '../support/schema-messages';
import { csvCell, EXPORT_BATCH, exportMembers } from '../../src/server/admin/services/members';
import { loadSchemaSet } from '../../src/shared/validation/schema-files';
import operatorTexts from '../../messages/operator.ja.json';
import { renderMail } from '../../src/server/mail/mailer';
import { RECORD_KINDS } from '../../src/shared/record-kinds';
import { COUNT_BOUND, listRecords } from '../../src/server/admin/records/list';

const decisionForm = rulesOf('admin-decision');
const noticeForm = rulesOf('admin-notice');

describe.each(DATABASES)('back office records ($name)', ({ kind }) => {
  let h: Harness;
  let clerk: TestOperator;
  let admin: TestOperator;

  setUpOrFail(async () => {
    h = await Harness.start(kind);
    clerk = await operatorSession(h.db, 'secretariat', '事務局 一郎');
    admin = await operatorSession(h.db, 'admin', '管理 花子');
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(() => {
    h.mailer.failing = false;
    h.mailer.clear();
  });

  const get = (url: string, who: TestOperator = clerk) => asOperator(h, who, 'GET', url);
  const post = (url: string, body?: unknown, who: TestOperator = clerk) => asOperator(h, who, 'POST', url, body ?? {});

  describe('applications', () => {
    it('lists pending newest first, finds by name, address and 受付番号, and shows one in full with labels from the schemas (the view recorded)', async () => {
      const older = await applicant(h, { last_name_kanji: '古田', first_name_kanji: '一子', last_name_alpha: 'Furuta', first_name_alpha: 'ICHIKO' }, '2025-01-01T00:00:00.000Z');
      const newer = await applicant(h, { last_name_kanji: '新井', first_name_kanji: '二郎' }, '2025-02-01T00:00:00.000Z');
      const list = await get('/v1/admin/applications?status=pending&size=100');
      expect(list.statusCode, list.body).toBe(200);
      const numbers = list.json().items.map((i: { register_number: string }) => i.register_number);
      expect(numbers.indexOf(newer.registerNumber)).toBeLessThan(numbers.indexOf(older.registerNumber));
      expect(list.json()).toMatchObject({ page: 1, size: 100 });

      // A name as a clerk types it: whole or the start of it, the two parts with or without a space,
      // roman in any case and either order, full-width letters too.
      for (const q of ['古田 一子', '古田', '古田一子', '古田　一', 'furuta', 'Ichiko Furuta', 'ＦＵＲＵＴＡ ｉｃｈｉｋｏ', older.email, older.registerNumber.toLowerCase()]) {
        const found = await get(`/v1/admin/applications?q=${encodeURIComponent(q)}`);
        expect(found.json().items.map((i: { register_number: string }) => i.register_number), q).toEqual([older.registerNumber]);
        expect(found.json().total).toBe(1);
      }
      // LIKE's own characters are text here, not wildcards.
      for (const q of ['%', '_', '古%', '\\']) expect((await get(`/v1/admin/applications?q=${encodeURIComponent(q)}`)).json().total, q).toBe(0);
      // A family name with a variation selector (stored as typed) is found by its plain kanji.
      const tsuji = await applicant(h, { last_name_kanji: '辻\u{E0100}', first_name_kanji: 'ダイスケ' });
      expect((await get(`/v1/admin/applications?q=${encodeURIComponent('辻 ダイスケ')}`)).json().items.map((i: { register_number: string }) => i.register_number)).toEqual([tsuji.registerNumber]);

      const before = (await auditRows(h)).length;
      const detail = await get(`/v1/admin/applications/${older.registerNumber}`);
      expect(detail.statusCode, detail.body).toBe(200);
      const body = detail.json();
      expect(body.application).toMatchObject({ register_number: older.registerNumber, status: 'pending', name: '古田 一子', email: older.email });
      expect(body.member.fields).toContainEqual(expect.objectContaining({ label: '郵便番号', display: '〒100-0001' }));
      expect(body.member.fields.find((f: { name: string }) => f.name === 'purpose')).toMatchObject({ value: '1,3' });
      expect(body.purposes.map((p: { value: string }) => p.value)).toEqual(['1', '3']);
      expect(body.decisions).toEqual([]);
      const audit = (await auditRows(h)).slice(before);
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({ action: 'applications.view', member_id: older.id, target: older.registerNumber, operator_id: clerk.id });
    });

    it('previews the decision (nothing saved), declines with the reason in the mail and on my page, and a reversal by admin returns it to pending', async () => {
      const a = await applicant(h);
      const preview = await post(`/v1/admin/applications/${a.registerNumber}/preview`, { decision: 'declined', reason: '書類に不備がありました。' });
      expect(preview.statusCode, preview.body).toBe(200);
      expect(preview.json().mail.body).toContain('書類に不備がありました。');
      expect(preview.json().member).toEqual({ name: '山田 花子', email: a.email });
      expect(h.mailer.sent).toEqual([]);
      expect((await h.db.selectFrom('applications').select('status').where('id', '=', a.applicationId).executeTakeFirstOrThrow()).status).toBe('pending');

      // Declining needs a reason: the form's own message, nothing changed.
      expectError(await post(`/v1/admin/applications/${a.registerNumber}/decision`, { decision: 'declined' }), 400, 'VALIDATION', { reason: [decisionForm.required('reason')] });

      const declined = await post(`/v1/admin/applications/${a.registerNumber}/decision`, { decision: 'declined', reason: '書類に不備がありました。' });
      expect(declined.statusCode, declined.body).toBe(200);
      expect(declined.json()).toMatchObject({ application: { status: 'declined' }, mail: { status: 'sent', to: a.email } });
      expect(h.mailer.to(a.email)).toEqual([expect.objectContaining({ template: 'applicationDeclined', values: expect.objectContaining({ reason: '書類に不備がありました。' }) })]);
      expectError(await post(`/v1/admin/applications/${a.registerNumber}/decision`, { decision: 'approved' }), 409, 'ALREADY_DECIDED');

      // Only admin reverses.
      expectError(await post(`/v1/admin/applications/${a.registerNumber}/reversal`, { reason: '再審査します。' }), 403, 'FORBIDDEN');
      const reversed = await post(`/v1/admin/applications/${a.registerNumber}/reversal`, { reason: '確認漏れがありました。' }, admin);
      expect(reversed.statusCode, reversed.body).toBe(200);
      expect(reversed.json().application.status).toBe('pending');
      expect(h.mailer.to(a.email).at(-1)).toMatchObject({ template: 'applicationReversed', values: { reason: '確認漏れがありました。' } });
      const notices = await h.db.selectFrom('notifications').select('message').where('user_id', '=', a.id).orderBy('created_at').execute();
      expect(notices.map((n) => n.message)).toContain(operatorTexts.memberNotice.applicationDeclined);
      expect(notices.at(-1)!.message).toContain(a.registerNumber);

      const detail = await get(`/v1/admin/applications/${a.registerNumber}`);
      expect(detail.json().decisions).toEqual([
        expect.objectContaining({ kind: 'decision', decision: 'declined', reason: '書類に不備がありました。', reversed_by: expect.objectContaining({ reason: '確認漏れがありました。' }) }),
        expect.objectContaining({ kind: 'reversal', decision: 'pending' }),
      ]);
      const approved = await post(`/v1/admin/applications/${a.registerNumber}/decision`, { decision: 'approved' });
      expect(approved.json().application.status).toBe('approved');
    });

    it('a mail failure leaves the decision done and says the mail waits in the outbox', async () => {
      const a = await applicant(h);
      h.mailer.failing = true;
      const res = await post(`/v1/admin/applications/${a.registerNumber}/decision`, { decision: 'approved' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().mail.status).toBe('queued');
      const queued = await h.db.selectFrom('mail_outbox').select(['sent_at', 'template']).where('id', '=', res.json().mail.id).executeTakeFirstOrThrow();
      expect(queued).toEqual({ sent_at: null, template: 'applicationApproved' });
    });

    it("a withdrawn member's application leaves the pending list and cannot be decided", async () => {
      const a = await applicant(h);
      await h.db.updateTable('users').set({ status: 'withdrawn', withdrawn_at: new Date().toISOString() }).where('id', '=', a.id).execute();
      const pending = await get(`/v1/admin/applications?status=pending&q=${a.registerNumber}`);
      expect(pending.json().items).toEqual([]);
      const all = await get(`/v1/admin/applications?q=${a.registerNumber}`);
      expect(all.json().items).toEqual([expect.objectContaining({ register_number: a.registerNumber, member_status: 'withdrawn' })]);
      expectError(await post(`/v1/admin/applications/${a.registerNumber}/decision`, { decision: 'approved' }), 409, 'MEMBER_WITHDRAWN');
      expect(h.mailer.sent).toEqual([]);
    });

    it('an unknown 受付番号 → 404 RECORD_NOT_FOUND', async () => {
      expectError(await get('/v1/admin/applications/R20250101-999999'), 404, 'RECORD_NOT_FOUND');
    });
  });

  describe('notices', () => {
    it('to one member: preview names them, the notice shows on their my page; to all: the recipients count is the active members', async () => {
      const a = await applicant(h);
      const member = await h.createMember(h.uniqueEmail('notice-reader'), 'Notice-Pass-1!');
      const session = await h.loginWithCode(member);
      const preview = await post('/v1/admin/notices/preview', { audience: 'one', register_number: a.registerNumber, message: 'ご案内です。' });
      expect(preview.json()).toMatchObject({ recipients: 1, member: { name: '山田 花子', email: a.email } });
      expectError(await post('/v1/admin/notices/preview', { audience: 'one', message: 'ご案内です。' }), 400, 'VALIDATION', { register_number: [noticeForm.required('register_number')] });

      const sent = await post('/v1/admin/notices', { audience: 'one', register_number: a.registerNumber, message: '個別のご案内です。' });
      expect(sent.statusCode, sent.body).toBe(201);
      expect(sent.json()).toMatchObject({ recipients: 1, notice: { audience: 'one', status: 'published', register_number: a.registerNumber } });

      const active = Number((await h.db.selectFrom('users').select((eb) => eb.fn.countAll().as('n')).where('status', '=', 'active').executeTakeFirstOrThrow()).n);
      const all = await post('/v1/admin/notices/preview', { audience: 'all', message: '全員へのご案内です。' });
      expect(all.json().recipients).toBe(active);
      const toAll = await post('/v1/admin/notices', { audience: 'all', message: '全員へのご案内です。' });
      expect(toAll.json()).toMatchObject({ recipients: active, notice: { audience: 'all', status: 'published' } });
      const mine = await h.notifications(session.token);
      expect(mine.json().map((n: { message: string }) => n.message)).toContain('全員へのご案内です。');
      expect(mine.json().map((n: { message: string }) => n.message)).not.toContain('個別のご案内です。');
      const audit = (await auditRows(h)).filter((row) => row.target === toAll.json().notice.id);
      expect(audit).toHaveLength(1);
      expect(JSON.parse(audit[0]!.detail)).toMatchObject({ audience: 'all', recipients: active });
    });

    it('a scheduled notice is not on my page before publish_at; retracting one takes it off my page', async () => {
      const member = await h.createMember(h.uniqueEmail('schedule-reader'), 'Notice-Pass-1!');
      const session = await h.loginWithCode(member);
      const later = new Date(Date.now() + 3600_000).toISOString();
      const scheduled = await post('/v1/admin/notices', { audience: 'all', message: '来週のご案内です。', publish_at: later });
      expect(scheduled.json().notice).toMatchObject({ status: 'scheduled', publish_at: later });
      const now = await post('/v1/admin/notices', { audience: 'all', message: '本日のご案内です。' });
      let mine = (await h.notifications(session.token)).json().map((n: { message: string }) => n.message);
      expect(mine).toContain('本日のご案内です。');
      expect(mine).not.toContain('来週のご案内です。');
      // Japan time without a zone: 09:00 in Japan is 00:00 UTC.
      const japan = await post('/v1/admin/notices', { audience: 'all', message: '日本時間のご案内です。', publish_at: '2099-04-01T09:00' });
      expect(japan.json().notice.publish_at).toBe('2099-04-01T00:00:00.000Z');

      const retracted = await post(`/v1/admin/notices/${now.json().notice.id}/retract`);
      expect(retracted.statusCode, retracted.body).toBe(200);
      expect(retracted.json().notice.status).toBe('retracted');
      mine = (await h.notifications(session.token)).json().map((n: { message: string }) => n.message);
      expect(mine).not.toContain('本日のご案内です。');
      expectError(await post(`/v1/admin/notices/${now.json().notice.id}/retract`), 409, 'NOTICE_RETRACTED');
      const list = await get('/v1/admin/notices?size=100');
      expect(list.json().items.find((n: { id: string }) => n.id === now.json().notice.id)).toMatchObject({ status: 'retracted', created_by: expect.stringContaining('事務局 一郎') });
    });
  });

  describe('inquiries', () => {
    it('answer (preview, mail, answered), correction mail, assign, done; each in the thread', async () => {
      const member = await h.createMember(h.uniqueEmail('asker'), 'Asker-Pass-1!');
      const session = await h.loginWithCode(member);
      const sent = await h.contact(session.token, validContact(member.email));
      expect(sent.statusCode, sent.body).toBe(200);
      const inquiry = await h.db.selectFrom('inquiries').select(['id', 'ticket_no']).where('user_id', '=', member.id).executeTakeFirstOrThrow();
      h.mailer.clear();

      const list = await get('/v1/admin/inquiries?status=open&size=100');
      expect(list.json().items).toContainEqual(expect.objectContaining({ id: inquiry.id, ticket_no: inquiry.ticket_no, status: 'open' }));

      const preview = await post(`/v1/admin/inquiries/${inquiry.id}/answer/preview`, { answer: '次のとおりご案内します。' });
      expect(preview.json().mail).toMatchObject({ to: member.email });
      expect(preview.json().mail.body).toContain('次のとおりご案内します。');
      expect(h.mailer.sent).toEqual([]);

      const answered = await post(`/v1/admin/inquiries/${inquiry.id}/answer`, { answer: '次のとおりご案内します。' });
      expect(answered.statusCode, answered.body).toBe(201);
      expect(answered.json().mail.status).toBe('sent');
      expect(h.mailer.to(member.email)).toEqual([expect.objectContaining({ template: 'inquiryAnswered' })]);
      expectError(await post(`/v1/admin/inquiries/${inquiry.id}/answer`, { answer: 'もう一度' }), 409, 'ALREADY_ANSWERED');

      const corrected = await post(`/v1/admin/inquiries/${inquiry.id}/answers/${answered.json().answer_id}/correction`, { answer: '正しくはこちらです。', note: '日付に誤りがありました。' });
      expect(corrected.statusCode, corrected.body).toBe(201);
      expect(h.mailer.to(member.email).at(-1)).toMatchObject({ template: 'inquiryCorrection', values: { answer: '正しくはこちらです。', note: '日付に誤りがありました。' } });
      const detailOfMember = await h.contactDetail(session.token, inquiry.id);
      expect(JSON.stringify(detailOfMember.json())).toContain('正しくはこちらです。');

      expectError(await post(`/v1/admin/inquiries/${inquiry.id}/assign`, { operator_id: '00000000-0000-0000-0000-000000000000' }), 400, 'VALIDATION');
      const assigned = await post(`/v1/admin/inquiries/${inquiry.id}/assign`, { operator_id: clerk.id });
      expect(assigned.json().assigned_to).toEqual({ id: clerk.id, name: clerk.name });

      const done = await post(`/v1/admin/inquiries/${inquiry.id}/done`);
      expect(done.json()).toMatchObject({ status: 'closed', previous: 'answered' });
      expectError(await post(`/v1/admin/inquiries/${inquiry.id}/done`), 409, 'INQUIRY_CLOSED');

      const thread = await get(`/v1/admin/inquiries/${inquiry.id}`);
      expect(thread.json().inquiry).toMatchObject({ status: 'closed', assigned_to: { id: clerk.id }, content: validContact(member.email).purpose_detail });
      expect(thread.json().answers).toEqual([
        expect.objectContaining({ answer: '次のとおりご案内します。', mail_status: 'sent' }),
        expect.objectContaining({ answer: '正しくはこちらです。', note: '日付に誤りがありました。', corrects: answered.json().answer_id, mail_status: 'sent' }),
      ]);
      expect(thread.json().mails.map((m: { template: string }) => m.template)).toEqual(['inquiryAnswered', 'inquiryCorrection']);
      // Each mail as the member received it: its subject, filled (not the template's name).
      expect(thread.json().mails.map((m: { subject: string }) => m.subject)).toEqual(h.mailer.to(thread.json().inquiry.recipient.email).map((m) => renderMail(m.template, m.values, { supportUrl: '', supportPhone: '', supportHours: '', loginUrl: '' }).subject));
      expect(thread.json().mails[0].subject).toContain(thread.json().inquiry.ticket_no);
    });
  });

  describe('members', () => {
    it('search and view (both recorded), with applications, inquiries and notices', async () => {
      const a = await applicant(h, { last_name_kanji: '検索', first_name_kanji: '太郎' });
      const before = (await auditRows(h)).length;
      const found = await get(`/v1/admin/members?q=${encodeURIComponent('検索 太郎')}`);
      expect(found.json().items).toEqual([expect.objectContaining({ id: a.id, register_number: a.registerNumber, name: '検索 太郎', status: 'active' })]);
      const view = await get(`/v1/admin/members/${a.id}`);
      expect(view.statusCode, view.body).toBe(200);
      expect(view.json()).toMatchObject({ member: { id: a.id, email: a.email }, applications: [{ register_number: a.registerNumber, status: 'pending' }], inquiries: [], notices: [] });
      const audit = (await auditRows(h)).slice(before);
      expect(audit.map((r) => r.action)).toEqual(['members.search', 'members.view']);
      expect(JSON.parse(audit[0]!.detail)).toMatchObject({ q: '検索 太郎' });
      expect(audit[1]).toMatchObject({ member_id: a.id });
    });

    it('the CSV: BOM, CRLF, RFC 4180 quoting, formula guard, only active members who agreed to mail; recorded with columns and filter', async () => {
      const agreed = await applicant(h, { last_name_kanji: '=HYPERLINK("x")', first_name_kanji: '様', address_current: '東京都港区1-1, "A"棟' });
      const refused = await applicant(h, { mail_opt: '0' });
      const gone = await applicant(h);
      await h.db.updateTable('users').set({ status: 'withdrawn' }).where('id', '=', gone.id).execute();
      const columns = await get('/v1/admin/members/export-columns');
      const names = columns.json().map((c: { name: string }) => c.name);
      expect(names).toEqual(expect.arrayContaining(['email', 'register_number', 'last_name_kanji', 'address_current', 'mail_opt']));

      expectError(await get('/v1/admin/members/export.csv?columns=nonsense'), 400, 'VALIDATION');
      const res = await get('/v1/admin/members/export.csv?columns=email,register_number,last_name_kanji,address_current,mail_opt');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      const bytes = res.rawPayload;
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const text = bytes.subarray(3).toString('utf8');
      const lines = text.split('\r\n');
      expect(lines.at(-1)).toBe('');
      expect(text.replace(/\r\n/g, '')).not.toMatch(/\n/);
      expect(lines[0]).toBe('メールアドレス,受付番号,姓,住所,おすすめ情報メール'.split(',').map((l, i) => (i < 2 ? l : columns.json().find((c: { name: string }) => c.name === ['last_name_kanji', 'address_current', 'mail_opt'][i - 2]).label)).join(','));
      const row = lines.find((line) => line.startsWith(agreed.email));
      expect(row).toBe(`${agreed.email},${agreed.registerNumber},"'=HYPERLINK(""x"")","東京都港区1-1, ""A""棟",受け取る`);
      expect(text).not.toContain(refused.email);
      expect(text).not.toContain(gone.email);
      const entry = (await auditRows(h)).at(-1)!;
      expect(entry.action).toBe('members.export');
      expect(JSON.parse(entry.detail)).toEqual({ columns: ['email', 'register_number', 'last_name_kanji', 'address_current', 'mail_opt'], filter: { mail_opt: true, status: 'active' } });
    });

    it('the CSV keeps a postal code\'s and a phone\'s leading 0 in their display form (060-0001, 090-1234-5678), as a spreadsheet opening it shows them', async () => {
      const member = await applicant(h, { zip_current: '0600001', phone: '09012345678' });
      const fixed = await applicant(h, { zip_current: '0600001', phone: '0112345678' });
      const res = await get('/v1/admin/members/export.csv?columns=email,zip_current,phone');
      const lines = res.rawPayload.subarray(3).toString('utf8').split('\r\n');
      expect(lines.find((line) => line.startsWith(member.email))).toBe(`${member.email},060-0001,090-1234-5678`);
      expect(lines.find((line) => line.startsWith(fixed.email))).toBe(`${fixed.email},060-0001,011-234-5678`);
    });

    it('the CSV is written batch by batch: the first rows leave before the next batch is read, and no query holds more than one batch of members', async () => {
      const many = EXPORT_BATCH * 2 + 7;
      const at = Date.parse('2001-01-01T00:00:00.000Z');
      const rows = Array.from({ length: many }, (_, i) => ({
        id: randomUUID(), email: `stream-${i}-${kind}@example.com`, status: 'active' as const, password_hash: 'x', mail_opt: '1',
        created_at: new Date(at + i * 1000).toISOString(), updated_at: new Date(at).toISOString(), last_name_kanji: '流', first_name_kanji: `${i}`,
      }));
      const own = await Harness.start(kind);
      try {
        for (let i = 0; i < rows.length; i += 200) await own.db.insertInto('users').values(rows.slice(i, i + 200)).execute();
        // Every read of the members: how many rows each query handed over.
        const { plugin, reads } = membersReads();
        const counting = own.db.withPlugin(plugin);
        const csv = await exportMembers(counting, loadSchemaSet(), { actor: { type: 'cli', user: 'test' }, ip: null }, ['email', 'first_name_kanji']);
        const pages = csv[Symbol.asyncIterator]();
        expect((await pages.next()).value).toMatch(/^\uFEFF/);
        const firstRows = (await pages.next()).value as string;
        expect(firstRows.startsWith(`stream-0-${kind}@example.com,0\r\n`)).toBe(true);
        expect(reads).toEqual([EXPORT_BATCH]); // the first rows are out; the second batch is unread
        let text = firstRows;
        for (let page = await pages.next(); !page.done; page = await pages.next()) text += page.value;
        const lines = text.split('\r\n').filter((line) => line.startsWith('stream-'));
        expect(lines).toHaveLength(many);
        expect(lines.at(-1)).toBe(`stream-${many - 1}-${kind}@example.com,${many - 1}`);
        expect(Math.max(...reads)).toBe(EXPORT_BATCH);
        expect(reads).toEqual([EXPORT_BATCH, EXPORT_BATCH, 7]);
      } finally {
        await own.close();
      }
    });

    it('csvCell guards every formula start and quotes as RFC 4180', () => {
      expect(['=1', '+1', '-1', '@a', '\tx', '\rx'].map(csvCell)).toEqual(["'=1", "'+1", "'-1", "'@a", "'\tx", `"'\rx"`]);
      // The full-width forms a spreadsheet reads as the same formula starts.
      expect(['＝1+1', '＋1', '－1', '＠SUM(A1)'].map(csvCell)).toEqual(["'＝1+1", "'＋1", "'－1", "'＠SUM(A1)"]);
      expect(csvCell('a,b')).toBe('"a,b"');
      expect(csvCell('say "hi"')).toBe('"say ""hi"""');
      expect(csvCell('two\nlines')).toBe('"two\nlines"');
      expect(csvCell('plain')).toBe('plain');
    });
  });


  // Issue 34 point 1: every list comes from its kind's declaration (schemas/records/<kind>.json).
  describe('record kinds from their declaration', () => {
    const numbersOf = (res: { json: () => { items: Array<{ register_number: string }> } }) => res.json().items.map((i) => i.register_number);

    it("applications: a period of Japan days (today's), newest or oldest first, the view recorded with its filter", async () => {
      const day = '2031-05-07';
      // 00:30 and 23:30 in Japan on 7 May; the day before ends at 15:00 UTC on the 6th.
      const early = await applicant(h, {}, '2031-05-06T15:30:00.000Z');
      const late = await applicant(h, {}, '2031-05-07T14:30:00.000Z');
      const before = await applicant(h, {}, '2031-05-06T14:59:00.000Z');
      const after = await applicant(h, {}, '2031-05-07T15:00:00.000Z');
      const newest = await get(`/v1/admin/applications?applied_from=${day}&applied_to=${day}`);
      expect(newest.statusCode, newest.body).toBe(200);
      expect(numbersOf(newest)).toEqual([late.registerNumber, early.registerNumber]);
      expect(newest.json()).toMatchObject({ total: 2, bounded: false, sort: 'newest' });
      const oldest = await get(`/v1/admin/applications?applied_from=${day}&applied_to=${day}&sort=oldest&status=pending`);
      expect(numbersOf(oldest)).toEqual([early.registerNumber, late.registerNumber]);
      expect(numbersOf(await get(`/v1/admin/applications?applied_from=2031-05-06&applied_to=2031-05-06`))).toEqual([before.registerNumber]);
      expect(numbersOf(await get(`/v1/admin/applications?applied_from=2031-05-08&sort=oldest`))[0]).toBe(after.registerNumber);
      expect((await get('/v1/admin/applications?applied_from=20310507')).statusCode).toBe(400);
      const entry = (await auditRows(h)).at(-1)!;
      expect(entry).toMatchObject({ action: 'applications.list', operator_id: clerk.id });
      expect(JSON.parse(entry.detail)).toEqual({ filter: { applied_from: '2031-05-08' }, sort: 'oldest', page: 1, results: expect.any(Number) });
    });

    it('members: browsable without a search, newest first, by status, prefecture, registration period and mail consent', async () => {
      const at = (d: number) => `2032-01-0${d}T03:00:00.000Z`;
      const hokkaido = await applicant(h, { address_current: '北海道札幌市中央区北1条西2-1', mail_opt: '0' }, at(1));
      const kanagawa = await applicant(h, { address_current: '神奈川県横浜市中区1-1', mail_opt: '1' }, at(2));
      const gone = await applicant(h, { address_current: '北海道函館市1-1', mail_opt: '1' }, at(3));
      await h.db.updateTable('users').set({ status: 'withdrawn' }).where('id', '=', gone.id).execute();
      const ids = async (query: string) => {
        const params = new URLSearchParams({ registered_from: '2032-01-01', registered_to: '2032-01-09', ...Object.fromEntries(new URLSearchParams(query)) });
        const res = await get(`/v1/admin/members?${params}`);
        expect(res.statusCode, res.body).toBe(200);
        return res.json().items.map((i: { id: string }) => i.id);
      };
      expect(await ids('')).toEqual([gone.id, kanagawa.id, hokkaido.id]);
      expect(await ids('sort=oldest')).toEqual([hokkaido.id, kanagawa.id, gone.id]);
      expect(await ids(`prefecture=${encodeURIComponent('北海道')}`)).toEqual([gone.id, hokkaido.id]);
      expect(await ids(`prefecture=${encodeURIComponent('北海道')}&status=active`)).toEqual([hokkaido.id]);
      expect(await ids('mail_opt=true')).toEqual([gone.id, kanagawa.id]);
      expect(await ids('registered_to=2032-01-01')).toEqual([hokkaido.id]);
      const one = (await get(`/v1/admin/members?registered_from=2032-01-02&registered_to=2032-01-02`)).json();
      expect(one.items).toEqual([expect.objectContaining({ id: kanagawa.id, prefecture: '神奈川県', register_number: kanagawa.registerNumber })]);
      const entry = (await auditRows(h)).at(-1)!;
      expect(entry.action).toBe('members.search');
      expect(JSON.parse(entry.detail)).toMatchObject({ q: '', filter: { registered_from: '2032-01-02', registered_to: '2032-01-02' }, page: 1, results: 1 });
    });

    it('a column or a filter added to a copy of a declaration is in the answer; the list function is the routes\' and the operator tool\'s', async () => {
      const member = await applicant(h, { gender: 'male', address_current: '沖縄県那覇市1-1' }, '2033-03-03T03:00:00.000Z');
      const kind = RECORD_KINDS.members;
      const copy = {
        ...kind,
        columns: [...kind.columns, { name: 'mail_opt', label: 'records.mailConsent' }],
        filters: [...kind.filters, { name: 'gender', type: 'select' as const, label: 'fields.name', column: 'users.gender', options: ['male', 'female'] }],
      };
      const schemas = await loadSchemaSet();
      const page = await listRecords<Record<string, unknown>>(h.db, schemas, copy, { filters: { gender: 'male', registered_from: '2033-03-03', registered_to: '2033-03-03' } });
      expect(page.items).toEqual([expect.objectContaining({ id: member.id, mail_opt: '1', prefecture: '沖縄県' })]);
      expect((await listRecords(h.db, schemas, copy, { filters: { gender: 'female', registered_from: '2033-03-03', registered_to: '2033-03-03' } })).items).toEqual([]);
      // Without the declared filter the same request is not narrowed by it.
      expect((await listRecords(h.db, schemas, kind, { filters: { gender: 'female', registered_from: '2033-03-03', registered_to: '2033-03-03' } })).items).toHaveLength(1);
    });

    it('counts at most 1,000 rows and says when the count is a bound; a deep page is the OFFSET page', async () => {
      const base = Date.parse('2034-01-01T00:00:00.000Z');
      const rows = Array.from({ length: COUNT_BOUND + 5 }, (_, i) => ({ id: randomUUID(), user_id: null, message: `一斉 ${i}`, created_at: new Date(base + i * 1000).toISOString() }));
      for (let i = 0; i < rows.length; i += 200) await h.db.insertInto('notifications').values(rows.slice(i, i + 200)).execute();
      const first = await get('/v1/admin/notices?size=20');
      expect(first.json()).toMatchObject({ total: COUNT_BOUND, bounded: true });
      // Page 51 of 20 (rows 1000–1019) is read from the anchor at row 999, as OFFSET would give it.
      const deep = await get('/v1/admin/notices?size=20&page=51');
      const expected = await h.db.selectFrom('notifications').select('id').orderBy('created_at', 'desc').orderBy('id', 'desc').limit(20).offset(1000).execute();
      expect(deep.json().items.map((i: { id: string }) => i.id)).toEqual(expected.map((r) => r.id));
      const narrow = await get('/v1/admin/audit?action=nothing.such', admin);
      expect(narrow.json()).toMatchObject({ total: 0, bounded: false });
    });

    it('the export follows the list\'s filters (prefecture, status, period, mail consent), recorded with them; without any, active members who agreed to mail', async () => {
      const okinawa = await applicant(h, { address_current: '沖縄県石垣市1-1', mail_opt: '0' }, '2035-02-02T03:00:00.000Z');
      const other = await applicant(h, { address_current: '沖縄県那覇市1-1', mail_opt: '1' }, '2035-02-03T03:00:00.000Z');
      const res = await get(`/v1/admin/members/export.csv?columns=email&prefecture=${encodeURIComponent('沖縄県')}&registered_from=2035-02-02&registered_to=2035-02-02`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.body.split('\r\n').slice(1).filter(Boolean)).toEqual([okinawa.email]);
      expect(JSON.parse((await auditRows(h)).at(-1)!.detail)).toEqual({ columns: ['email'], filter: { prefecture: '沖縄県', registered_from: '2035-02-02', registered_to: '2035-02-02' } });
      const agreed = await get(`/v1/admin/members/export.csv?columns=email&prefecture=${encodeURIComponent('沖縄県')}&mail_opt=true&registered_from=2035-02-01`);
      expect(agreed.body.split('\r\n').slice(1).filter(Boolean)).toEqual([other.email]);
      expect(JSON.parse((await auditRows(h)).at(-1)!.detail).filter).toEqual({ prefecture: '沖縄県', mail_opt: true, registered_from: '2035-02-01' });
      const all = await get('/v1/admin/members/export.csv?columns=email');
      expect(all.body).toContain(other.email);
      expect(all.body).not.toContain(okinawa.email);
    });
  });
});
