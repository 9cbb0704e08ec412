// npm run operator -- notices post / list, in-process against SQLite and PostgreSQL: a notice to
// one member or to everyone, as my page then shows it.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db/connect';
import { DATABASES, Harness, setUpOrFail } from '../support/api-harness';
import { say } from '../../src/server/operator/text';
import { FailingInserts, clearOperatorTables, countNotices, everyPage, operatorText, myPage, noticesOf, operator } from './operator-support';

const text = operatorText;

async function addNotice(db: Db, userId: string | null, message: string, createdAt: string) {
  await db.insertInto('notifications').values({ id: randomUUID(), user_id: userId, message, created_at: createdAt }).execute();
}

describe.each(DATABASES)('operator: notices ($name)', ({ kind }) => {
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

  const run = (...argv: string[]) => operator(h, ...argv);

  // -------------------------------------------------------------------------------------------
  describe('notices post', () => {
    it('--to an active member → a notice with their user_id (trimmed); they see it on my page, another member does not', async () => {
      const member = await h.createMember();
      const other = await h.createMember();
      const res = await run('notices', 'post', '--to', member.email, '--message', '  4月のオンライン説明会の日程を公開しました。 ');
      expect(res.code, res.stderr).toBe(0);
      expect(res.stdout).toContain(member.email);

      const rows = await noticesOf(h.db, member.id);
      expect(rows.map((r) => r.message)).toEqual(['4月のオンライン説明会の日程を公開しました。']);
      expect(Date.parse(rows[0]!.created_at)).toBeGreaterThan(Date.now() - 60_000);
      expect(await countNotices(h.db)).toBe(1);
      expect(h.mailer.sent).toEqual([]); // a notice is not a mail

      expect((await myPage(h, member)).notices.map((n) => n.message)).toEqual(['4月のオンライン説明会の日程を公開しました。']);
      expect((await myPage(h, other)).notices).toEqual([]);
    });

    it('--all → one broadcast row (user_id null) that every member sees', async () => {
      const a = await h.createMember();
      const b = await h.createMember();
      const res = await run('notices', 'post', '--all', '--message=システムメンテナンスのお知らせ');
      expect(res.code, res.stderr).toBe(0);
      expect(res.stdout).toContain(text.notices.postedAll.split(':')[0]!);
      expect((await noticesOf(h.db, null)).map((r) => r.message)).toEqual(['システムメンテナンスのお知らせ']);
      expect(await countNotices(h.db)).toBe(1);
      expect((await myPage(h, a)).notices.map((n) => n.message)).toEqual(['システムメンテナンスのお知らせ']);
      expect((await myPage(h, b)).notices.map((n) => n.message)).toEqual(['システムメンテナンスのお知らせ']);
    });

    it('a database that refuses the notice → exit 1 saying nothing was posted', async () => {
      const member = await h.createMember();
      const res = await operator({ db: h.db.withPlugin(new FailingInserts('notifications')), mailer: h.mailer }, 'notices', 'post', '--to', member.email, '--message', 'こんにちは');
      expect(res.code).toBe(1);
      expect(res.stdout).toBe('');
      expect(res.stderr).toBe(say(text.errors.notSaved, { detail: 'insert into notifications failed (injected)' }));
      expect(await countNotices(h.db)).toBe(0);
    });

    it('an unknown address or a withdrawn member → exit 1, nothing posted', async () => {
      const unknown = await run('notices', 'post', '--to', 'nobody@example.com', '--message', 'こんにちは');
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('nobody@example.com');
      expect(unknown.stderr).toContain('見つかりません');

      const gone = await h.createMember();
      await h.db.updateTable('users').set({ status: 'withdrawn' }).where('id', '=', gone.id).execute();
      const withdrawn = await run('notices', 'post', '--to', gone.email, '--message', 'こんにちは');
      expect(withdrawn.code).toBe(1);
      expect(await countNotices(h.db)).toBe(0);
    });

    it('both --to and --all, neither, no message, a blank message or a stray argument → exit 1 with the syntax, nothing posted', async () => {
      const member = await h.createMember();
      const cases: [string[], string][] = [
        [['--to', member.email, '--all', '--message', 'x'], text.errors.toOrAll],
        [['--message', 'x'], text.errors.toOrAll],
        [['--to', '', '--message', 'x'], text.errors.toOrAll],
        [['--all'], text.errors.messageRequired],
        [['--all', '--message', '   '], text.errors.messageRequired],
        [['--all', '--message'], 'オプションの指定が正しくありません'],
        [['--all', '--message', 'x', 'extra'], 'extra'],
        [['--everyone', '--message', 'x'], '--everyone'],
      ];
      for (const [argv, message] of cases) {
        const res = await run('notices', 'post', ...argv);
        expect(res.code, argv.join(' ')).toBe(1);
        expect(res.stderr, argv.join(' ')).toContain(message);
        expect(res.stderr).toContain('npm run operator -- notices post --to <email> --message "…"');
        expect(res.stderr).toContain('npm run operator -- notices post --all --message "…"');
      }
      expect(await countNotices(h.db)).toBe(0);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('notices list', () => {
    it('nothing posted → a "none" line, exit 0', async () => {
      expect(await run('notices', 'list')).toMatchObject({ code: 0, stdout: text.notices.none, stderr: '' });
    });

    it('every notice, newest first, with the date in Japan time and the addressee (全会員 for a broadcast)', async () => {
      const member = await h.createMember();
      await addNotice(h.db, member.id, '個別のお知らせ', '2025-04-01T00:00:00.000Z');
      await addNotice(h.db, null, '全員へのお知らせ', '2025-04-02T00:00:00.000Z');
      await addNotice(h.db, member.id, '1行目\n2行目', '2025-03-01T00:00:00.000Z');

      const res = await run('notices', 'list');
      expect(res.code, res.stderr).toBe(0);
      const [header, , first, second, third, count] = res.out;
      for (const column of Object.values(text.notices.columns)) expect(header).toContain(column);
      expect(first).toContain('2025-04-02 09:00');
      expect(first).toContain(text.notices.everyone);
      expect(first).toContain('全員へのお知らせ');
      expect(second).toContain(member.email);
      expect(second).toContain('個別のお知らせ');
      expect(third).toContain('1行目 ↵ 2行目'); // one line per notice
      expect(count).toBe('3 件');
    });

    it('--to: what that member reads on my page (their notices and broadcasts), not other members\' notices', async () => {
      const member = await h.createMember();
      const other = await h.createMember();
      await addNotice(h.db, member.id, '本人宛て', '2025-04-01T00:00:00.000Z');
      await addNotice(h.db, other.id, '他の会員宛て', '2025-04-02T00:00:00.000Z');
      await addNotice(h.db, null, '全会員宛て', '2025-04-03T00:00:00.000Z');

      const res = await run('notices', 'list', '--to', member.email);
      expect(res.code, res.stderr).toBe(0);
      expect(res.stdout).toContain('本人宛て');
      expect(res.stdout).toContain('全会員宛て');
      expect(res.stdout).not.toContain('他の会員宛て');
      expect(res.stdout.indexOf('全会員宛て')).toBeLessThan(res.stdout.indexOf('本人宛て'));
      expect((await myPage(h, member)).notices.map((n) => n.message)).toEqual(['全会員宛て', '本人宛て']);
    });

    it('more than a page, with and without --to: the newest 100, then the command the last line gives shows the rest; my page shows the newest 50', async () => {
      const member = await h.createMember();
      const other = await h.createMember();
      const at = (i: number) => new Date(Date.UTC(2025, 3, 1) + Math.floor(i / 2) * 1000).toISOString();
      const posted: { message: string; to: string | null; createdAt: string }[] = [];
      for (let i = 0; i < 160; i++) {
        const to = [member.id, null, other.id][i % 3]!;
        posted.push({ message: `お知らせ${i}`, to, createdAt: at(i) });
        await addNotice(h.db, to, `お知らせ${i}`, at(i));
      }
      const ids = new Map((await h.db.selectFrom('notifications').select(['id', 'message']).execute()).map((r) => [r.message, r.id]));
      const newestFirst = (list: typeof posted) =>
        [...list].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || ids.get(b.message)!.localeCompare(ids.get(a.message)!)).map((n) => n.message);
      const messages = (pages: string[][]) => pages.flat().map((line) => /お知らせ\d+/.exec(line)![0]);

      const all = await everyPage(h, 'notices', 'list');
      expect(all.pages.map((page) => page.length)).toEqual([100, 60]);
      expect(messages(all.pages)).toEqual(newestFirst(posted));
      const mine = posted.filter((n) => n.to !== other.id);
      const to = await everyPage(h, 'notices', 'list', '--to', member.email);
      expect(to.pages.map((page) => page.length)).toEqual([100, 7]);
      expect(messages(to.pages)).toEqual(newestFirst(mine));
      expect((await myPage(h, member)).notices.map((n) => n.message)).toEqual(newestFirst(mine).slice(0, 50));

      const unknown = await run('notices', 'list', '--after', 'no-such-notice');
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('no-such-notice');
    });

    it('--to an unknown address or without an address → exit 1', async () => {
      const unknown = await run('notices', 'list', '--to', 'nobody@example.com');
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('nobody@example.com');
      const empty = await run('notices', 'list', '--to', '');
      expect(empty.code).toBe(1);
      expect(empty.stderr).toContain(text.errors.emailRequired);
    });
  });
});
