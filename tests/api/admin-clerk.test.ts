// The clerk's day (issue 34 point 6), the items that are not lists: a reversal takes the decision's
// notice back from my page; the correction mail's preview is the mail the correction sends. (The
// operators' own password reset is in admin-auth.test.ts, beside the set-up link.) On SQLite and
// PostgreSQL.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { DATABASES, Harness, setUpOrFail, testMailLinks, validContact } from '../support/api-harness';
import { operatorSession, type TestOperator } from '../support/admin-session';
import { asOperator, auditRows } from '../support/admin-records';
import operatorTexts from '../../messages/operator.ja.json';
import { renderMail } from '../../src/server/mail/mailer';

describe.each(DATABASES)("the clerk's day ($name)", ({ kind }) => {
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

  const post = (url: string, body?: unknown, who: TestOperator = clerk) => asOperator(h, who, 'POST', url, body ?? {});

  describe('a correction', () => {
    it('is previewed as the mail it sends (to, subject, body with the answer and the reason), nothing saved or sent; then sent as previewed', async () => {
      const member = await h.createMember(h.uniqueEmail('asker'), 'Asker-Pass-1!');
      const session = await h.loginWithCode(member);
      expect((await h.contact(session.token, validContact(member.email))).statusCode).toBe(200);
      const inquiry = await h.db.selectFrom('inquiries').select(['id', 'ticket_no']).where('user_id', '=', member.id).executeTakeFirstOrThrow();
      const answered = await post(`/v1/admin/inquiries/${inquiry.id}/answer`, { answer: '次のとおりご案内します。' });
      expect(answered.statusCode, answered.body).toBe(201);
      h.mailer.clear();
      const audit = (await auditRows(h)).length;
      const answers = () => h.db.selectFrom('inquiry_answers').select('id').where('inquiry_id', '=', inquiry.id).execute();
      const url = `/v1/admin/inquiries/${inquiry.id}/answers/${answered.json().answer_id}/correction`;
      const body = { answer: '正しくはこちらです。', note: '日付に誤りがありました。' };

      const preview = await post(`${url}/preview`, body);
      expect(preview.statusCode, preview.body).toBe(200);
      const mail = preview.json<{ mail: { to: string; subject: string; body: string } }>().mail;
      expect(mail.to).toBe(member.email);
      expect(mail.body).toContain(body.answer);
      expect(mail.body).toContain(body.note);
      expect(h.mailer.sent).toEqual([]);
      expect(await answers()).toHaveLength(1);
      expect(await auditRows(h)).toHaveLength(audit);

      expect((await post(url, body)).statusCode).toBe(201);
      const sent = h.mailer.to(member.email).at(-1)!;
      expect(sent.template).toBe('inquiryCorrection');
      const rendered = renderMail('inquiryCorrection', sent.values, testMailLinks);
      expect({ subject: rendered.subject, body: rendered.text }).toEqual({ subject: mail.subject, body: mail.body });
    });
  });

  describe('a reversal', () => {
    it("retracts the decision's notice in its transaction: my page shows the reversal alone, and decided again shows the new decision alone", async () => {
      const member = await h.registerMember();
      const myPage = async () => (await h.notifications(member.token)).json<Array<{ message: string }>>().map((n) => n.message);
      const before = await myPage();
      const approved = await post(`/v1/admin/applications/${member.registerNumber}/decision`, { decision: 'approved' });
      expect(approved.statusCode, approved.body).toBe(200);
      expect(await myPage()).toEqual([operatorTexts.memberNotice.applicationApproved, ...before]);

      const reversed = await post(`/v1/admin/applications/${member.registerNumber}/reversal`, { reason: '確認漏れがありました。' }, admin);
      expect(reversed.statusCode, reversed.body).toBe(200);
      const shown = await myPage();
      expect(shown).not.toContain(operatorTexts.memberNotice.applicationApproved);
      expect(shown[0]).toContain(member.registerNumber);
      expect(shown.slice(1)).toEqual(before);
      // Kept in the office's list as retracted, and named in the reversal's audit entry.
      const retracted = await h.db.selectFrom('notifications').select(['id', 'retracted_at']).where('user_id', '=', member.id).where('message', '=', operatorTexts.memberNotice.applicationApproved).execute();
      expect(retracted).toEqual([{ id: expect.any(String), retracted_at: expect.any(String) }]);
      const entry = (await auditRows(h)).filter((row) => row.action === 'applications.reverse').at(-1)!;
      expect(JSON.parse(entry.detail)).toMatchObject({ from: 'approved', retracted: [retracted[0]!.id] });

      // Declined after the reversal, then reversed again: each time only what stands is shown.
      expect((await post(`/v1/admin/applications/${member.registerNumber}/decision`, { decision: 'declined', reason: '書類に不備がありました。' })).statusCode).toBe(200);
      const declined = await myPage();
      expect(declined[0]).toBe(operatorTexts.memberNotice.applicationDeclined);
      expect(declined[1]).toContain(member.registerNumber);
      expect((await post(`/v1/admin/applications/${member.registerNumber}/reversal`, { reason: '再審査します。' }, admin)).statusCode).toBe(200);
      const again = await myPage();
      expect(again).not.toContain(operatorTexts.memberNotice.applicationDeclined);
      expect(again.filter((message) => message.includes(member.registerNumber))).toHaveLength(2);
    });
  });
});
