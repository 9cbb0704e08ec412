// 登録情報の開示 (issue 37, docs/decisions/040): the member's data as one document, its downloads
// (recorded in the audit log, confirmed by mail), the office's accesses from the audit log, and
// requests for a correction or deletion, on SQLite and PostgreSQL. The coverage test reads the
// database's own catalogue: a migration that adds a table or a column fails it until
// src/server/disclosure/coverage.ts says where the disclosure shows it, or why it does not.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DATABASES, Harness, setUpOrFail, testConfig, validContact, type Member } from '../support/api-harness';
import { operatorSession, type TestOperator } from '../support/admin-session';
import { asOperator } from '../support/admin-records';
import { createServerValidation } from '../../src/server/validation';
import { DISCLOSURE_COVERAGE, MIGRATOR_TABLES } from '../../src/server/disclosure/coverage';
import { OFFICE_NAME } from '../../src/server/disclosure/document';
import { handleMemberRequest, listMemberRequests } from '../../src/server/disclosure/requests';
import { createOutbox } from '../../src/server/mail/outbox';
import disclosureSchema from '../../schemas/api/user-disclosure.json';
import admin from '../../messages/admin.ja.json';
import catalogue from '../../schemas/catalogue.json';
import type { Db } from '../../src/server/db/connect';

type Doc = Record<string, Array<Record<string, unknown>>> & { generated_at: string };

/** Every table of the database with its columns, from the database's own catalogue (generated
 *  columns included: SQLite's table_xinfo). */
async function catalogueOf(db: Db, kind: 'sqlite' | 'postgres'): Promise<Map<string, string[]>> {
  const tables = new Map<string, string[]>();
  if (kind === 'sqlite') {
    const names = await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(db);
    for (const { name } of names.rows) {
      const columns = await sql<{ name: string }>`select name from pragma_table_xinfo(${name})`.execute(db);
      tables.set(name, columns.rows.map((c) => c.name));
    }
  } else {
    const rows = await sql<{ table_name: string; column_name: string }>`
      select c.table_name, c.column_name from information_schema.columns c
      join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
      where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'`.execute(db);
    for (const row of rows.rows) tables.set(row.table_name, [...(tables.get(row.table_name) ?? []), row.column_name]);
  }
  for (const name of MIGRATOR_TABLES) tables.delete(name);
  return tables;
}

const GROUPS = Object.keys(disclosureSchema.properties).filter((key) => (disclosureSchema.properties as Record<string, { type?: unknown }>)[key].type === 'array');

