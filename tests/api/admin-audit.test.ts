// The audit log (issue 23, point 8; docs/decisions/030): every operator action and every view or
// export of a member's data leaves exactly one entry saying who (operator, role), when, what
// (action, target, detail), which member and from which address; lists that show no one's record
// in full leave none. The database itself refuses to change or remove an entry, on SQLite and
// PostgreSQL alike.
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DATABASES, Harness, setUpOrFail } from '../support/api-harness';
import { operatorSession, type TestOperator } from '../support/admin-session';
import { asOperator, auditRows } from '../support/admin-records';
import { adminRoutes, table } from '../support/admin-routes';
import { mayDo } from '../../src/server/admin/permissions';

/** The entry each route leaves: its action and whether it names a member; null: none. Routes of
 *  the accounts branch are theirs to state (undefined: not checked here). */
const RECORDED: Record<string, { action: string; member: boolean } | null | undefined> = {
  'GET /v1/admin/session': undefined,
  'GET /v1/admin/account/passkeys': null,
  'POST /v1/admin/account/passkeys/options': null,
  'POST /v1/admin/account/passkeys': { action: 'passkeys.add', member: false },
  'DELETE /v1/admin/account/passkeys/:id': { action: 'passkeys.remove', member: false },
  'POST /v1/admin/logout': undefined,
  'GET /v1/admin/operators': undefined,
  'POST /v1/admin/operators': undefined,
  'POST /v1/admin/operators/:id/disable': undefined,
  'POST /v1/admin/operators/:id/setup-link': undefined,
  'GET /v1/admin/applications': { action: 'applications.list', member: false },
  'GET /v1/admin/applications/:registerNumber': { action: 'applications.view', member: true },
  'POST /v1/admin/applications/:registerNumber/preview': null,
  'POST /v1/admin/applications/:registerNumber/decision': { action: 'applications.decline', member: true },
  'POST /v1/admin/applications/:registerNumber/reversal': { action: 'applications.reverse', member: true },
  'GET /v1/admin/notices': null,
  'POST /v1/admin/notices/preview': null,
  'POST /v1/admin/notices': { action: 'notices.send', member: true },
  'POST /v1/admin/notices/:id/retract': { action: 'notices.retract', member: false },
  'GET /v1/admin/inquiries': { action: 'inquiries.list', member: false },
  'GET /v1/admin/inquiries/operators': null,
  'GET /v1/admin/inquiries/:id': { action: 'inquiries.view', member: true },
  'POST /v1/admin/inquiries/:id/answer/preview': null,
  'POST /v1/admin/inquiries/:id/answer': { action: 'inquiries.answer', member: true },
  'POST /v1/admin/inquiries/:id/answers/:answerId/correction/preview': null,
  'POST /v1/admin/inquiries/:id/answers/:answerId/correction': { action: 'inquiries.correct', member: true },
  'POST /v1/admin/inquiries/:id/assign': { action: 'inquiries.assign', member: true },
  'POST /v1/admin/inquiries/:id/done': { action: 'inquiries.done', member: true },
  'GET /v1/admin/requests': { action: 'requests.list', member: false },
  'GET /v1/admin/requests/:id': { action: 'requests.view', member: true },
  'POST /v1/admin/requests/:id/handle': { action: 'requests.handle', member: true },
  'GET /v1/admin/members': { action: 'members.search', member: false },
  'GET /v1/admin/members/:id': { action: 'members.view', member: true },
  'GET /v1/admin/members/export-columns': null,
  'GET /v1/admin/members/export.csv': { action: 'members.export', member: false },
  'GET /v1/admin/stats': null,
  'GET /v1/admin/audit': { action: 'audit.list', member: false },
};

const ADDRESS = '203.0.113.45';

