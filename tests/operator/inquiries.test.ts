// npm run operator -- inquiries list / show / answer / close, in-process against SQLite and
// PostgreSQL: inquiries sent through POST /v1/contact (or inserted with known dates), the
// answer, the member's notice and the mail, and the member's inquiry history by status.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { answerInquiry } from '../../src/server/operator/inquiries';
import { say } from '../../src/server/operator/text';
import { DATABASES, Harness, japaneseText, setUpOrFail, type Member } from '../support/api-harness';
import {
  FailingInserts,
  RecordingOutput,
  addInquiry,
  clearOperatorTables,
  countNotices,
  everyPage,
  inquiryRow,
  operatorText,
  myPage,
  nextTicketNo,
  noticesOf,
  operator,
  unsentMail,
} from './operator-support';

const text = operatorText;
const noticeFor = (ticketNo: string) => `お問い合わせ（受付番号：${ticketNo}）に回答しました。`;
const ANSWER = '審査には通常5営業日ほどかかります。\n結果はメールでお知らせします。';

const USAGE = {
  list: 'npm run operator -- inquiries list [--status open|answered|closed|all] [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--sort newest|oldest] [--after <ticketNo>]',
  show: 'npm run operator -- inquiries show <ticketNo>',
  answer: 'npm run operator -- inquiries answer <ticketNo> --message "…"',
  close: 'npm run operator -- inquiries close <ticketNo>',
};

interface HistoryItem {
  id: string;
  created_at: string;
  category: string;
  ticket_no: string;
  subject: string;
  status: string;
}

