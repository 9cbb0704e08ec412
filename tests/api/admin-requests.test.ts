// Members' correction and deletion requests in the back office (issue 37 points 3 and 5,
// schemas/records/requests.json, ADR 042), on SQLite and PostgreSQL: the list (open ones, soonest
// due first, by kind, an overdue one marked; the view recorded with the members it showed), one
// request in full (recorded, naming the member), its handling (once: recorded, a notice and a mail,
// the answer on the member's 登録情報の開示), who may do it, and the member's detail listing their
// open requests.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { DATABASES, Harness, expectError, setUpOrFail } from '../support/api-harness';
import { operatorSession, type TestOperator } from '../support/admin-session';
import { asOperator, auditRows } from '../support/admin-records';
import { rulesOf } from '../support/schema-messages';

const handleForm = rulesOf('admin-request-handle');

describe.each(DATABASES)('members\' requests in the back office ($name)', ({ kind }) => {
  let h: Harness;
  let clerk: TestOperator;
  let town: TestOperator;

  setUpOrFail(async () => {
    h = await Harness.start(kind);
    clerk = await operatorSession(h.db, 'secretariat', '事務局 一郎');
    town = await operatorSession(h.db, 'municipality', '自治体 次郎');
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

  /** A member and the request they make on 登録情報の開示, due at `due` (moved there in the table). */
  async function requested(requestKind: 'correction' | 'deletion', due?: string) {
    const member = await h.registerMember();
    const res = await h.asMember('POST', '/v1/user/requests', member.token, { kind: requestKind, text: `${requestKind === 'correction' ? '生年月日を訂正' : '削除'}してください。` });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json<{ request: { id: string } }>().request.id;
    if (due) await h.db.updateTable('member_requests').set({ due_at: due }).where('id', '=', id).execute();
    return { member, id };
  }

  type Item = { id: string; kind: string; status: string; due_at: string; member_id: string; member_name: string; overdue?: true };
  const itemsOf = (res: { json: () => { items: Item[] } }) => res.json().items;

  it('lists the open ones soonest due first, by kind, marks the overdue one, and records the view with the members it showed', async () => {
    const late = await requested('correction', '2020-01-01T00:00:00.000Z');
    const soon = await requested('deletion', '2099-01-01T00:00:00.000Z');
    const later = await requested('correction', '2099-02-01T00:00:00.000Z');
    const res = await get('/v1/admin/requests?status=open&size=100');
    expect(res.statusCode, res.body).toBe(200);
    const ids = itemsOf(res).map((i) => i.id);
    const ours = ids.filter((id) => [late.id, soon.id, later.id].includes(id));
    expect(ours).toEqual([late.id, soon.id, later.id]);
    const dues = itemsOf(res).map((i) => i.due_at);
    expect(dues).toEqual([...dues].sort());
    const byId = new Map(itemsOf(res).map((i) => [i.id, i]));
    expect(byId.get(late.id)).toMatchObject({ kind: 'correction', status: 'open', member_id: late.member.id, member_name: '山田 太郎', overdue: true });
    expect(byId.get(soon.id)!.overdue).toBeUndefined();
    expect(res.json()).toMatchObject({ sort: 'due', bounded: false });

    const entry = (await auditRows(h)).at(-1)!;
    expect(entry).toMatchObject({ action: 'requests.list', operator_id: clerk.id });
    expect(JSON.parse(entry.detail)).toEqual({ filter: { status: 'open' }, sort: 'due', page: 1, results: expect.any(Number) });
    const shown = await h.db.selectFrom('audit_members').select('member_id').where('audit_id', '=', entry.id).execute();
    expect(shown.map((r) => r.member_id)).toEqual(expect.arrayContaining([late.member.id, soon.member.id, later.member.id]));

    const deletions = itemsOf(await get('/v1/admin/requests?status=open&kind=deletion&size=100'));
    expect(deletions.map((i) => i.id)).toContain(soon.id);
    expect(deletions.every((i) => i.kind === 'deletion')).toBe(true);
    // Without a status: every status (the screen's 「すべて」).
    expect(itemsOf(await get('/v1/admin/requests?size=100')).map((i) => i.id)).toEqual(expect.arrayContaining([late.id, soon.id, later.id]));
    expect((await get('/v1/admin/requests?status=closed')).statusCode).toBe(400);
  });

  it('shows one in full (recorded, naming the member), handles it once with a notice and a mail, and the member reads the answer', async () => {
    const { member, id } = await requested('correction', '2020-01-01T00:00:00.000Z');
    h.mailer.clear();
    const detail = await get(`/v1/admin/requests/${id}`);
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json()).toMatchObject({
      request: { id, kind: 'correction', status: 'open', text: '生年月日を訂正してください。', answer: null, handled_by: null, overdue: true },
      member: { id: member.id, email: member.email, status: 'active', name: '山田 太郎' },
    });
    expect((await auditRows(h)).at(-1)).toMatchObject({ action: 'requests.view', member_id: member.id, target: id, operator_id: clerk.id });

    // The member's detail lists their open request beside their downloads.
    const before = await get(`/v1/admin/members/${member.id}`);
    expect(before.json().requests).toEqual([expect.objectContaining({ id, kind: 'correction', status: 'open', overdue: true })]);

    // The form's own rules: the answer is required.
    expectError(await post(`/v1/admin/requests/${id}/handle`, { status: 'done' }), 400, 'VALIDATION', { answer: [handleForm.required('answer')] });

    const handled = await post(`/v1/admin/requests/${id}/handle`, { status: 'done', answer: '生年月日を1990年4月2日に訂正しました。' });
    expect(handled.statusCode, handled.body).toBe(200);
    expect(handled.json()).toMatchObject({ request: { id, status: 'done', answer: '生年月日を1990年4月2日に訂正しました。', handled_by: `${clerk.name} <${clerk.email}>` }, mail: { status: 'sent', to: member.email } });
    expect(handled.json().request.overdue).toBeUndefined();
    expect(h.mailer.to(member.email)).toEqual([expect.objectContaining({ template: 'requestAnswered', values: expect.objectContaining({ answer: '生年月日を1990年4月2日に訂正しました。' }) })]);
    expect((await auditRows(h)).at(-1)).toMatchObject({ action: 'requests.handle', member_id: member.id, target: id, operator_id: clerk.id });

    // Handled once: a second answer is refused, nothing changed or sent.
    expectError(await post(`/v1/admin/requests/${id}/handle`, { status: 'refused', answer: '対応できません。' }), 404, 'RECORD_NOT_FOUND');
    expect(h.mailer.to(member.email)).toHaveLength(1);
    expect((await h.db.selectFrom('member_requests').select(['status', 'answer']).where('id', '=', id).executeTakeFirstOrThrow())).toEqual({ status: 'done', answer: '生年月日を1990年4月2日に訂正しました。' });

    expect((await get(`/v1/admin/members/${member.id}`)).json().requests).toEqual([]);
    expect(itemsOf(await get('/v1/admin/requests?status=done&size=100')).map((i) => i.id)).toContain(id);
    expect(itemsOf(await get('/v1/admin/requests?status=open&size=100')).map((i) => i.id)).not.toContain(id);

    const doc = await h.asMember('GET', '/v1/user/disclosure', member.token);
    expect(doc.json().requests).toEqual([expect.objectContaining({ id, status: 'done', answer: '生年月日を1990年4月2日に訂正しました。' })]);
    const notices = await h.db.selectFrom('notifications').select('message').where('user_id', '=', member.id).execute();
    expect(notices.map((n) => n.message).join('\n')).toMatch(/訂正.*対応済み/);
  });

  it('a mail that fails leaves the request handled, its mail waiting in the outbox', async () => {
    const { member, id } = await requested('deletion');
    h.mailer.failing = true;
    const handled = await post(`/v1/admin/requests/${id}/handle`, { status: 'refused', answer: '法令で保存が必要な記録のため削除できません。' });
    expect(handled.statusCode, handled.body).toBe(200);
    expect(handled.json().mail).toMatchObject({ status: 'queued', to: member.email });
    expect((await h.db.selectFrom('mail_outbox').select(['template', 'sent_at']).where('id', '=', handled.json().mail.id).executeTakeFirstOrThrow())).toEqual({ template: 'requestAnswered', sent_at: null });
  });

  it('the roles that answer inquiries handle requests; a municipality opens none of it (403, nothing recorded)', async () => {
    const { id } = await requested('correction');
    const entries = (await auditRows(h)).length;
    expectError(await get('/v1/admin/requests', town), 403, 'FORBIDDEN');
    expectError(await get(`/v1/admin/requests/${id}`, town), 403, 'FORBIDDEN');
    expectError(await post(`/v1/admin/requests/${id}/handle`, { status: 'done', answer: '訂正しました。' }, town), 403, 'FORBIDDEN');
    expect((await auditRows(h)).length).toBe(entries);
    expect((await h.db.selectFrom('member_requests').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status).toBe('open');
    expectError(await get('/v1/admin/requests/00000000-0000-4000-8000-000000000009'), 404, 'RECORD_NOT_FOUND');
  });
});