describe.each(DATABASES)('the audit log ($name)', ({ kind }) => {
  let h: Harness;
  let office: TestOperator;
  let admin: TestOperator;
  const rows = table(() => office);

  setUpOrFail(async () => {
    h = await Harness.start(kind);
    office = await operatorSession(h.db, 'secretariat', '準備 担当');
    admin = await operatorSession(h.db, 'admin', '監査 花子');
  });
  afterAll(async () => {
    await h?.close();
  });

  it('every route of the table says what it records', () => {
    expect(Object.keys(rows).filter((route) => !(route in RECORDED))).toEqual([]);
    expect(adminRoutes(h).filter((route) => !(route in RECORDED))).toEqual([]);
  });

  it.each(Object.entries(RECORDED).filter(([, expected]) => expected !== undefined))('%s leaves %o', async (route, expected) => {
    const [method] = route.split(' ') as ['GET' | 'POST' | 'DELETE'];
    const row = rows[route]!;
    expect(mayDo('admin', row.action)).toBe(true);
    const request = await row.request(h, admin);
    const before = (await auditRows(h)).length;
    const started = new Date().toISOString();
    const res = await asOperator(h, admin, method, request.url, request.body, ADDRESS);
    expect(res.statusCode, res.body).toBeLessThan(300);
    const entries = (await auditRows(h)).slice(before);
    if (expected === null) {
      expect(entries).toEqual([]);
      return;
    }
    expect(entries).toHaveLength(1);
    const [entry] = entries;
    expect(entry).toMatchObject({
      actor_type: 'operator',
      operator_id: admin.id,
      actor_label: `${admin.name} <${admin.email}>`,
      actor_role: 'admin',
      action: expected!.action,
      ip: ADDRESS,
    });
    expect(entry!.at >= started && entry!.at <= new Date().toISOString()).toBe(true);
    if (expected!.member) expect(entry!.member_id).toEqual(expect.any(String));
    expect(typeof JSON.parse(entry!.detail)).toBe('object');
  });

  it('the audit list shows the entries to admin, newest first, with filters', async () => {
    const all = await asOperator(h, admin, 'GET', '/v1/admin/audit?size=100');
    expect(all.statusCode, all.body).toBe(200);
    const items = all.json().items as Array<{ at: string; action: string; actor_label: string; ip: string; member_id: string | null }>;
    expect(items.length).toBeGreaterThan(5);
    expect([...items].sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0)).map((i) => i.at)).toEqual(items.map((i) => i.at));
    const views = await asOperator(h, admin, 'GET', '/v1/admin/audit?action=members.view');
    expect(views.json().items.length).toBeGreaterThan(0);
    expect(views.json().items.every((i: { action: string }) => i.action === 'members.view')).toBe(true);
    const member = items.find((i) => i.member_id)!.member_id!;
    const ofMember = await asOperator(h, admin, 'GET', `/v1/admin/audit?member=${member}`);
    expect(ofMember.json().items.every((i: { member_id: string }) => i.member_id === member)).toBe(true);
    expect(ofMember.json().items[0]).toHaveProperty('member_name');
    const ofOperator = await asOperator(h, admin, 'GET', `/v1/admin/audit?operator=${office.id}`);
    expect(ofOperator.json().items.every((i: { actor_label: string }) => i.actor_label.includes(office.email))).toBe(true);
    const future = await asOperator(h, admin, 'GET', '/v1/admin/audit?from=2999-01-01');
    expect(future.json()).toMatchObject({ items: [], total: 0 });
  });

  it('the database refuses UPDATE and DELETE of an entry', async () => {
    const before = await auditRows(h);
    expect(before.length).toBeGreaterThan(0);
    await expect(h.db.updateTable('audit_log').set({ action: 'changed' }).execute()).rejects.toThrow(/append-only/);
    await expect(h.db.deleteFrom('audit_log').where('id', '=', before[0]!.id).execute()).rejects.toThrow(/append-only/);
    await expect(h.db.deleteFrom('audit_log').execute()).rejects.toThrow(/append-only/);
    if (kind === 'postgres') await expect(sql`truncate audit_log`.execute(h.db)).rejects.toThrow(/append-only/);
    expect(await auditRows(h)).toEqual(before);
  });
});
