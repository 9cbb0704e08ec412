// npm run operator -- members list: the back office's member list (schemas/records/members.json,
// listRecords) on the command line: its filters (status, prefecture, registration days, mail
// consent, search), its sorts, pages by --after, and the view recorded as the web records it.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { say } from '../../src/server/operator/text';
import { applicant } from '../support/admin-records';
import { DATABASES, Harness, setUpOrFail } from '../support/api-harness';
import { clearOperatorTables, everyPage, operator, operatorText as text } from './operator-support';

describe.each(DATABASES)('operator: members list ($name)', ({ kind }) => {
  let h: Harness;

  setUpOrFail(async () => {
    h = await Harness.start(kind);
  });
  afterAll(async () => {
    await h?.close();
  });
  // Each file has its own database: the first test reads it empty of members, the second adds
  // its members in a prefecture of its own.
  beforeEach(async () => {
    await clearOperatorTables(h.db);
  });

  const run = (...argv: string[]) => operator(h, ...argv);
  const emails = (out: string[]) => out.slice(2, -1).map((line) => /\S+@\S+/.exec(line)?.[0]);

  it('filters by prefecture, registration day (Japan) and status, newest or oldest first; recorded as members.search', async () => {
    const hokkaido = await applicant(h, { address_current: '北海道札幌市1-1' }, '2025-03-31T15:00:00.000Z');
    const tokyo = await applicant(h, { address_current: '東京都千代田区1-1' }, '2025-04-01T14:59:00.000Z');
    const later = await applicant(h, { address_current: '北海道函館市1-1' }, '2025-04-01T15:00:00.000Z');
    await h.db.updateTable('users').set({ status: 'withdrawn', withdrawn_at: '2025-05-01T00:00:00.000Z' }).where('id', '=', later.id).execute();

    const all = await run('members', 'list');
    expect(all.code, all.stderr).toBe(0);
    expect(emails(all.out)).toEqual([later.email, tokyo.email, hokkaido.email]);
    expect(all.out.at(-1)).toBe(say(text.members.count, { count: 3 }));
    expect(emails((await run('members', 'list', '--prefecture', '北海道')).out)).toEqual([later.email, hokkaido.email]);
    expect(emails((await run('members', 'list', '--prefecture', '北海道', '--status', 'active')).out)).toEqual([hokkaido.email]);
    expect(emails((await run('members', 'list', '--from', '2025-04-01', '--to', '2025-04-01', '--sort', 'oldest')).out)).toEqual([hokkaido.email, tokyo.email]);
    expect(emails((await run('members', 'list', '--search', tokyo.registerNumber)).out)).toEqual([tokyo.email]);
    expect((await run('members', 'list', '--prefecture', '沖縄県')).stdout).toBe(text.members.none);

    const [entry] = await h.db.selectFrom('audit_log').select(['action', 'actor_type', 'detail']).where('action', '=', 'members.search').orderBy('at').execute();
    expect(entry).toMatchObject({ action: 'members.search', actor_type: 'cli' });
    expect(JSON.parse(entry!.detail)).toEqual({ q: '', filter: {}, sort: 'newest', page: 1, results: 3 });
  });

  it('more than a page: the next command keeps the filters and goes on after the last member shown', async () => {
    for (let i = 0; i < 103; i++) await applicant(h, { address_current: '大阪府大阪市北区1-1' }, new Date(Date.UTC(2025, 3, 1) + i * 1000).toISOString());
    await applicant(h, { address_current: '東京都千代田区1-1' });
    const pages = await everyPage(h, 'members', 'list', '--prefecture', '大阪府');
    expect(pages.pages.map((page) => page.length)).toEqual([100, 3]);
    expect(pages.commands[1]!.slice(0, 4)).toEqual(['members', 'list', '--prefecture', '大阪府']);
    expect(new Set(pages.pages.flat().map((line) => /\S+@\S+/.exec(line)?.[0])).size).toBe(103);
  });

  it('an unknown status or prefecture, a bad day or an unknown --after → exit 1 with the syntax', async () => {
    for (const [argv, message] of [
      [['--status', 'gone'], say(text.errors.badMemberStatus, { status: 'gone' })],
      [['--prefecture', '北海'], say(text.errors.badPrefecture, { prefecture: '北海' })],
      [['--from', '2025-13-01'], say(text.errors.badDay, { option: '--from', value: '2025-13-01' })],
      [['--after', 'no-such-member'], say(text.errors.unknownAfter, { value: 'no-such-member' })],
    ] as const) {
      const res = await run('members', 'list', ...argv);
      expect(res.code, argv.join(' ')).toBe(1);
      expect(res.stderr).toContain(message);
      expect(res.stderr).toContain('members list [--status active|withdrawn]');
    }
  });
});