describe.each(DATABASES)('登録情報の開示 ($name)', ({ kind }) => {
  let h: Harness;
  let office: TestOperator;
  const validation = createServerValidation();
  const validate = validation.ajv.getSchema('api.user-disclosure.json')!;

  setUpOrFail(async () => {
    h = await Harness.start(kind);
    office = await operatorSession(h.db, 'secretariat', '事務 花子');
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(() => h.mailer.clear());

  const disclosure = async (token: string) => {
    const res = await h.asMember('GET', '/v1/user/disclosure', token);
    expect(res.statusCode, res.body).toBe(200);
    const doc = res.json<Doc>();
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
    return doc;
  };

  describe('coverage: every table and column is declared', () => {
    it('each table of the database is in DISCLOSURE_COVERAGE, and each column of a table with member data is shown in a group or withheld with a reason', async () => {
      const tables = await catalogueOf(h.db, kind);
      expect([...tables.keys()].sort()).toEqual(Object.keys(DISCLOSURE_COVERAGE).sort());
      for (const [table, columns] of tables) {
        const coverage = DISCLOSURE_COVERAGE[table]!;
        if (!coverage.member) {
          expect(coverage.why, table).not.toBe('');
          continue;
        }
        expect(columns.sort(), table).toEqual(Object.keys(coverage.columns).sort());
        for (const [column, covered] of Object.entries(coverage.columns)) {
          if ('group' in covered) expect(GROUPS, `${table}.${column}`).toContain(covered.group);
          else expect(covered.withheld.length, `${table}.${column}`).toBeGreaterThan(10);
        }
      }
    });

    it('the check itself fails on a new column with member data, and on a new table', async () => {
      await sql`create table if not exists probe_member_notes (user_id text, note text)`.execute(h.db);
      await sql`alter table users add column probe_nickname text`.execute(h.db);
      try {
        const tables = await catalogueOf(h.db, kind);
        expect([...tables.keys()]).toContain('probe_member_notes');
        expect(Object.keys(DISCLOSURE_COVERAGE)).not.toContain('probe_member_notes');
        expect(tables.get('users')).toContain('probe_nickname');
        expect(Object.keys((DISCLOSURE_COVERAGE.users as { columns: object }).columns)).not.toContain('probe_nickname');
      } finally {
        await sql`drop table probe_member_notes`.execute(h.db);
        await sql`alter table users drop column probe_nickname`.execute(h.db);
      }
    });

    it('a member with data in every table that holds some: every group a column is shown in has it, and the document is what its schema says', async () => {
      const member = await h.registerMember();
      const { token } = await h.loginWithCode(member);
      expect((await h.contact(token, validContact(member.email))).statusCode).toBe(200);
      const inquiry = await h.db.selectFrom('inquiries').select(['id', 'ticket_no']).where('user_id', '=', member.id).executeTakeFirstOrThrow();
      expect((await asOperator(h, office, 'POST', `/v1/admin/inquiries/${inquiry.id}/answer`, { answer: 'お問い合わせにお答えします。' })).statusCode).toBe(201);
      expect((await asOperator(h, office, 'POST', `/v1/admin/applications/${member.registerNumber}/decision`, { decision: 'approved' })).statusCode).toBe(200);
      expect((await asOperator(h, office, 'GET', `/v1/admin/members/${member.id}`)).statusCode).toBe(200);
      const at = new Date().toISOString();
      await h.db.insertInto('passkeys').values({ id: randomUUID(), owner_type: 'member', owner_id: member.id, credential_id: randomUUID(), public_key: 'AA', counter: 0, transports: '[]', name: '私の電話', created_at: at, last_used_at: null }).execute();
      await h.db.insertInto('withdrawals').values({ id: randomUUID(), user_id: member.id, reason: '以前の退会の記録', created_at: at }).execute();
      await h.db.insertInto('registration_links').values({ id: randomUUID(), key_hash: randomUUID(), email: member.email, created_at: at, expires_at: at, used_at: null }).execute();
      expect((await h.asMember('POST', '/v1/user/requests', token, { kind: 'correction', text: '生年月日を1990年4月2日に訂正してください。' })).statusCode).toBe(201);

      const doc = await disclosure(token);
      const shown = new Set(Object.values(DISCLOSURE_COVERAGE).flatMap((t) => (t.member ? Object.values(t.columns).flatMap((c) => ('group' in c ? [c.group] : [])) : [])));
      for (const group of shown) expect(doc[group]?.length, group).toBeGreaterThan(0);
      expect(doc.account).toEqual([expect.objectContaining({ email: member.email, status: 'active' })]);
      expect(doc.profile).toEqual(expect.arrayContaining([expect.objectContaining({ label: expect.any(String), value: expect.any(String) })]));
      expect(doc.applications).toEqual([expect.objectContaining({ register_number: member.registerNumber, status: 'approved' })]);
      expect(doc.answers).toEqual([expect.objectContaining({ ticket_no: inquiry.ticket_no, answer: 'お問い合わせにお答えします。' })]);
      expect(doc.mails.map((m) => m.subject)).toEqual(expect.arrayContaining([expect.stringContaining('会員登録のお申し込みを受け付けました'), expect.stringContaining('ログイン認証コード')]));
      expect(doc.consents.map((c) => c.kind)).toEqual(expect.arrayContaining(['terms', 'mail', 'contactPrivacy']));
      // No secret and no operator's name leaves the server.
      const text = JSON.stringify(doc);
      for (const secret of ['password_hash', 'token_hash', 'code_hash', 'public_key', '事務 花子', office.email]) expect(text).not.toContain(secret);
    });
  });

  describe('who looked: the access list is the audit log', () => {
    let member: Member & { token: string; registerNumber: string };
    beforeEach(async () => {
      member = await h.registerMember();
    });

    it('views, a search and a list page that showed the member, an export that included them and a decision are listed, newest first, by office and role; an export that did not include them is not', async () => {
      await sql`update users set address_current = '北海道札幌市1-1', mail_opt = '1' where id = ${member.id}`.execute(h.db);
      expect((await asOperator(h, office, 'GET', `/v1/admin/applications/${member.registerNumber}`)).statusCode).toBe(200);
      expect((await asOperator(h, office, 'GET', `/v1/admin/members?q=${encodeURIComponent(member.registerNumber)}`)).statusCode).toBe(200);
      expect((await asOperator(h, office, 'GET', '/v1/admin/applications?status=pending')).statusCode).toBe(200);
      expect((await asOperator(h, office, 'GET', `/v1/admin/members/export.csv?columns=email,last_name_kanji&prefecture=${encodeURIComponent('北海道')}`)).statusCode).toBe(200);
      expect((await asOperator(h, office, 'GET', `/v1/admin/members/export.csv?columns=email&prefecture=${encodeURIComponent('沖縄県')}`)).statusCode).toBe(200);
      expect((await asOperator(h, office, 'POST', `/v1/admin/applications/${member.registerNumber}/decision`, { decision: 'approved' })).statusCode).toBe(200);
      const adminOffice = await operatorSession(h.db, 'admin', '管理 一郎');
      expect((await asOperator(h, adminOffice, 'GET', `/v1/admin/members/${member.id}`)).statusCode).toBe(200);
      // Another member's view is theirs, not this member's.
      const other = await h.registerMember();
      expect((await asOperator(h, office, 'GET', `/v1/admin/members/${other.id}`)).statusCode).toBe(200);

      const doc = await disclosure(member.token);
      // The audit log, read directly: the entries that name the member and those whose list or export included them.
      const named = await h.db.selectFrom('audit_log').select(['id', 'at', 'action', 'actor_role']).where('member_id', '=', member.id).where('actor_type', '<>', 'member').execute();
      const included = await h.db
        .selectFrom('audit_members')
        .innerJoin('audit_log', 'audit_log.id', 'audit_members.audit_id')
        .select(['audit_log.id', 'audit_log.at', 'audit_log.action', 'audit_log.actor_role'])
        .where('audit_members.member_id', '=', member.id)
        .execute();
      const expected = [...named, ...included].sort((a, b) => (a.at === b.at ? b.id.localeCompare(a.id) : b.at.localeCompare(a.at)));
      expect(doc.accesses.map((a) => [a.action, a.role])).toEqual(expected.map((e) => [e.action, e.actor_role]));
      expect(doc.accesses.map((a) => a.action).sort()).toEqual(
        ['applications.view', 'members.search', 'applications.list', 'members.export', 'applications.approve', 'members.view'].sort(),
      );
      expect(doc.accesses.every((a) => a.office === OFFICE_NAME)).toBe(true);
      expect(doc.accesses.find((a) => a.action === 'members.view')?.role).toBe('admin');
      expect(doc.accesses.find((a) => a.action === 'members.export')?.columns).toEqual(['メールアドレス', expect.any(String)]);
      expect(JSON.stringify(doc.accesses)).not.toMatch(/事務 花子|管理 一郎|office\.example\.jp/);
    });

    it('every action the audit log can hold has a member-facing name in the disclosure schema', () => {
      const action = disclosureSchema.properties.accesses.items.properties.action as { enum: string[]; enumNames: string[] };
      expect(action.enum.sort()).toEqual(Object.keys(admin.labels.actions).sort());
      expect(action.enumNames.every((name) => /[ぁ-んァ-ン一-龥]/.test(name))).toBe(true);
    });
  });

  describe('downloads', () => {
    it.each(['json', 'html'] as const)('%s: an attachment of the document, recorded in the audit log as the member\'s own action and confirmed by mail; listed under downloads, not under the office\'s accesses', async (format) => {
      const member = await h.registerMember();
      h.mailer.clear();
      const res = await h.asMember('GET', `/v1/user/disclosure/download?format=${format}`, member.token);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-disposition']).toMatch(new RegExp(`^attachment; filename="disclosure-\\d{8}\\.${format}"$`));
      if (format === 'json') {
        expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
        const file = res.json<Doc>();
        expect(validate(file), JSON.stringify(validate.errors)).toBe(true);
        expect(file.downloads).toEqual([expect.objectContaining({ format: 'json' })]);
        expect(file.account[0]?.email).toBe(member.email);
      } else {
        expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
        for (const group of GROUPS) expect(res.body, group).toContain((disclosureSchema.properties as unknown as Record<string, { title: string }>)[group]!.title);
        expect(res.body).toContain(member.email);
        expect(res.body).not.toMatch(/<script/i);
      }
      const entries = await h.db.selectFrom('audit_log').selectAll().where('member_id', '=', member.id).execute();
      expect(entries.map((e) => [e.action, e.actor_type, e.actor_label, JSON.parse(e.detail)])).toEqual([['disclosure.download', 'member', `member:${member.id}`, { format }]]);
      expect(h.mailer.to(member.email).map((m) => m.template)).toEqual(['disclosureDownloaded']);
      const doc = await disclosure(member.token);
      expect(doc.downloads).toEqual([expect.objectContaining({ format })]);
      expect(doc.accesses).toEqual([]);
    });

    it('downloads and requests count against the member\'s hourly budget (OPERATOR_REQUESTS_PER_HOUR), not an IP: past it 429, nothing recorded or mailed', async () => {
      const small = await Harness.start(kind, { config: { limits: { ...testConfig.limits, operatorRequestsPerHour: 2 } } });
      try {
        const member = await small.registerMember();
        small.mailer.clear();
        expect((await small.asMember('GET', '/v1/user/disclosure/download?format=json', member.token)).statusCode).toBe(200);
        expect((await small.asMember('POST', '/v1/user/requests', member.token, { kind: 'deletion', text: '削除してください。' })).statusCode).toBe(201);
        const refused = await small.asMember('GET', '/v1/user/disclosure/download?format=html', member.token);
        expect(refused.statusCode).toBe(429);
        expect(refused.json<{ code: string }>().code).toBe('TOO_MANY_ATTEMPTS');
        expect((await small.asMember('POST', '/v1/user/requests', member.token, { kind: 'deletion', text: '削除してください。' })).statusCode).toBe(429);
        expect(small.mailer.to(member.email).map((m) => m.template)).toEqual(['disclosureDownloaded', 'requestReceived']);
        expect(await small.db.selectFrom('audit_log').select('action').where('member_id', '=', member.id).execute()).toEqual([{ action: 'disclosure.download' }]);
        // Another member is not held by this one's budget; reading the document is never limited.
        const other = await small.registerMember();
        expect((await small.asMember('GET', '/v1/user/disclosure/download?format=json', other.token)).statusCode).toBe(200);
        expect((await small.asMember('GET', '/v1/user/disclosure', member.token)).statusCode).toBe(200);
      } finally {
        await small.close();
      }
    });

    it('an unknown format is refused with a Japanese message, nothing recorded; without a session, 401', async () => {
      const member = await h.registerMember();
      const res = await h.asMember('GET', '/v1/user/disclosure/download?format=pdf', member.token);
      expect(res.statusCode).toBe(400);
      expect(res.body).toMatch(/ファイルの形式/);
      expect(await h.db.selectFrom('audit_log').select('id').where('member_id', '=', member.id).execute()).toEqual([]);
      expect((await h.asMember('GET', '/v1/user/disclosure/download?format=json', undefined)).statusCode).toBe(401);
      expect((await h.asMember('GET', '/v1/user/disclosure', undefined)).statusCode).toBe(401);
    });
  });

  describe('requests for a correction or deletion', () => {
    it('a request is stored open, due in the catalogue\'s days, acknowledged by mail; the office lists it, handles it once (recorded), and the member reads the answer', async () => {
      const member = await h.registerMember();
      h.mailer.clear();
      const res = await h.asMember('POST', '/v1/user/requests', member.token, { kind: 'deletion', text: '登録情報をすべて削除してください。' });
      expect(res.statusCode, res.body).toBe(201);
      const made = res.json<{ request: { id: string; created_at: string; due_at: string; status: string } }>().request;
      const days = (catalogue.routes.find((r) => r.path === 'disclosure') as { settings: { requestDueDays: number } }).settings.requestDueDays;
      expect(Date.parse(made.due_at) - Date.parse(made.created_at)).toBe(days * 86_400_000);
      expect(made.status).toBe('open');
      expect(h.mailer.to(member.email).map((m) => m.template)).toEqual(['requestReceived']);

      const open = await listMemberRequests(h.db, { status: 'open', size: 1000 });
      expect(open.items.map((r) => r.id)).toContain(made.id);
      const dues = open.items.map((r) => r.due_at);
      expect(dues).toEqual([...dues].sort());

      const outbox = createOutbox(h.db, h.mailer);
      const who = { actor: { type: 'operator' as const, id: office.id, email: office.email, name: office.name, role: office.role }, ip: '203.0.113.9' };
      const { mailId } = await handleMemberRequest(h.db, outbox, who, made.id, { status: 'refused', answer: '法令により保存が必要な記録のため、削除できません。' });
      await outbox.sendQueued(mailId);
      await expect(handleMemberRequest(h.db, outbox, who, made.id, { status: 'done', answer: 'x' })).rejects.toMatchObject({ code: 'RECORD_NOT_FOUND' });

      const doc = await disclosure(member.token);
      expect(doc.requests).toEqual([expect.objectContaining({ id: made.id, kind: 'deletion', status: 'refused', answer: '法令により保存が必要な記録のため、削除できません。' })]);
      expect(doc.accesses.map((a) => a.action)).toEqual(['requests.handle']);
      expect(h.mailer.to(member.email).map((m) => m.template)).toEqual(['requestReceived', 'requestAnswered']);
      expect(doc.notices[0]?.message).toMatch(/削除.*対応できませんでした/);
      expect((await listMemberRequests(h.db, { status: 'open', size: 1000 })).items.map((r) => r.id)).not.toContain(made.id);
    });

    it('the form\'s own rules answer on the server: no kind, an unknown kind, an empty text → 400 with the fields\' messages', async () => {
      const member = await h.registerMember();
      for (const body of [{ text: '訂正してください。' }, { kind: 'other', text: '訂正してください。' }, { kind: 'correction', text: '' }]) {
        const res = await h.asMember('POST', '/v1/user/requests', member.token, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(Object.keys(res.json<{ fields: Record<string, unknown> }>().fields).length).toBeGreaterThan(0);
      }
      expect(await h.db.selectFrom('member_requests').select('id').where('user_id', '=', member.id).execute()).toEqual([]);
    });
  });
});
