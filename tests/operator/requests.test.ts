// npm run operator -- requests list / show / handle, in-process against SQLite and PostgreSQL:
// members' correction and deletion requests made on 登録情報の開示, listed as the back office
// lists them (open by default, soonest due first, an overdue one marked, the view recorded for
// cli:<user>), shown in full, and handled once with the member's notice and mail.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { say } from '../../src/server/operator/text';
import { DATABASES, Harness, setUpOrFail } from '../support/api-harness';
import { operator, operatorText as text } from './operator-support';

describe.each(DATABASES)('operator: requests ($name)', ({ kind }) => {
  let h: Harness;

  setUpOrFail(async () => {
    h = await Harness.start(kind);
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(async () => {
    h.mailer.failing = false;
    h.mailer.clear();
    // Each test sees only its own requests.
    await h.db.deleteFrom('member_requests').execute();
  });

  const run = (...argv: string[]) => operator(h, ...argv);

  async function requested(requestKind: 'correction' | 'deletion', due: string) {
    const member = await h.registerMember();
    const res = await h.asMember('POST', '/v1/user/requests', member.token, { kind: requestKind, text: '生年月日を訂正してください。\n1990年4月2日です。' });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json<{ request: { id: string } }>().request.id;
    await h.db.updateTable('member_requests').set({ due_at: due }).where('id', '=', id).execute();
    return { member, id };
  }

  it('list: open ones soonest due first, the overdue one marked, by kind, recorded as the back office records its list', async () => {
    const late = await requested('correction', '2020-01-01T00:00:00.000Z');
    const soon = await requested('deletion', '2099-01-01T00:00:00.000Z');
    const list = await run('requests', 'list');
    expect(list.code, list.stderr).toBe(0);
    const rows = list.out.filter((line) => line.includes(late.id) || line.includes(soon.id));
    expect(rows).toHaveLength(2);
    expect(rows[0]).toContain(late.id);
    expect(rows[0]).toContain(text.requests.overdue);
    expect(rows[1]).not.toContain(text.requests.overdue);
    expect(list.out.at(-1)).toBe(say(text.requests.count, { count: 2 }));
    const entry = await h.db.selectFrom('audit_log').selectAll().where('action', '=', 'requests.list').orderBy('at', 'desc').executeTakeFirstOrThrow();
    expect(entry.actor_type).toBe('cli');

    const deletions = await run('requests', 'list', '--kind', 'deletion');
    expect(deletions.stdout).toContain(soon.id);
    expect(deletions.stdout).not.toContain(late.id);
    expect((await run('requests', 'list', '--status', 'done')).out).toEqual([text.requests.none]);
    const bad = await run('requests', 'list', '--status', 'closed');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(say(text.errors.badRequestStatus, { status: 'closed' }));
  });

  it('show, then handle once: the answer, the notice and the mail; a second handle is refused and changes nothing', async () => {
    const { member, id } = await requested('correction', '2099-01-01T00:00:00.000Z');
    h.mailer.clear();
    const shown = await run('requests', 'show', id);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('  1990年4月2日です。');
    expect(shown.stdout).toContain(member.email);
    expect(shown.stdout).toContain(text.requests.noAnswer);

    expect((await run('requests', 'handle', id, '--message', '訂正しました。')).code).toBe(1);
    expect((await run('requests', 'handle', id, '--done')).code).toBe(1);
    const handled = await run('requests', 'handle', id, '--done', '--message', '生年月日を訂正しました。');
    expect(handled.code, handled.stderr).toBe(0);
    expect(handled.out.at(-1)).toBe(say(text.requests.mailSent, { email: member.email }));
    expect(h.mailer.to(member.email).map((m) => m.template)).toEqual(['requestAnswered']);
    const row = await h.db.selectFrom('member_requests').select(['status', 'answer', 'handled_by']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'done', answer: '生年月日を訂正しました。', handled_by: expect.stringMatching(/^cli:/) });
    const entry = await h.db.selectFrom('audit_log').selectAll().where('action', '=', 'requests.handle').where('target', '=', id).execute();
    expect(entry).toEqual([expect.objectContaining({ actor_type: 'cli', member_id: member.id })]);

    const again = await run('requests', 'handle', id, '--refused', '--message', '対応できません。');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(say(text.errors.unknownRequest, { id }));
    expect(h.mailer.to(member.email)).toHaveLength(1);
    expect((await run('requests', 'show', id)).stdout).toContain('生年月日を訂正しました。');
  });
});
