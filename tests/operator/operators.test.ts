// npm run operator -- operators add / list / disable / link, in-process against SQLite and
// PostgreSQL: how the first admin is made (add, then the mailed link opens the back office), the
// add-operator form's rules, refusals that save nothing, and one audit entry per change by the
// system user at the command line.
import { randomUUID } from 'node:crypto';
import { userInfo } from 'node:os';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { DATABASES, Harness, setUpOrFail } from '../support/api-harness';
import { loadConfig } from '../../src/server/config';
import { runOperator } from '../../src/server/operator/run';
import { say } from '../../src/server/operator/text';
import { ADMIN_COOKIE, CSRF_HEADER } from '../../src/server/admin/settings';
import { listOperators } from '../../src/server/admin/accounts';
import { RECORD_KINDS } from '../../src/shared/record-kinds';
import { FailingInserts, RecordingOutput, operator, operatorText } from './operator-support';

const text = operatorText;
const PASSWORD = 'Kanri-Umi-2025!';

describe.each(DATABASES)('operator: operators ($name)', ({ kind }) => {
  let h: Harness;

  setUpOrFail(async () => {
    h = await Harness.start(kind);
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(async () => {
    h.mailer.clear();
    h.mailer.failing = false;
    await h.db.deleteFrom('operator_sessions').execute();
    await h.db.deleteFrom('operator_setup_links').execute();
    await h.db.deleteFrom('operators').execute();
  });

  const run = (...argv: string[]) => operator(h, ...argv);
  let counter = 0;
  const newEmail = (label = 'op') => `${label}-${++counter}@office.example.jp`;
  const cliUser = `cli:${userInfo().username}`;

  const operatorOf = (email: string) => h.db.selectFrom('operators').selectAll().where('email', '=', email).executeTakeFirst();
  async function auditMark(): Promise<Set<string>> {
    return new Set((await h.db.selectFrom('audit_log').select('id').execute()).map((r) => r.id));
  }
  async function auditSince(mark: Set<string>) {
    const rows = await h.db.selectFrom('audit_log').selectAll().execute();
    return rows.filter((r) => !mark.has(r.id)).map((r) => ({ ...r, detail: JSON.parse(r.detail) as Record<string, unknown> }));
  }
  function keyMailedTo(email: string, base = loadConfig().publicUrl): string {
    const mail = h.mailer.to(email).filter((m) => m.template === 'operatorSetup').at(-1);
    if (!mail) throw new Error(`no set-up mail to ${email}`);
    const url = new URL(String(mail.values.url));
    expect(`${url.origin}${url.pathname}`).toBe(`${base}/admin/setup`);
    return url.searchParams.get('key')!;
  }
  const setUp = (key: string, password = PASSWORD) =>
    h.app.inject({ method: 'POST', url: '/v1/admin/setup', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ key, password, password_confirm: password }) });

  async function backOfficeLogin(email: string, password = PASSWORD) {
    const first = await h.app.inject({ method: 'POST', url: '/v1/admin/login', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ email, password }) });
    expect(first.statusCode, first.body).toBe(200);
    const code = h.mailer.lastCode(email);
    const res = await h.app.inject({ method: 'POST', url: '/v1/admin/login/code', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ flow: first.json<{ flow: string }>().flow, code }) });
    expect(res.statusCode, res.body).toBe(200);
    const cookie = res.cookies.find((c) => c.name === ADMIN_COOKIE)!;
    return { cookie: `${ADMIN_COOKIE}=${cookie.value}`, [CSRF_HEADER]: res.json<{ csrfToken: string }>().csrfToken };
  }

  // -------------------------------------------------------------------------------------------
  describe('operators add', () => {
    it('the first admin: invited, a set-up link mailed to PUBLIC_URL/admin/setup, one audit entry by the system user; the link opens the back office', async () => {
      const email = newEmail('first');
      const mark = await auditMark();
      const res = await run('operators', 'add', email, '--name', '管理 一郎', '--role', 'admin');
      expect(res.code, res.stderr).toBe(0);
      expect(res.stdout).toContain(say(text.operators.added, { name: '管理 一郎', email, role: '管理者（admin）' }));
      expect(res.stdout).toContain(email);
      expect(res.stdout).toContain('24時間');
      const row = await operatorOf(email);
      expect(row).toMatchObject({ name: '管理 一郎', role: 'admin', status: 'invited', password_hash: null });
      expect(h.mailer.sent.map((m) => [m.to, m.template])).toEqual([[email, 'operatorSetup']]);
      const entries = await auditSince(mark);
      expect(entries.map((e) => [e.action, e.actor_type, e.actor_label, e.operator_id, e.ip, e.target, e.detail])).toEqual([
        ['operators.add', 'cli', cliUser, null, null, email, { name: '管理 一郎', role: 'admin' }],
      ]);

      // The mail's link: a password, then the back office as an admin.
      expect((await setUp(keyMailedTo(email))).statusCode).toBe(204);
      const headers = await backOfficeLogin(email);
      const list = await h.app.inject({ method: 'GET', url: '/v1/admin/operators', headers });
      expect(list.statusCode, list.body).toBe(200);
      expect(list.json<{ items: Array<{ email: string; status: string }> }>().items).toContainEqual(expect.objectContaining({ email, status: 'active' }));
    });

    it('the address is stored canonical (trimmed, lower-case), the name trimmed; the link points at the configured PUBLIC_URL', async () => {
      const email = newEmail('canon');
      const output = new RecordingOutput();
      const code = await runOperator(['operators', 'add', `  ${email.toUpperCase()} `, '--name', '  事務局 花子 ', '--role', 'secretariat'], output, async () => ({
        db: h.db,
        mailer: h.mailer,
        publicUrl: 'https://members.example.jp',
        close: async () => {},
      }));
      expect(code, output.stderr).toBe(0);
      expect(await operatorOf(email)).toMatchObject({ email, name: '事務局 花子', role: 'secretariat' });
      keyMailedTo(email, 'https://members.example.jp');
    });

    it('a bad role, address or name, or none → exit 1 naming each fault and saying nothing was saved; no mail, no audit', async () => {
      const mark = await auditMark();
      const email = newEmail('bad');
      const role = await run('operators', 'add', email, '--name', '花子', '--role', 'root');
      expect(role.code).toBe(1);
      expect(role.stderr).toContain(say(text.errors.badRole, { role: 'root' }));
      expect(role.stderr).toContain('npm run operator -- operators add');

      const noRole = await run('operators', 'add', email, '--name', '花子');
      expect(noRole.code).toBe(1);
      expect(noRole.stderr).toContain(say(text.errors.badRole, { role: '' }));

      const address = await run('operators', 'add', 'not-an-address', '--name', '花子', '--role', 'admin');
      expect(address.code).toBe(1);
      expect(address.stderr).toContain('何も保存していません');
      expect(address.stderr).toContain(`${text.operators.columns.email}: メールアドレスの形式が正しくありません`);

      const name = await run('operators', 'add', email, '--role', 'admin');
      expect(name.code).toBe(1);
      expect(name.stderr).toContain(`${text.operators.columns.name}: 氏名を入力してください`);
      const long = await run('operators', 'add', email, '--name', 'あ'.repeat(51), '--role', 'admin');
      expect(long.code).toBe(1);
      expect(long.stderr).toContain(`${text.operators.columns.name}: 氏名は50文字以内で入力してください`);

      const none = await run('operators', 'add');
      expect(none.code).toBe(1);
      expect(none.stderr).toContain(text.errors.operatorEmailRequired);

      for (const res of [role, noRole, address, name, long]) expect(res.stdout).toBe('');
      expect(await h.db.selectFrom('operators').select('id').execute()).toEqual([]);
      expect(h.mailer.sent).toEqual([]);
      expect(await auditSince(mark)).toEqual([]);
    });

    it('an address already taken (in any spelling) → exit 1, nothing saved, no mail, no audit', async () => {
      const email = newEmail('taken');
      expect((await run('operators', 'add', email, '--name', '花子', '--role', 'secretariat')).code).toBe(0);
      h.mailer.clear();
      const mark = await auditMark();
      const res = await run('operators', 'add', email.toUpperCase(), '--name', '別人', '--role', 'admin');
      expect(res.code).toBe(1);
      expect(res.stderr).toBe(say(text.errors.operatorExists, { email }));
      expect(await operatorOf(email)).toMatchObject({ name: '花子', role: 'secretariat' });
      expect(h.mailer.sent).toEqual([]);
      expect(await auditSince(mark)).toEqual([]);
    });

    it('a relay that refuses the mail → exit 1 saying nothing was saved; no operator, no audit', async () => {
      const email = newEmail('relay');
      h.mailer.failing = true;
      const mark = await auditMark();
      const res = await run('operators', 'add', email, '--name', '花子', '--role', 'secretariat');
      expect(res.code).toBe(1);
      expect(res.stderr).toBe(say(text.errors.setupMailFailed, { email, nothing: text.errors.nothingAdded, detail: 'SMTP relay unavailable (fake)' }));
      expect(await operatorOf(email)).toBeUndefined();
      expect(await auditSince(mark)).toEqual([]);
    });

    it('a database that refuses the link after the mail went → exit 1: nothing saved, the mailed link opens nothing', async () => {
      const email = newEmail('disk');
      const mark = await auditMark();
      const res = await operator({ db: h.db.withPlugin(new FailingInserts('operator_setup_links')), mailer: h.mailer }, 'operators', 'add', email, '--name', '花子', '--role', 'admin');
      expect(res.code).toBe(1);
      expect(res.stderr).toBe(say(text.errors.setupNotSaved, { email, detail: 'insert into operator_setup_links failed (injected)' }));
      expect(await operatorOf(email)).toBeUndefined();
      expect(await auditSince(mark)).toEqual([]);
      expect((await setUp(keyMailedTo(email))).statusCode).toBe(400);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('operators list', () => {
    it('none yet → says how to add the first admin', async () => {
      const res = await run('operators', 'list');
      expect(res.code, res.stderr).toBe(0);
      expect(res.stdout).toBe(text.operators.none);
    });

    it('every operator with role and status in Japanese, and the count; no audit entry', async () => {
      const a = newEmail('list-a');
      const b = newEmail('list-b');
      await run('operators', 'add', a, '--name', '管理 一郎', '--role', 'admin');
      await run('operators', 'add', b, '--name', '自治体 次郎', '--role', 'municipality');
      await run('operators', 'disable', b);
      const mark = await auditMark();
      const res = await run('operators', 'list');
      expect(res.code, res.stderr).toBe(0);
      const [header, , ...rows] = res.out;
      expect(header).toContain(text.operators.columns.email);
      expect(rows.find((line) => line.includes(a))).toMatch(/管理 一郎\s+管理者（admin）\s+パスワード設定待ち（invited）/);
      expect(rows.find((line) => line.includes(b))).toMatch(/自治体 次郎\s+自治体（municipality）\s+無効（disabled）/);
      expect(res.out.at(-1)).toBe(say(text.operators.count, { count: 2 }));
      expect(await auditSince(mark)).toEqual([]);
      const extra = await run('operators', 'list', 'extra');
      expect(extra.code).toBe(1);
      expect(extra.stderr).toContain(say(text.errors.unexpectedArguments, { args: 'extra' }));
    });

    it('more operators than the declared page (schemas/records/operators.json): every one, in the order they were added (ties by address), as the web answers', async () => {
      const count = RECORD_KINDS.operators.pageSize * 2 + 5;
      const rows = Array.from({ length: count }, (_, i) => {
        // Two by two added in the same millisecond: the tie is broken by the address.
        const at = new Date(Date.UTC(2025, 3, 1) + Math.floor(i / 2)).toISOString();
        return { id: randomUUID(), email: `staff-${String(count - i).padStart(4, '0')}@example.com`, name: '事務局 太郎', role: 'secretariat', status: 'invited' as const, password_hash: null, created_at: at, updated_at: at };
      });
      await h.db.insertInto('operators').values(rows).execute();
      const expected = [...rows].sort((x, y) => x.created_at.localeCompare(y.created_at) || x.email.localeCompare(y.email)).map((r) => r.email);
      const listed = (await listOperators(h.db)).map((o) => o.email);
      expect(listed).toEqual(expected);
      const res = await run('operators', 'list');
      expect(res.code, res.stderr).toBe(0);
      expect(res.out.slice(2, -1).map((line) => line.split(/\s+/)[0])).toEqual(expected);
      expect(res.out.at(-1)).toBe(say(text.operators.count, { count }));
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('operators disable', () => {
    it('ends every session and voids the link; one audit entry; login then refused', async () => {
      const email = newEmail('disable');
      await run('operators', 'add', email, '--name', '事務局 花子', '--role', 'secretariat');
      expect((await setUp(keyMailedTo(email))).statusCode).toBe(204);
      const session = await backOfficeLogin(email);
      await run('operators', 'link', email);
      const pendingKey = keyMailedTo(email);
      const mark = await auditMark();

      const res = await run('operators', 'disable', email);
      expect(res.code, res.stderr).toBe(0);
      expect(res.stdout).toBe(say(text.operators.disabled, { name: '事務局 花子', email }));
      expect((await operatorOf(email))?.status).toBe('disabled');
      const me = await h.app.inject({ method: 'GET', url: '/v1/admin/session', headers: session });
      expect(me.statusCode).toBe(401);
      expect((await setUp(pendingKey)).statusCode).toBe(400);
      const login = await h.app.inject({ method: 'POST', url: '/v1/admin/login', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ email, password: PASSWORD }) });
      expect(login.statusCode).toBe(401);
      expect((await auditSince(mark)).map((e) => [e.action, e.actor_label, e.target, e.detail])).toEqual([['operators.disable', cliUser, email, { previous: 'active' }]]);
    });

    it('already disabled, or unknown → exit 1, nothing changed, no audit', async () => {
      const email = newEmail('twice');
      await run('operators', 'add', email, '--name', '花子', '--role', 'secretariat');
      expect((await run('operators', 'disable', email)).code).toBe(0);
      const mark = await auditMark();
      const again = await run('operators', 'disable', email);
      expect(again.code).toBe(1);
      expect(again.stderr).toBe(say(text.errors.operatorAlreadyDisabled, { name: '花子', email }));
      const unknown = await run('operators', 'disable', 'nobody@office.example.jp');
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toBe(say(text.errors.unknownOperator, { email: 'nobody@office.example.jp' }));
      expect(await auditSince(mark)).toEqual([]);
    });

    it('a database that fails → exit 1 saying nothing was changed; the operator stays active', async () => {
      const email = newEmail('fail');
      await run('operators', 'add', email, '--name', '花子', '--role', 'secretariat');
      const res = await operator({ db: h.db.withPlugin(new FailingInserts('audit_log')), mailer: h.mailer }, 'operators', 'disable', email);
      expect(res.code).toBe(1);
      expect(res.stderr).toBe(say(text.errors.notSaved, { detail: 'insert into audit_log failed (injected)' }));
      expect((await operatorOf(email))?.status).toBe('invited');
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('operators link', () => {
    it('mails a new link and voids the earlier ones; one audit entry', async () => {
      const email = newEmail('link');
      await run('operators', 'add', email, '--name', '花子', '--role', 'secretariat');
      const first = keyMailedTo(email);
      const mark = await auditMark();
      const res = await run('operators', 'link', email);
      expect(res.code, res.stderr).toBe(0);
      expect(res.out).toEqual([say(text.operators.linkSent, { email, lifetime: '24時間' }), text.operators.oldLinksVoid]);
      const second = keyMailedTo(email);
      expect(second).not.toBe(first);
      expect((await auditSince(mark)).map((e) => [e.action, e.actor_label, e.target])).toEqual([['operators.link', cliUser, email]]);
      expect((await setUp(first)).statusCode).toBe(400);
      expect((await setUp(second)).statusCode).toBe(204);
    });

    it('to a disabled operator: says that setting a password takes them back, and it does', async () => {
      const email = newEmail('back');
      await run('operators', 'add', email, '--name', '花子', '--role', 'secretariat');
      await run('operators', 'disable', email);
      const res = await run('operators', 'link', email);
      expect(res.code, res.stderr).toBe(0);
      expect(res.out.at(-1)).toBe(text.operators.disabledNote);
      expect((await setUp(keyMailedTo(email))).statusCode).toBe(204);
      expect((await operatorOf(email))?.status).toBe('active');
    });

    it('a relay that refuses the mail → exit 1, no new link: the earlier one still works; no audit', async () => {
      const email = newEmail('link-relay');
      await run('operators', 'add', email, '--name', '花子', '--role', 'secretariat');
      const first = keyMailedTo(email);
      h.mailer.failing = true;
      const mark = await auditMark();
      const res = await run('operators', 'link', email);
      expect(res.code).toBe(1);
      expect(res.stderr).toBe(say(text.errors.setupMailFailed, { email, nothing: text.errors.nothingLinked, detail: 'SMTP relay unavailable (fake)' }));
      expect(await auditSince(mark)).toEqual([]);
      expect((await setUp(first)).statusCode).toBe(204);
    });

    it('an unknown address → exit 1, no mail', async () => {
      const res = await run('operators', 'link', 'nobody@office.example.jp');
      expect(res.code).toBe(1);
      expect(res.stderr).toBe(say(text.errors.unknownOperator, { email: 'nobody@office.example.jp' }));
      expect(h.mailer.sent).toEqual([]);
    });
  });
});
