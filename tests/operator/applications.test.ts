// npm run operator -- applications list / approve / decline, in-process against SQLite and
// PostgreSQL: the decision, the member's notice and the mail, and that nothing changes when a
// decision is refused.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { approveApplication } from '../../src/server/operator/applications';
import { say } from '../../src/server/operator/text';
import { DATABASES, Harness, setUpOrFail } from '../support/api-harness';
import {
  FailingInserts,
  RecordingOutput,
  addApplication,
  applicationRow,
  clearOperatorTables,
  countNotices,
  everyPage,
  operatorText,
  myPage,
  nextRegisterNumber,
  noticesOf,
  operator,
  unsentMail,
} from './operator-support';

const text = operatorText;
const APPROVED_NOTICE = '会員登録が承認されました。';
const DECLINED_NOTICE = '会員登録のお申し込みについて、今回はご登録を見送らせていただきました。';

describe.each(DATABASES)('operator: applications ($name)', ({ kind }) => {
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
    await clearOperatorTables(h.db);
  });

  const run = (...argv: string[]) => operator(h, ...argv);

  /** A member (山田 花子) with a pending application. */
  async function applicant(input: Parameters<typeof addApplication>[2] = {}) {
    const member = await h.createMember();
    const application = await addApplication(h.db, member.id, input);
    return { member, application, registerNumber: application.register_number };
  }

  /** Asserts that the application, the notices and the mail are as they were. */
  async function expectUnchanged(registerNumber: string, before: { status: string; decided_at: string | null }, notices = 0) {
    const row = await applicationRow(h.db, registerNumber);
    expect({ status: row.status, decided_at: row.decided_at }).toEqual({ status: before.status, decided_at: before.decided_at });
    expect(await countNotices(h.db)).toBe(notices);
  }

  // -------------------------------------------------------------------------------------------
  describe('applications list', () => {
    it('no applications → a "none" line, exit 0', async () => {
      const res = await run('applications', 'list');
      expect(res).toMatchObject({ code: 0, stderr: '' });
      expect(res.stdout).toBe(text.applications.none);
    });

    it('newest first, with number, status, applied date (Japan time), name and e-mail; withdrawn members marked', async () => {
      const older = await applicant({ appliedAt: '2025-04-01T00:30:00.000Z' });
      const newer = await applicant({ appliedAt: '2025-04-02T15:05:00.000Z', status: 'approved', decidedAt: '2025-04-03T01:00:00.000Z' });
      const gone = await applicant({ appliedAt: '2025-03-31T12:00:00.000Z' });
      await h.db.updateTable('users').set({ status: 'withdrawn' }).where('id', '=', gone.member.id).execute();

      const res = await run('applications', 'list');
      expect(res.code, res.stderr).toBe(0);
      const [header, rule, ...rows] = res.out;
      for (const column of Object.values(text.applications.columns)) expect(header).toContain(column);
      expect(rule).toMatch(/^[- ]+$/);
      expect(rows).toHaveLength(4); // three rows and the count
      expect(rows[0]).toContain(newer.registerNumber);
      expect(rows[0]).toContain('承認済み（approved）');
      expect(rows[0]).toContain('2025-04-03 00:05'); // 15:05 UTC is 00:05 the next day in Japan
      expect(rows[0]).toContain('2025-04-03 10:00');
      expect(rows[0]).toContain('山田 花子');
      expect(rows[0]).toContain(newer.member.email);
      expect(rows[1]).toContain(older.registerNumber);
      expect(rows[1]).toContain('審査中（pending）');
      expect(rows[1]).toContain('2025-04-01 09:30');
      expect(rows[1]).toContain(older.member.email);
      expect(rows[2]).toContain(gone.registerNumber);
      expect(rows[2]).toContain(text.applications.memberWithdrawn);
      expect(rows[1]).not.toContain(text.applications.memberWithdrawn);
      expect(rows[3]).toBe('3 件');
    });

    it("--status pending leaves out a withdrawn member's application (the full list marks it)", async () => {
      const kept = await applicant();
      const gone = await applicant();
      await h.db.updateTable('users').set({ status: 'withdrawn' }).where('id', '=', gone.member.id).execute();
      const pending = await run('applications', 'list', '--status', 'pending');
      expect(pending.code, pending.stderr).toBe(0);
      expect(pending.stdout).toContain(kept.registerNumber);
      expect(pending.stdout).not.toContain(gone.registerNumber);
      expect((await run('applications', 'list')).stdout).toContain(gone.registerNumber);
    });

    it('columns line up although names are full-width', async () => {
      await applicant();
      await h.createMember(undefined, undefined, { last_name_kanji: '長谷川', first_name_kanji: 'さくら' }).then((m) => addApplication(h.db, m.id));
      const res = await run('applications', 'list');
      const [header, , a, b] = res.out;
      // The e-mail column starts at the same display column in every line.
      const emailColumn = (line: string) => {
        const at = line.indexOf('@');
        const start = line.lastIndexOf(' ', at) + 1;
        return [...line.slice(0, start)].reduce((w, c) => w + (/[\u3000-\u9fff\uff00-\uff60]/.test(c) ? 2 : 1), 0);
      };
      expect(emailColumn(a!)).toBe(emailColumn(b!));
      expect(header).toContain(text.applications.columns.email);
    });

    it('--status filters', async () => {
      const pending = await applicant();
      const declined = await applicant({ status: 'declined', decidedAt: new Date().toISOString() });
      const res = await run('applications', 'list', '--status', 'declined');
      expect(res.code).toBe(0);
      expect(res.stdout).toContain(declined.registerNumber);
      expect(res.stdout).not.toContain(pending.registerNumber);
      const none = await run('applications', 'list', '--status=approved');
      expect(none).toMatchObject({ code: 0, stdout: text.applications.none });
    });

    it('more than a page: the newest 100, then the command the last line gives shows the rest, ties on the date by number; an unknown --after → exit 1', async () => {
      const member = await h.createMember();
      const numbers: { registerNumber: string; appliedAt: string; status: 'pending' | 'approved' }[] = [];
      for (let i = 0; i < 130; i++) {
        const row = { registerNumber: `R20250401-${String((i * 7919) % 1000000).padStart(6, '0')}`, appliedAt: new Date(Date.UTC(2025, 3, 1) + Math.floor(i / 2) * 1000).toISOString(), status: i % 2 ? ('approved' as const) : ('pending' as const) };
        await addApplication(h.db, member.id, row);
        numbers.push(row);
      }
      const newestFirst = (list: typeof numbers) =>
        [...list].sort((a, b) => b.appliedAt.localeCompare(a.appliedAt) || b.registerNumber.localeCompare(a.registerNumber)).map((r) => r.registerNumber);
      const shown = (pages: string[][]) => pages.flat().map((line) => line.split(/\s+/)[0]);

      const all = await everyPage(h, 'applications', 'list');
      expect(all.pages.map((page) => page.length)).toEqual([100, 30]);
      expect(shown(all.pages)).toEqual(newestFirst(numbers));
      const pending = await everyPage(h, 'applications', 'list', '--status', 'pending');
      expect(pending.pages.map((page) => page.length)).toEqual([65]);
      expect(shown(pending.pages)).toEqual(newestFirst(numbers.filter((n) => n.status === 'pending')));
      expect(shown((await everyPage(h, 'applications', 'list', '--after', numbers[3]!.registerNumber)).pages)).toEqual(newestFirst(numbers).slice(-3));

      const unknown = await run('applications', 'list', '--after', 'R00000000-000000');
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('R00000000-000000');
    });

    it('the web list\'s filters: applied between Japan days (--from/--to), oldest first (--sort), by number (--search); the next page keeps them', async () => {
      const member = await h.createMember();
      // Japan days begin at 15:00 UTC the day before.
      const at = {
        lastOfMarch: '2025-03-31T14:59:59.000Z',
        firstOfApril: '2025-03-31T15:00:00.000Z',
        endOfApril1: '2025-04-01T14:59:59.999Z',
        secondOfApril: '2025-04-01T15:00:00.000Z',
      };
      const made = {} as Record<keyof typeof at, string>;
      for (const [name, appliedAt] of Object.entries(at)) made[name as keyof typeof at] = (await addApplication(h.db, member.id, { appliedAt })).register_number;
      const numbers = (out: string[]) => out.slice(2, -1).map((line) => line.split(/\s+/)[0]);

      const day = await run('applications', 'list', '--from', '2025-04-01', '--to', '2025-04-01');
      expect(day.code, day.stderr).toBe(0);
      expect(numbers(day.out)).toEqual([made.endOfApril1, made.firstOfApril]);
      const oldest = await run('applications', 'list', '--from', '2025-04-01', '--sort', 'oldest');
      expect(numbers(oldest.out)).toEqual([made.firstOfApril, made.endOfApril1, made.secondOfApril]);
      expect(numbers((await run('applications', 'list', '--to', '2025-03-31')).out)).toEqual([made.lastOfMarch]);
      expect(numbers((await run('applications', 'list', '--search', made.secondOfApril)).out)).toEqual([made.secondOfApril]);

      // More than a page, oldest first and from a day: every page in that order, the options kept.
      for (let i = 0; i < 120; i++) await addApplication(h.db, member.id, { appliedAt: new Date(Date.UTC(2025, 3, 2) + i * 1000).toISOString() });
      const pages = await everyPage(h, 'applications', 'list', '--from', '2025-04-01', '--sort', 'oldest');
      expect(pages.pages.map((page) => page.length)).toEqual([100, 23]);
      expect(pages.commands[1]!.slice(0, 6)).toEqual(['applications', 'list', '--from', '2025-04-01', '--sort', 'oldest']);
      const times = pages.pages.flat().map((line) => line.split(/\s+/).slice(2, 4).join(' '));
      expect(times).toEqual([...times].sort());
      expect((await run('applications', 'list', '--from', '2025-04-01', '--sort', 'oldest')).out.at(-1)).toContain('古い順に 100 件');
    });

    it('a day that is not YYYY-MM-DD or not a date, an undeclared sort → exit 1 with the syntax', async () => {
      for (const [option, value] of [['--from', '2025-4-1'], ['--to', '2025-02-30'], ['--from', 'today']]) {
        const res = await run('applications', 'list', option!, value!);
        expect(res.code, `${option} ${value}`).toBe(1);
        expect(res.stderr).toContain(say(text.errors.badDay, { option, value }));
        expect(res.stderr).toContain('[--from YYYY-MM-DD] [--to YYYY-MM-DD]');
      }
      const sort = await run('applications', 'list', '--sort', 'name');
      expect(sort.code).toBe(1);
      expect(sort.stderr).toContain(say(text.errors.badSort, { sort: 'name', sorts: 'newest|oldest' }));
    });

    it('an unknown --status, an unknown option or a stray argument → exit 1 with the syntax', async () => {
      for (const argv of [['--status', 'done'], ['--status'], ['--state', 'pending'], ['pending']]) {
        const res = await run('applications', 'list', ...argv);
        expect(res.code, argv.join(' ')).toBe(1);
        expect(res.stdout).toBe('');
        expect(res.stderr).toContain('applications list [--status pending|approved|declined]');
      }
      expect((await run('applications', 'list', '--status', 'done')).stderr).toContain('--status には pending、approved、declined');
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('applications approve', () => {
    it('pending → approved with decided_at, a notice to the member, the approval mail; the member sees both on my page', async () => {
      const { member, registerNumber } = await applicant();
      const before = Date.now();
      const res = await run('applications', 'approve', registerNumber);
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).toBe('');
      expect(res.stdout).toContain(registerNumber);
      expect(res.stdout).toContain(member.email);

      const row = await applicationRow(h.db, registerNumber);
      expect(row.status).toBe('approved');
      expect(Date.parse(row.decided_at!)).toBeGreaterThanOrEqual(before - 1000);
      expect(Date.parse(row.decided_at!)).toBeLessThanOrEqual(Date.now() + 1000);

      const notices = await noticesOf(h.db, member.id);
      expect(notices.map((n) => n.message)).toEqual([APPROVED_NOTICE]);
      expect(notices[0]!.created_at).toBe(row.decided_at);
      expect(text.memberNotice.applicationApproved).toBe(APPROVED_NOTICE);

      expect(h.mailer.sent).toEqual([{ to: member.email, template: 'applicationApproved', values: { name: '山田 花子', registerNumber } }]);

      h.mailer.clear();
      const page = await myPage(h, member);
      expect(page.applications).toEqual([{ date: row.applied_at, status: 'approved', registerNumber }]);
      expect(page.notices.map((n) => n.message)).toEqual([APPROVED_NOTICE]);
    });

    it('the command function runs on its own: (db, mailer, args, output)', async () => {
      const { registerNumber } = await applicant();
      const output = new RecordingOutput();
      await approveApplication(h.db, h.mailer, [registerNumber], output);
      expect((await applicationRow(h.db, registerNumber)).status).toBe('approved');
      expect(output.stdout).toContain(registerNumber);
      expect(output.errLines).toEqual([]);
    });

    it('the number is matched whatever its case and surrounding spaces', async () => {
      const { registerNumber } = await applicant();
      const res = await run('applications', 'approve', ` ${registerNumber.toLowerCase()} `);
      expect(res.code, res.stderr).toBe(0);
      expect((await applicationRow(h.db, registerNumber)).status).toBe('approved');
    });

    it('approving twice → exit 1, nothing changed the second time (no second notice or mail)', async () => {
      const { registerNumber } = await applicant();
      expect((await run('applications', 'approve', registerNumber)).code).toBe(0);
      const first = await applicationRow(h.db, registerNumber);
      h.mailer.clear();

      const again = await run('applications', 'approve', registerNumber);
      expect(again.code).toBe(1);
      expect(again.stdout).toBe('');
      expect(again.stderr).toContain(registerNumber);
      expect(again.stderr).toContain('承認済み（approved）');
      expect(again.stderr).toContain('何も変更していません');
      await expectUnchanged(registerNumber, first, 1);
      expect(h.mailer.sent).toEqual([]);
    });

    it('an unknown number → exit 1, nothing changed', async () => {
      const { registerNumber, application } = await applicant();
      const res = await run('applications', 'approve', 'R20990101-999999');
      expect(res.code).toBe(1);
      expect(res.stderr).toContain('受付番号 R20990101-999999 の申請は見つかりません');
      await expectUnchanged(registerNumber, application);
      expect(h.mailer.sent).toEqual([]);
    });

    it('a withdrawn applicant → exit 1, nothing changed, no mail', async () => {
      const { member, registerNumber, application } = await applicant();
      await h.db.updateTable('users').set({ status: 'withdrawn' }).where('id', '=', member.id).execute();
      const res = await run('applications', 'approve', registerNumber);
      expect(res.code).toBe(1);
      expect(res.stderr).toContain('退会済み');
      await expectUnchanged(registerNumber, application);
      expect(h.mailer.sent).toEqual([]);
    });

    it('no number, two numbers or an unknown option → exit 1 with the syntax, nothing changed', async () => {
      const { registerNumber, application } = await applicant();
      for (const argv of [[], [registerNumber, nextRegisterNumber()], [registerNumber, '--force']]) {
        const res = await run('applications', 'approve', ...argv);
        expect(res.code, argv.join(' ')).toBe(1);
        expect(res.stderr).toContain('npm run operator -- applications approve <registerNumber>');
      }
      await expectUnchanged(registerNumber, application);
    });

    it('the mail fails → exit 1 saying so, but the approval and the notice stay (my page shows them)', async () => {
      const { member, registerNumber } = await applicant();
      h.mailer.failing = true;
      const res = await run('applications', 'approve', registerNumber);
      expect(res.code).toBe(1);
      expect(res.stderr).toContain('メール送信に失敗しました');
      expect(res.stderr).toContain('SMTP relay unavailable (fake)');
      expect(res.stderr).toContain(member.email);
      expect(res.stdout).toContain(registerNumber); // the decision itself was reported as done

      const row = await applicationRow(h.db, registerNumber);
      expect(row.status).toBe('approved');
      expect(row.decided_at).not.toBeNull();
      expect((await noticesOf(h.db, member.id)).map((n) => n.message)).toEqual([APPROVED_NOTICE]);

      // The mail waits in the outbox for the site's worker (or outbox retry).
      const waiting = (await unsentMail(h.db)).filter((m) => m.to_address === member.email);
      expect(waiting.map((m) => [m.template, JSON.parse(m.values_json)])).toEqual([['applicationApproved', { name: '山田 花子', registerNumber }]]);
      expect(res.stderr).toContain(waiting[0]!.id);

      h.mailer.failing = false;
      const page = await myPage(h, member);
      expect(page.applications[0]!.status).toBe('approved');
      expect(page.notices.map((n) => n.message)).toEqual([APPROVED_NOTICE]);
    });

    it('the mail cannot be queued → exit 1 and no decision either: status, notice and queued mail commit together', async () => {
      const { member, registerNumber, application } = await applicant();
      const broken = { db: h.db.withPlugin(new FailingInserts('mail_outbox')), mailer: h.mailer };
      for (const argv of [['approve', registerNumber], ['decline', registerNumber, '--reason', '理由']]) {
        const res = await operator(broken, 'applications', ...argv);
        expect(res.code, argv.join(' ')).toBe(1);
        expect(res.stdout).toBe('');
        expect(res.stderr).toBe(say(text.errors.notSaved, { detail: 'insert into mail_outbox failed (injected)' }));
        await expectUnchanged(registerNumber, application);
      }
      expect(await noticesOf(h.db, member.id)).toEqual([]);
      expect(h.mailer.sent).toEqual([]);

      // Nothing half-done is left in the way: the same decision goes through once the queue works.
      expect((await run('applications', 'approve', registerNumber)).code).toBe(0);
      expect(h.mailer.sent.map((m) => m.template)).toEqual(['applicationApproved']);
    });

    it('the mail is written to the outbox with the decision and marked sent once the relay took it', async () => {
      const { member, registerNumber } = await applicant();
      expect((await run('applications', 'approve', registerNumber)).code).toBe(0);
      const rows = await h.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', member.email).execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ template: 'applicationApproved', attempts: 1, last_error: null });
      expect(rows[0]!.sent_at).not.toBeNull();
    });

    it('two operators deciding the same application at once: exactly one wins', async () => {
      const { member, registerNumber } = await applicant();
      const results = await Promise.all([run('applications', 'approve', registerNumber), run('applications', 'decline', registerNumber)]);
      expect(results.map((r) => r.code).sort()).toEqual([0, 1]);
      const winner = results[0]!.code === 0 ? 'approved' : 'declined';
      expect((await applicationRow(h.db, registerNumber)).status).toBe(winner);
      expect(await noticesOf(h.db, member.id)).toHaveLength(1);
      expect(h.mailer.sent).toHaveLength(1);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('applications decline', () => {
    it('with --reason: pending → declined, the notice, and the declined mail carrying the reason', async () => {
      const { member, registerNumber } = await applicant();
      const reason = '募集人数に達したため、今回の受付を終了しました。';
      const res = await run('applications', 'decline', registerNumber, '--reason', `  ${reason} `);
      expect(res.code, res.stderr).toBe(0);

      const row = await applicationRow(h.db, registerNumber);
      expect(row.status).toBe('declined');
      expect(row.decided_at).not.toBeNull();
      expect((await noticesOf(h.db, member.id)).map((n) => n.message)).toEqual([DECLINED_NOTICE]);
      expect(text.memberNotice.applicationDeclined).toBe(DECLINED_NOTICE);
      expect(h.mailer.sent).toEqual([{ to: member.email, template: 'applicationDeclined', values: { name: '山田 花子', registerNumber, reason } }]);
    });

    it('without --reason the mail gets an empty reason', async () => {
      const { member, registerNumber } = await applicant();
      const res = await run('applications', 'decline', registerNumber);
      expect(res.code, res.stderr).toBe(0);
      expect(h.mailer.sent).toEqual([{ to: member.email, template: 'applicationDeclined', values: { name: '山田 花子', registerNumber, reason: '' } }]);
    });

    it('an approved application cannot be declined → exit 1, nothing changed', async () => {
      const decidedAt = '2025-04-05T03:00:00.000Z';
      const { registerNumber, application } = await applicant({ status: 'approved', decidedAt });
      const res = await run('applications', 'decline', registerNumber, '--reason', '理由');
      expect(res.code).toBe(1);
      expect(res.stderr).toContain('承認済み（approved）');
      expect(res.stderr).toContain('2025-04-05 12:00');
      await expectUnchanged(registerNumber, application);
      expect(h.mailer.sent).toEqual([]);
    });

    it('the mail fails → exit 1, the decline and the notice stay', async () => {
      const { member, registerNumber } = await applicant();
      h.mailer.failing = true;
      const res = await run('applications', 'decline', registerNumber);
      expect(res.code).toBe(1);
      expect(res.stderr).toContain('メール送信に失敗しました');
      expect((await applicationRow(h.db, registerNumber)).status).toBe('declined');
      expect((await noticesOf(h.db, member.id)).map((n) => n.message)).toEqual([DECLINED_NOTICE]);
    });
  });
});
