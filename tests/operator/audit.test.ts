// The command-line tool writes the audit log too (issue 23, point 8): each change it makes and
// each member it shows leaves one entry naming the system user (actor cli:<user>, no address),
// through the same services as the back office.
import os from 'node:os';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { DATABASES, Harness, setUpOrFail } from '../support/api-harness';
import { addApplication, addInquiry, clearOperatorTables, operator } from './operator-support';

describe.each(DATABASES)('operator: the audit log ($name)', ({ kind }) => {
  let h: Harness;

  setUpOrFail(async () => {
    h = await Harness.start(kind);
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(async () => {
    h.mailer.clear();
    await clearOperatorTables(h.db);
  });

  /** What the command `argv` added to the audit log. */
  async function entriesOf(...argv: string[]) {
    const before = await h.db.selectFrom('audit_log').select('id').execute();
    const run = await operator(h, ...argv);
    expect(run.code, run.stderr).toBe(0);
    const known = new Set(before.map((row) => row.id));
    return (await h.db.selectFrom('audit_log').selectAll().execute()).filter((row) => !known.has(row.id));
  }

  const actor = { actor_type: 'cli', operator_id: null, actor_label: `cli:${os.userInfo().username}`, actor_role: null, ip: null };

  it('approve, decline, notices post, inquiries answer and close, members show: one entry each', async () => {
    const member = await h.createMember();
    const approved = await addApplication(h.db, member.id);
    expect(await entriesOf('applications', 'approve', approved.register_number)).toEqual([
      expect.objectContaining({ ...actor, action: 'applications.approve', member_id: member.id, target: approved.register_number }),
    ]);
    const other = await h.createMember();
    const declined = await addApplication(h.db, other.id);
    const [decline] = await entriesOf('applications', 'decline', declined.register_number, '--reason', '要件を満たしていません。');
    expect(decline).toMatchObject({ ...actor, action: 'applications.decline', member_id: other.id });
    expect(JSON.parse(decline!.detail)).toMatchObject({ reason: '要件を満たしていません。' });
    expect(await h.db.selectFrom('application_decisions').select(['kind', 'decision', 'actor_label']).where('application_id', '=', declined.id).execute()).toEqual([
      { kind: 'decision', decision: 'declined', actor_label: actor.actor_label },
    ]);

    const [post] = await entriesOf('notices', 'post', '--to', member.email, '--message', 'ご案内です。');
    expect(post).toMatchObject({ ...actor, action: 'notices.send', member_id: member.id });
    expect(JSON.parse(post!.detail)).toMatchObject({ audience: 'one', recipients: 1 });
    expect((await entriesOf('notices', 'post', '--all', '--message', '全員へ'))[0]).toMatchObject({ action: 'notices.send', member_id: null });

    const inquiry = await addInquiry(h.db, { userId: member.id, email: member.email });
    expect(await entriesOf('inquiries', 'answer', inquiry.ticket_no, '--message', '回答です。')).toEqual([
      expect.objectContaining({ ...actor, action: 'inquiries.answer', member_id: member.id, target: inquiry.ticket_no }),
    ]);
    expect(await entriesOf('inquiries', 'close', inquiry.ticket_no)).toEqual([expect.objectContaining({ ...actor, action: 'inquiries.done', target: inquiry.ticket_no })]);

    expect(await entriesOf('members', 'show', member.email)).toEqual([expect.objectContaining({ ...actor, action: 'members.view', member_id: member.id })]);
  });

  it('a list of personal data (applications, inquiries) is recorded as the web records it: the filters, the sort, the count; notices are not', async () => {
    const member = await h.createMember();
    await addApplication(h.db, member.id);
    await addInquiry(h.db, { userId: member.id, email: member.email });
    expect(await entriesOf('applications', 'list', '--status', 'pending', '--from', '2025-04-01', '--sort', 'oldest')).toEqual([
      expect.objectContaining({ ...actor, action: 'applications.list', member_id: null }),
    ]);
    const [applications] = await h.db.selectFrom('audit_log').select('detail').where('action', '=', 'applications.list').execute();
    expect(JSON.parse(applications!.detail)).toEqual({ filter: { status: 'pending', applied_from: '2025-04-01' }, sort: 'oldest', page: 1, results: 1 });
    const [inquiries] = await entriesOf('inquiries', 'list', '--status', 'all');
    expect(inquiries).toMatchObject({ ...actor, action: 'inquiries.list' });
    expect(JSON.parse(inquiries!.detail)).toEqual({ filter: {}, sort: 'newest', page: 1, results: 1 });
    expect(await entriesOf('notices', 'list')).toEqual([]);
  });

  it('a refused command leaves no entry', async () => {
    const member = await h.createMember();
    const done = await addApplication(h.db, member.id, { status: 'approved', decidedAt: new Date().toISOString() });
    const before = (await h.db.selectFrom('audit_log').select('id').execute()).length;
    expect((await operator(h, 'applications', 'approve', done.register_number)).code).toBe(1);
    expect((await h.db.selectFrom('audit_log').select('id').execute()).length).toBe(before);
  });
});