describe.each(DATABASES)('operator: inquiries ($name)', ({ kind }) => {
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

  const contactPayload = (overrides: Record<string, unknown> = {}) => ({
    last_name_kanji: '佐藤',
    first_name_kanji: '次郎',
    email: h.uniqueEmail('visitor'),
    inquiry_user_type: '2',
    inquiry_type: '4',
    job: '1',
    purpose_detail: japaneseText(60),
    privacy_checked: true,
    agree_privacy: true,
    ...overrides,
  });

  /** A visitor's inquiry through the contact form (client key, no login). */
  async function visitorInquiry(overrides: Record<string, unknown> = {}) {
    const payload = contactPayload(overrides);
    const res = await h.post('/v1/contact', payload);
    expect(res.statusCode, res.body).toBe(200);
    h.mailer.clear(); // the acknowledgement
    return { payload, ticketNo: res.json<{ ticket_no: string }>().ticket_no };
  }

  /** A logged-in member's inquiry through the contact form: it carries their name and address. */
  async function memberInquiry(member?: Member) {
    const m = member ?? (await h.createMember());
    const { token } = await h.loginWithCode(m);
    const res = await h.asMember('POST', '/v1/contact', token, contactPayload({ inquiry_user_type: '1', inquiry_type: '1' }));
    expect(res.statusCode, res.body).toBe(200);
    h.mailer.clear();
    return { member: m, token, ticketNo: res.json<{ ticket_no: string }>().ticket_no };
  }

  /** The member's inquiry history (GET /v1/user/contact/list) for `status` (none: the default). */
  async function history(token: string, status?: string) {
    const res = await h.asMember('GET', `/v1/user/contact/list${status ? `?status=${status}` : ''}`, token);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<HistoryItem[]>().map((item) => [item.ticket_no, item.status]);
  }

  /** Asserts that the inquiry, the notices and the mail are as they were. */
  async function expectUnchanged(ticketNo: string, before: { status: string; answer: string | null; updated_at: string }, notices = 0) {
    const row = await inquiryRow(h.db, ticketNo);
    expect({ status: row.status, answer: row.answer, updated_at: row.updated_at }).toEqual({
      status: before.status,
      answer: before.answer,
      updated_at: before.updated_at,
    });
    expect(await countNotices(h.db)).toBe(notices);
  }

  // -------------------------------------------------------------------------------------------
  describe('inquiries list', () => {
    it('no open inquiries → a "none" line, exit 0', async () => {
      await addInquiry(h.db, { status: 'closed' });
      const res = await run('inquiries', 'list');
      expect(res).toMatchObject({ code: 0, stderr: '', stdout: text.inquiries.none });
    });

    it('by default the open ones, newest first: number, status, time (Japan), type label, name, e-mail, member or visitor, start of the content', async () => {
      const member = await h.createMember();
      const gone = await h.createMember();
      await h.db.updateTable('users').set({ status: 'withdrawn' }).where('id', '=', gone.id).execute();
      const older = await addInquiry(h.db, { createdAt: '2025-04-01T00:30:00.000Z', type: '7', content: '退会の手続きについて\n教えてください。よろしくお願いします。' });
      const newer = await addInquiry(h.db, {
        createdAt: '2025-04-02T15:05:00.000Z',
        userId: member.id,
        lastName: '山田',
        firstName: '花子',
        email: member.email,
        type: '2',
        content: japaneseText(50),
      });
      const fromGone = await addInquiry(h.db, { createdAt: '2025-03-31T12:00:00.000Z', userId: gone.id, email: gone.email, type: '99' });
      const answered = await addInquiry(h.db, { createdAt: '2025-04-03T00:00:00.000Z', status: 'answered', answer: '回答' });

      const res = await run('inquiries', 'list');
      expect(res.code, res.stderr).toBe(0);
      const [header, rule, ...rows] = res.out;
      for (const column of Object.values(text.inquiries.columns)) expect(header).toContain(column);
      expect(rule).toMatch(/^[- ]+$/);
      expect(rows).toHaveLength(4); // three open inquiries and the count
      expect(res.stdout).not.toContain(answered.ticket_no);

      expect(rows[0]).toContain(newer.ticket_no);
      expect(rows[0]).toContain('対応中（open）');
      expect(rows[0]).toContain('2025-04-03 00:05'); // 15:05 UTC is 00:05 the next day in Japan
      expect(rows[0]).toContain('ログイン・パスワードについて');
      expect(rows[0]).toContain('山田 花子');
      expect(rows[0]).toContain(member.email);
      expect(rows[0]).toMatch(/\s会員\s/);
      expect(rows[0]).toContain(`${japaneseText(30)}…`); // the start of the content only
      expect(rows[0]).not.toContain(japaneseText(31));

      expect(rows[1]).toContain(older.ticket_no);
      expect(rows[1]).toContain('2025-04-01 09:30');
      expect(rows[1]).toContain('退会について');
      expect(rows[1]).toContain('佐藤 次郎');
      expect(rows[1]).toContain(older.email);
      expect(rows[1]).toContain(text.inquiries.visitor);
      expect(rows[1]).toContain('退会の手続きについて 教えてください。'); // on one line

      expect(rows[2]).toContain(fromGone.ticket_no);
      expect(rows[2]).toContain('その他');
      expect(rows[2]).toContain(text.inquiries.memberWithdrawn);
      expect(rows[3]).toBe('3 件');
    });

    it('columns line up although names, labels and content are full-width', async () => {
      await addInquiry(h.db, { lastName: '長谷川', firstName: 'さくら', type: '6', content: '短い内容です。' });
      await addInquiry(h.db, { lastName: '林', firstName: '一', type: '1', email: 'a@example.com' });
      const res = await run('inquiries', 'list');
      const [header, , a, b] = res.out;
      const emailColumn = (line: string) => {
        const at = line.indexOf('@');
        const start = line.lastIndexOf(' ', at) + 1;
        return [...line.slice(0, start)].reduce((w, c) => w + (/[\u3000-\u9fff\uff00-\uff60]/.test(c) ? 2 : 1), 0);
      };
      expect(emailColumn(a!)).toBe(emailColumn(b!));
      expect(header).toContain(text.inquiries.columns.email);
    });

    it('--status answered / closed / all filters as the member\'s history does; all is every status, newest first', async () => {
      const open = await addInquiry(h.db, { createdAt: '2025-04-01T00:00:00.000Z' });
      const answered = await addInquiry(h.db, { createdAt: '2025-04-02T00:00:00.000Z', status: 'answered', answer: '回答' });
      const closed = await addInquiry(h.db, { createdAt: '2025-04-03T00:00:00.000Z', status: 'closed' });

      const onlyAnswered = await run('inquiries', 'list', '--status', 'answered');
      expect(onlyAnswered.code, onlyAnswered.stderr).toBe(0);
      expect(onlyAnswered.stdout).toContain(answered.ticket_no);
      expect(onlyAnswered.stdout).toContain('回答済み（answered）');
      expect(onlyAnswered.stdout).not.toContain(open.ticket_no);
      expect(onlyAnswered.stdout).not.toContain(closed.ticket_no);

      const onlyClosed = await run('inquiries', 'list', '--status=closed');
      expect(onlyClosed.stdout).toContain(closed.ticket_no);
      expect(onlyClosed.stdout).toContain('完了（closed）');
      expect(onlyClosed.stdout).not.toContain(answered.ticket_no);

      const all = await run('inquiries', 'list', '--status', 'all');
      expect(all.code).toBe(0);
      const order = [closed, answered, open].map((i) => all.stdout.indexOf(i.ticket_no));
      expect(order.every((at) => at > 0)).toBe(true);
      expect([...order].sort((x, y) => x - y)).toEqual(order);
      expect(all.out.at(-1)).toBe('3 件');

      const onlyOpen = await run('inquiries', 'list', '--status', 'open');
      expect(onlyOpen.stdout).toContain(open.ticket_no);
      expect(onlyOpen.stdout).not.toContain(answered.ticket_no);
      await h.db.deleteFrom('inquiries').where('status', '=', 'open').execute();
      expect(await run('inquiries', 'list', '--status', 'open')).toMatchObject({ code: 0, stdout: text.inquiries.none });
    });

    it('more than a page: the newest 100, then the command the last line gives shows the next from the last one shown, ties on the time by number, none twice or missed', async () => {
      // 230 inquiries, two to each second, a third of them answered; numbers out of time order.
      const rows = Array.from({ length: 230 }, (_, i) => ({
        ticketNo: `Q250401-${String((i * 7919) % 100000).padStart(5, '0')}`,
        createdAt: new Date(Date.UTC(2025, 3, 1) + Math.floor(i / 2) * 1000).toISOString(),
        status: i % 3 === 0 ? ('answered' as const) : ('open' as const),
      }));
      for (const row of rows) await addInquiry(h.db, row);
      const newestFirst = (list: typeof rows) =>
        [...list].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.ticketNo.localeCompare(a.ticketNo)).map((r) => r.ticketNo);
      const numbers = (lines: string[]) => lines.map((line) => line.split(/\s+/)[0]);

      const all = await everyPage(h, 'inquiries', 'list', '--status', 'all');
      expect(all.pages.map((page) => page.length)).toEqual([100, 100, 30]);
      expect(all.pages.flatMap(numbers)).toEqual(newestFirst(rows));
      expect(all.commands[1]).toEqual(['inquiries', 'list', '--status', 'all', '--after', numbers(all.pages[0]!).at(-1)]);
      const open = await everyPage(h, 'inquiries', 'list');
      expect(open.pages.map((page) => page.length)).toEqual([100, 53]);
      expect(open.pages.flatMap(numbers)).toEqual(newestFirst(rows.filter((r) => r.status === 'open')));

      const unknown = await run('inquiries', 'list', '--after', 'Q000000-00000');
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain(say(text.errors.unknownAfter, { value: 'Q000000-00000' }));
      expect(unknown.stderr).toContain(USAGE.list);
    });

    it('a type no longer in the master list shows its code', async () => {
      const row = await addInquiry(h.db, { type: '42' });
      const res = await run('inquiries', 'list');
      expect(res.code).toBe(0);
      expect(res.out.find((line) => line.includes(row.ticket_no))).toMatch(/\s42\s/);
    });

    it('an unknown --status, an unknown option or a stray argument → exit 1 with the syntax', async () => {
      for (const argv of [['--status', 'pending'], ['--status'], ['--state', 'open'], ['open']]) {
        const res = await run('inquiries', 'list', ...argv);
        expect(res.code, argv.join(' ')).toBe(1);
        expect(res.stdout).toBe('');
        expect(res.stderr).toContain(USAGE.list);
      }
      expect((await run('inquiries', 'list', '--status', 'done')).stderr).toContain('--status には open、answered、closed、all');
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('inquiries show', () => {
    it('everything: labels with their codes, the full content on its own lines, and (未回答) before an answer', async () => {
      const content = '1行目の内容です。\n2行目の内容です。\n\n4行目の内容です。';
      const row = await addInquiry(h.db, {
        createdAt: '2025-04-01T00:30:00.000Z',
        updatedAt: '2025-04-01T01:00:00.000Z',
        type: '5',
        userType: '3',
        job: '4',
        email: 'town@example.jp',
        content,
      });
      const res = await run('inquiries', 'show', row.ticket_no);
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).toBe('');
      const f = text.inquiries.fields;
      const line = (label: string) => res.out.find((l) => l.startsWith(label)) ?? '';
      expect(line(f.ticketNo)).toContain(row.ticket_no);
      expect(line(f.status)).toContain('対応中（open）');
      expect(line(f.receivedAt)).toContain('2025-04-01 09:30');
      expect(line(f.updatedAt)).toContain('2025-04-01 10:00');
      expect(line(f.type)).toContain('航空券・運賃について（5）');
      expect(line(f.userType)).toContain('自治体・関係団体（3）');
      expect(line(f.job)).toContain('公務員（4）');
      expect(line(f.name)).toContain('佐藤 次郎');
      expect(line(f.email)).toContain('town@example.jp');
      expect(line(f.sender)).toContain(text.inquiries.visitor);
      expect(res.stdout).toContain(`${f.content}:\n  1行目の内容です。\n  2行目の内容です。\n\n  4行目の内容です。`);
      expect(res.stdout).toContain(`${f.answer}:\n  ${text.inquiries.noAnswer}`);
      expect(res.stdout).not.toContain(f.memberEmail);
    });

    it('an answered inquiry shows its answer; a member who changed address since shows the current one', async () => {
      const member = await h.createMember();
      const row = await addInquiry(h.db, { userId: member.id, email: 'old-address@example.com', status: 'answered', answer: ANSWER });
      const res = await run('inquiries', 'show', ` ${row.ticket_no.toLowerCase()} `);
      expect(res.code, res.stderr).toBe(0);
      expect(res.stdout).toContain('回答済み（answered）');
      expect(res.stdout).toContain(`${text.inquiries.fields.answer}:\n  審査には通常5営業日ほどかかります。\n  結果はメールでお知らせします。`);
      expect(res.stdout).toContain('old-address@example.com');
      expect(res.out.find((l) => l.startsWith(text.inquiries.fields.memberEmail))).toContain(member.email);
      expect(res.out.find((l) => l.startsWith(text.inquiries.fields.sender))).toContain(text.inquiries.member);
    });

    it('an unknown number → exit 1; no number or two numbers → exit 1 with the syntax', async () => {
      const unknown = await run('inquiries', 'show', 'Q990101-99999');
      expect(unknown.code).toBe(1);
      expect(unknown.stdout).toBe('');
      expect(unknown.stderr).toContain('受付番号 Q990101-99999 のお問い合わせは見つかりません');
      for (const argv of [[], ['  '], [nextTicketNo(), nextTicketNo()], [nextTicketNo(), '--full']]) {
        const res = await run('inquiries', 'show', ...argv);
        expect(res.code, argv.join(' ')).toBe(1);
        expect(res.stderr).toContain(USAGE.show);
      }
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('inquiries answer', () => {
    it('a member\'s inquiry (sent through the API): answered with the answer and updated_at, a notice, the mail; the history moves from open to answered', async () => {
      const { member, token, ticketNo } = await memberInquiry();
      expect(await history(token)).toEqual([[ticketNo, 'open']]);
      const before = Date.now();

      const res = await run('inquiries', 'answer', ticketNo, '--message', `  ${ANSWER}\n`);
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).toBe('');
      expect(res.stdout).toContain(ticketNo);
      expect(res.stdout).toContain(member.email);
      expect(res.stdout).toContain('回答済み（answered）');
      expect(res.stdout).toContain(noticeFor(ticketNo));

      const row = await inquiryRow(h.db, ticketNo);
      expect(row.status).toBe('answered');
      expect(row.answer).toBe(ANSWER);
      expect(Date.parse(row.updated_at)).toBeGreaterThanOrEqual(before - 1000);
      expect(Date.parse(row.updated_at)).toBeLessThanOrEqual(Date.now() + 1000);
      expect(row.updated_at > row.created_at).toBe(true);

      const notices = await noticesOf(h.db, member.id);
      expect(notices.map((n) => n.message)).toEqual([noticeFor(ticketNo)]);
      expect(notices[0]!.created_at).toBe(row.updated_at);
      expect(text.memberNotice.inquiryAnswered).toBe('お問い合わせ（受付番号：{ticketNo}）に回答しました。');

      expect(h.mailer.sent).toEqual([{ to: member.email, template: 'inquiryAnswered', values: { name: '山田 花子', ticketNo, answer: ANSWER } }]);

      // The member's inquiry history: the status filter now tells open from answered.
      expect(await history(token)).toEqual([]);
      expect(await history(token, 'open')).toEqual([]);
      expect(await history(token, 'answered')).toEqual([[ticketNo, 'answered']]);
      expect(await history(token, 'all')).toEqual([[ticketNo, 'answered']]);
      h.mailer.clear();
      expect((await myPage(h, member)).notices.map((n) => n.message)).toEqual([noticeFor(ticketNo)]);
    });

    it('a visitor\'s inquiry (sent through the API): the mail to the address the form carried, no notice', async () => {
      const { payload, ticketNo } = await visitorInquiry();
      const res = await run('inquiries', 'answer', ticketNo, `--message=${ANSWER}`);
      expect(res.code, res.stderr).toBe(0);
      expect((await inquiryRow(h.db, ticketNo)).status).toBe('answered');
      expect(await countNotices(h.db)).toBe(0);
      expect(res.stdout).not.toContain(text.inquiries.noticePosted.split(':')[0]!);
      expect(h.mailer.sent).toEqual([{ to: payload.email, template: 'inquiryAnswered', values: { name: '佐藤 次郎', ticketNo, answer: ANSWER } }]);
    });

    it('a member who changed address and name since asking: the mail goes to the current address and name', async () => {
      const member = await h.createMember();
      const row = await addInquiry(h.db, { userId: member.id, lastName: '旧姓', firstName: '花子', email: 'old-address@example.com' });
      const res = await run('inquiries', 'answer', row.ticket_no, '--message', '回答です。');
      expect(res.code, res.stderr).toBe(0);
      expect(h.mailer.sent).toEqual([{ to: member.email, template: 'inquiryAnswered', values: { name: '山田 花子', ticketNo: row.ticket_no, answer: '回答です。' } }]);
      expect((await noticesOf(h.db, member.id)).map((n) => n.message)).toEqual([noticeFor(row.ticket_no)]);
    });

    it('a member who has withdrawn since: answered and mailed to the address of the inquiry, no notice (they cannot log in)', async () => {
      const member = await h.createMember();
      const row = await addInquiry(h.db, { userId: member.id, email: member.email, lastName: '山田', firstName: '花子' });
      await h.db.updateTable('users').set({ status: 'withdrawn' }).where('id', '=', member.id).execute();
      const res = await run('inquiries', 'answer', row.ticket_no, '--message', '回答です。');
      expect(res.code, res.stderr).toBe(0);
      expect(res.stdout).toContain(text.inquiries.noticeSkippedWithdrawn);
      expect((await inquiryRow(h.db, row.ticket_no)).status).toBe('answered');
      expect(await countNotices(h.db)).toBe(0);
      expect(h.mailer.sent).toEqual([{ to: member.email, template: 'inquiryAnswered', values: { name: '山田 花子', ticketNo: row.ticket_no, answer: '回答です。' } }]);
    });

    it('the command function runs on its own: (db, mailer, args, output)', async () => {
      const row = await addInquiry(h.db);
      const output = new RecordingOutput();
      await answerInquiry(h.db, h.mailer, [row.ticket_no, '--message', '回答です。'], output);
      expect((await inquiryRow(h.db, row.ticket_no)).status).toBe('answered');
      expect(output.stdout).toContain(row.ticket_no);
      expect(output.errLines).toEqual([]);
    });

    it('an answered or closed inquiry cannot be answered → exit 1, nothing changed, no mail', async () => {
      const updatedAt = '2025-04-05T03:00:00.000Z';
      for (const status of ['answered', 'closed'] as const) {
        const row = await addInquiry(h.db, { status, answer: status === 'answered' ? '最初の回答' : null, updatedAt });
        const res = await run('inquiries', 'answer', row.ticket_no, '--message', '二度目の回答');
        expect(res.code, status).toBe(1);
        expect(res.stdout).toBe('');
        expect(res.stderr).toContain(row.ticket_no);
        expect(res.stderr).toContain(status === 'answered' ? '回答済み（answered）' : '完了（closed）');
        expect(res.stderr).toContain('2025-04-05 12:00');
        expect(res.stderr).toContain('何も変更していません');
        await expectUnchanged(row.ticket_no, row);
      }
      expect(h.mailer.sent).toEqual([]);
    });

    it('answering twice → the second time exit 1, no second notice or mail', async () => {
      const { member, ticketNo } = await memberInquiry();
      expect((await run('inquiries', 'answer', ticketNo, '--message', '回答です。')).code).toBe(0);
      const first = await inquiryRow(h.db, ticketNo);
      h.mailer.clear();
      const again = await run('inquiries', 'answer', ticketNo, '--message', '別の回答です。');
      expect(again.code).toBe(1);
      await expectUnchanged(ticketNo, first, 1);
      expect(await noticesOf(h.db, member.id)).toHaveLength(1);
      expect(h.mailer.sent).toEqual([]);
    });

    it('an unknown number → exit 1, nothing changed', async () => {
      const row = await addInquiry(h.db);
      const res = await run('inquiries', 'answer', 'Q990101-99999', '--message', '回答です。');
      expect(res.code).toBe(1);
      expect(res.stderr).toContain('受付番号 Q990101-99999 のお問い合わせは見つかりません。何も変更していません。');
      await expectUnchanged(row.ticket_no, row);
      expect(h.mailer.sent).toEqual([]);
    });

    it('no message, a blank message, no number, two numbers or an unknown option → exit 1 with the syntax, nothing changed', async () => {
      const row = await addInquiry(h.db);
      const cases: [string[], string][] = [
        [[row.ticket_no], text.errors.answerRequired],
        [[row.ticket_no, '--message', '  \n '], text.errors.answerRequired],
        [[row.ticket_no, '--message'], 'オプションの指定が正しくありません'],
        [['--message', '回答'], text.errors.ticketNoRequired],
        [[row.ticket_no, nextTicketNo(), '--message', '回答'], '余分な引数があります'],
        [[row.ticket_no, '--reason', '回答'], '--reason'],
      ];
      for (const [argv, message] of cases) {
        const res = await run('inquiries', 'answer', ...argv);
        expect(res.code, argv.join(' ')).toBe(1);
        expect(res.stderr, argv.join(' ')).toContain(message);
        expect(res.stderr).toContain(USAGE.answer);
      }
      await expectUnchanged(row.ticket_no, row);
      expect(h.mailer.sent).toEqual([]);
    });

    it('the mail fails → exit 1 saying so, but the answer, the status and the notice stay; show prints the answer', async () => {
      const { member, token, ticketNo } = await memberInquiry();
      h.mailer.failing = true;
      const res = await run('inquiries', 'answer', ticketNo, '--message', ANSWER);
      expect(res.code).toBe(1);
      expect(res.stdout).toContain(ticketNo); // the answer itself was reported as stored
      expect(res.stderr).toContain('回答メールの送信に失敗しました');
      expect(res.stderr).toContain('SMTP relay unavailable (fake)');
      expect(res.stderr).toContain(member.email);
      expect(res.stderr).toContain(text.inquiries.noticeAlsoPosted);
      expect(res.stderr).toContain(`inquiries show ${ticketNo}`);

      const row = await inquiryRow(h.db, ticketNo);
      expect(row.status).toBe('answered');
      expect(row.answer).toBe(ANSWER);
      expect((await noticesOf(h.db, member.id)).map((n) => n.message)).toEqual([noticeFor(ticketNo)]);

      // The mail waits in the outbox for the site's worker (or outbox retry).
      const waiting = (await unsentMail(h.db)).filter((m) => m.to_address === member.email);
      expect(waiting.map((m) => [m.template, JSON.parse(m.values_json)])).toEqual([['inquiryAnswered', { name: '山田 花子', ticketNo, answer: ANSWER }]]);
      expect(res.stderr).toContain(waiting[0]!.id);

      h.mailer.failing = false;
      expect(await history(token, 'answered')).toEqual([[ticketNo, 'answered']]);
      const shown = await run('inquiries', 'show', ticketNo);
      expect(shown.stdout).toContain('  結果はメールでお知らせします。');
    });

    it('the mail cannot be queued → exit 1 and no answer either: answer, status, notice and queued mail commit together', async () => {
      const { member, token, ticketNo } = await memberInquiry();
      const before = await inquiryRow(h.db, ticketNo);
      const res = await operator({ db: h.db.withPlugin(new FailingInserts('mail_outbox')), mailer: h.mailer }, 'inquiries', 'answer', ticketNo, '--message', ANSWER);
      expect(res.code).toBe(1);
      expect(res.stdout).toBe('');
      expect(res.stderr).toBe(say(text.errors.notSaved, { detail: 'insert into mail_outbox failed (injected)' }));
      await expectUnchanged(ticketNo, before);
      expect(await noticesOf(h.db, member.id)).toEqual([]);
      expect(h.mailer.sent).toEqual([]);
      expect(await history(token)).toEqual([[ticketNo, 'open']]);

      // Nothing half-done is left in the way: the same answer goes through once the queue works.
      expect((await run('inquiries', 'answer', ticketNo, '--message', ANSWER)).code).toBe(0);
      expect(h.mailer.sent.map((m) => m.template)).toEqual(['inquiryAnswered']);
    });

    it('the mail to a visitor fails → exit 1, the answer stays, no mention of a notice', async () => {
      const { ticketNo } = await visitorInquiry();
      h.mailer.failing = true;
      const res = await run('inquiries', 'answer', ticketNo, '--message', ANSWER);
      expect(res.code).toBe(1);
      expect(res.stderr).toContain('回答メールの送信に失敗しました');
      expect(res.stderr).not.toContain(text.inquiries.noticeAlsoPosted);
      expect((await inquiryRow(h.db, ticketNo)).status).toBe('answered');
      expect(await countNotices(h.db)).toBe(0);
    });

    it('two operators answering the same inquiry at once: exactly one wins', async () => {
      const { member, ticketNo } = await memberInquiry();
      const results = await Promise.all([
        run('inquiries', 'answer', ticketNo, '--message', '回答A'),
        run('inquiries', 'answer', ticketNo, '--message', '回答B'),
      ]);
      expect(results.map((r) => r.code).sort()).toEqual([0, 1]);
      const winner = results[0]!.code === 0 ? '回答A' : '回答B';
      expect((await inquiryRow(h.db, ticketNo)).answer).toBe(winner);
      expect(await noticesOf(h.db, member.id)).toHaveLength(1);
      expect(h.mailer.sent).toHaveLength(1);
      expect(h.mailer.sent[0]!.values.answer).toBe(winner);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('inquiries close', () => {
    it('open → closed with updated_at, no mail and no notice; the member\'s history shows it under closed', async () => {
      const { token, ticketNo } = await memberInquiry();
      const before = Date.now();
      const res = await run('inquiries', 'close', ticketNo);
      expect(res.code, res.stderr).toBe(0);
      expect(res.stdout).toContain(ticketNo);
      expect(res.stdout).toContain('完了（closed）');
      expect(res.stdout).toContain('対応中（open）');
      const row = await inquiryRow(h.db, ticketNo);
      expect(row.status).toBe('closed');
      expect(row.answer).toBeNull();
      expect(Date.parse(row.updated_at)).toBeGreaterThanOrEqual(before - 1000);
      expect(h.mailer.sent).toEqual([]);
      expect(await countNotices(h.db)).toBe(0);
      expect(await history(token)).toEqual([]);
      expect(await history(token, 'closed')).toEqual([[ticketNo, 'closed']]);
    });

    it('answered → closed, the answer kept', async () => {
      const { token, ticketNo } = await memberInquiry();
      expect((await run('inquiries', 'answer', ticketNo, '--message', ANSWER)).code).toBe(0);
      h.mailer.clear();
      const res = await run('inquiries', 'close', ticketNo.toLowerCase());
      expect(res.code, res.stderr).toBe(0);
      expect(res.stdout).toContain('回答済み（answered）');
      const row = await inquiryRow(h.db, ticketNo);
      expect(row.status).toBe('closed');
      expect(row.answer).toBe(ANSWER);
      expect(h.mailer.sent).toEqual([]);
      expect(await countNotices(h.db)).toBe(1); // only the answer's
      expect(await history(token, 'answered')).toEqual([]);
      expect(await history(token, 'all')).toEqual([[ticketNo, 'closed']]);
    });

    it('a closed inquiry → exit 1, nothing changed', async () => {
      const row = await addInquiry(h.db, { status: 'closed', updatedAt: '2025-04-05T03:00:00.000Z' });
      const res = await run('inquiries', 'close', row.ticket_no);
      expect(res.code).toBe(1);
      expect(res.stderr).toContain('完了（closed）');
      expect(res.stderr).toContain('2025-04-05 12:00');
      expect(res.stderr).toContain('何も変更していません');
      await expectUnchanged(row.ticket_no, row);
    });

    it('an unknown number, no number, two numbers or an option → exit 1, nothing changed', async () => {
      const row = await addInquiry(h.db);
      const unknown = await run('inquiries', 'close', 'Q990101-99999');
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('Q990101-99999');
      for (const argv of [[], [row.ticket_no, nextTicketNo()], [row.ticket_no, '--message', 'x']]) {
        const res = await run('inquiries', 'close', ...argv);
        expect(res.code, argv.join(' ')).toBe(1);
        expect(res.stderr).toContain(USAGE.close);
      }
      await expectUnchanged(row.ticket_no, row);
    });
  });
});
