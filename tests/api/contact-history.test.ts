// GET /v1/user/contact/list?page=n&size=20&status=s: the calling member's own inquiries, newest
// first, as {id, created_at, category, ticket_no, subject, status}; status open (the default),
// answered, closed or all; anything else is a bad request. Inquiries of other members and of
// visitors never appear, even when they were sent from the member's address.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { InquiryStatus } from '../../src/server/db/types';
import { ANCHOR_STRIDE } from '../../src/server/db/page-anchors';
import { CLIENT_KEY, DATABASES, Harness, expectError, japaneseText, setUpOrFail, validContact, type Member } from '../support/api-harness';
import { rulesOf } from '../support/schema-messages';

/** The query schema's bounds and messages (schemas/api/contact-list-query.json). */
const listQuery = rulesOf('api.contact-list-query.json');

interface ListItem {
  id: string;
  created_at: string;
  category: string;
  ticket_no: string;
  subject: string;
  status: InquiryStatus;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(DATABASES)('GET /v1/user/contact/list ($name)', ({ kind }) => {
  let h: Harness;

  setUpOrFail(async () => {
    h = await Harness.start(kind);
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(() => {
    h.mailer.failing = false;
    h.mailer.clear();
  });

  /** A fresh member with a session. */
  async function member(email = h.uniqueEmail('history')): Promise<Member & { token: string }> {
    const m = await h.createMember(email, 'History-Pass-8!');
    const { token } = await h.loginWithCode(m);
    return { ...m, token };
  }

  /** Sends an inquiry (as the member holding `token`, or as a visitor) → its ticket number. The
   *  short pause keeps created_at strictly increasing, so "newest first" has one right order. */
  async function send(token: string | undefined, email: string, overrides: Record<string, unknown> = {}): Promise<string> {
    const res = await h.contact(token, validContact(email, overrides));
    expect(res.statusCode, res.body).toBe(200);
    await sleep(3);
    return res.json<{ ticket_no: string }>().ticket_no;
  }

  async function setStatus(ticketNo: string, status: InquiryStatus) {
    const updated = await h.db.updateTable('inquiries').set({ status, updated_at: new Date().toISOString() }).where('ticket_no', '=', ticketNo).executeTakeFirst();
    expect(Number(updated.numUpdatedRows)).toBe(1);
  }

  async function list(token: string, query: Record<string, string | number> = {}): Promise<ListItem[]> {
    const res = await h.contactList(token, query);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = res.json<ListItem[]>();
    expect(Array.isArray(body), res.body).toBe(true);
    return body;
  }

  const tickets = (items: ListItem[]) => items.map((i) => i.ticket_no);

  it('only the caller\'s own inquiries: never another member\'s, a visitor\'s or a former account\'s, even from the same address', async () => {
    // A withdrawn earlier account with the same address, with an inquiry of its own.
    const email = h.uniqueEmail('same');
    const former = await h.createMember(email, 'Former-Pass-1!', { status: 'withdrawn', withdrawn_at: new Date().toISOString() });
    const at = new Date().toISOString();
    await h.db
      .insertInto('inquiries')
      .values({
        id: randomUUID(),
        ticket_no: 'Q000101-00001',
        user_id: former.id,
        last_name_kanji: '山田',
        first_name_kanji: '花子',
        email,
        inquiry_user_type: '1',
        inquiry_type: '7',
        job: '1',
        content: japaneseText(30),
        status: 'open',
        answer: null,
        created_at: at,
        updated_at: at,
      })
      .execute();

    const me = await member(email);
    const other = await member();
    const mine = [await send(me.token, me.email), await send(me.token, me.email)];
    const visitorFromMyAddress = await send(undefined, me.email);
    const othersWithMyAddress = await send(other.token, me.email); // the server files it under the other member
    const visitorPlain = await send(undefined, h.uniqueEmail('visitor'));

    const seen = await list(me.token, { status: 'all' });
    expect(tickets(seen)).toEqual([...mine].reverse());
    for (const foreign of ['Q000101-00001', visitorFromMyAddress, othersWithMyAddress, visitorPlain]) expect(tickets(seen)).not.toContain(foreign);
    expect(tickets(await list(other.token, { status: 'all' }))).toEqual([othersWithMyAddress]);
  });

  it('a member without inquiries → 200 []', async () => {
    const m = await member();
    await send(undefined, m.email); // as a visitor: not the member's
    expect(await list(m.token)).toEqual([]);
    expect(await list(m.token, { status: 'all' })).toEqual([]);
  });

  it('item shape: {id, created_at, category, ticket_no, subject, status}', async () => {
    const m = await member();
    const content = japaneseText(100);
    const ticket = await send(m.token, m.email, { inquiry_type: '5', purpose_detail: content });
    const row = await h.db.selectFrom('inquiries').selectAll().where('ticket_no', '=', ticket).executeTakeFirstOrThrow();
    const items = await list(m.token);
    expect(items).toEqual([
      {
        id: row.id,
        created_at: row.created_at,
        category: '5',
        ticket_no: ticket,
        subject: `${content.slice(0, 40)}…`,
        status: 'open',
      },
    ]);
    expect(Date.parse(items[0].created_at)).not.toBeNaN();
  });

  it('subject: the start of the content, 40 characters then "…"; line breaks become spaces', async () => {
    const m = await member();
    const cases: [string, string][] = [
      [japaneseText(20), japaneseText(20)],
      [japaneseText(40), japaneseText(40)],
      [japaneseText(41), `${japaneseText(40)}…`],
      [japaneseText(200), `${japaneseText(40)}…`],
      [`${japaneseText(10)}\n\n${japaneseText(15)}`, `${japaneseText(10)} ${japaneseText(15)}`],
    ];
    const sent: string[] = [];
    for (const [content] of cases) sent.push(await send(m.token, m.email, { purpose_detail: content }));
    const byTicket = new Map((await list(m.token, { status: 'all' })).map((i) => [i.ticket_no, i.subject]));
    cases.forEach(([, subject], i) => expect(byTicket.get(sent[i])).toBe(subject));
  });

  it('status: open by default; open, answered, closed and all filter (statuses set in the database)', async () => {
    const m = await member();
    const [a, b, c, d, e] = [await send(m.token, m.email), await send(m.token, m.email), await send(m.token, m.email), await send(m.token, m.email), await send(m.token, m.email)];
    await setStatus(b, 'answered');
    await setStatus(c, 'closed');
    await setStatus(e, 'answered');

    expect(tickets(await list(m.token))).toEqual([d, a]);
    expect(tickets(await list(m.token, { status: 'open' }))).toEqual([d, a]);
    expect(tickets(await list(m.token, { status: 'answered' }))).toEqual([e, b]);
    expect(tickets(await list(m.token, { status: 'closed' }))).toEqual([c]);
    expect(tickets(await list(m.token, { status: 'all' }))).toEqual([e, d, c, b, a]);
    expect((await list(m.token, { status: 'all' })).map((i) => i.status)).toEqual(['answered', 'open', 'closed', 'answered', 'open']);
    for (const item of await list(m.token, { status: 'answered' })) expect(item.status).toBe('answered');
  });

  it.each<[string, Record<string, string>, string]>([
    ['page 10^20', { page: '100000000000000000000' }, 'page'],
    ['page beyond the bound', { page: String(listQuery.limit('page', 'maximum') + 1) }, 'page'],
    ['page 0', { page: '0' }, 'page'],
    ['a negative page', { page: '-1' }, 'page'],
    ['a fractional page', { page: '1.5' }, 'page'],
    ['a non-numeric page', { page: 'abc' }, 'page'],
    ['size 0', { size: '0' }, 'size'],
    ['size beyond the bound', { size: String(listQuery.limit('size', 'maximum') + 1) }, 'size'],
    ['a non-numeric size', { size: 'x' }, 'size'],
  ])('%s → 400 BAD_REQUEST with the query schema\'s message, on both databases', async (_label, query, field) => {
    const m = await member();
    const res = await h.contactList(m.token, query);
    const body = expectError(res, 400, 'BAD_REQUEST');
    const keyword = /^-|^0$/.test(query[field]) ? 'minimum' : /^\d+$/.test(query[field]) ? 'maximum' : 'type';
    expect(body.fields).toEqual({ [field]: [listQuery.message(field, keyword)] });
  });

  it('the largest page and size are answered (an empty page)', async () => {
    const m = await member();
    const res = await h.contactList(m.token, { page: listQuery.limit('page', 'maximum'), size: listQuery.limit('size', 'maximum') });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual([]);
  });

  it.each(['unknown', 'OPEN', 'pending', '', 'open,closed'])('an unknown status %j → 400 BAD_REQUEST', async (status) => {
    const m = await member();
    await send(m.token, m.email);
    expectError(await h.contactList(m.token, { status }), 400, 'BAD_REQUEST');
  });

  it('paging: 25 inquiries, size 20 → 20 then 5, newest first; page 3 is empty; size defaults to 20', async () => {
    const m = await member();
    const sent: string[] = [];
    for (let i = 0; i < 25; i += 1) sent.push(await send(m.token, m.email, { purpose_detail: `${i + 1}件目：${japaneseText(30)}` }));
    const newestFirst = [...sent].reverse();

    const page1 = await list(m.token, { page: 1, size: 20 });
    const page2 = await list(m.token, { page: 2, size: 20 });
    expect(page1).toHaveLength(20);
    expect(page2).toHaveLength(5);
    expect(tickets(page1)).toEqual(newestFirst.slice(0, 20));
    expect(tickets(page2)).toEqual(newestFirst.slice(20));
    expect(page1[0].subject.startsWith('25件目')).toBe(true);
    expect(page2[4].subject.startsWith('1件目')).toBe(true);
    const times = [...page1, ...page2].map((i) => i.created_at);
    expect(times).toEqual([...times].sort().reverse());
    expect(await list(m.token, { page: 3, size: 20 })).toEqual([]);

    // Defaults: page 1, size 20.
    expect(tickets(await list(m.token))).toEqual(newestFirst.slice(0, 20));
    expect(tickets(await list(m.token, { page: 2 }))).toEqual(newestFirst.slice(20));
    // Another size.
    expect(tickets(await list(m.token, { page: 3, size: 10 }))).toEqual(newestFirst.slice(20));
    expect(tickets(await list(m.token, { size: 50 }))).toEqual(newestFirst);
  });

  describe('deep pages (read from remembered keys, docs/decisions/026)', () => {
    /** Inquiries of `memberId` straight into the table: three to each second (ties on the time),
     *  every third answered and every fifth closed, the newest at `newest`. */
    async function bulk(memberId: string, count: number, newest = Date.parse('2025-04-01T00:00:00.000Z')) {
      const rows = Array.from({ length: count }, (_, i) => ({
        id: randomUUID(),
        ticket_no: `Q250401-${randomUUID()}`, // a whole UUID: 8 hex digits collided in a CI run (thousands of rows)
        user_id: memberId,
        last_name_kanji: '山田',
        first_name_kanji: '花子',
        email: 'bulk@example.com',
        inquiry_user_type: '1',
        inquiry_type: '1',
        job: '1',
        content: `${i}件目`,
        status: (i % 5 === 0 ? 'closed' : i % 3 === 0 ? 'answered' : 'open') as InquiryStatus,
        answer: null,
        created_at: new Date(newest - Math.floor(i / 3) * 1000).toISOString(),
        updated_at: new Date(newest).toISOString(),
      }));
      for (let i = 0; i < rows.length; i += 500) await h.db.insertInto('inquiries').values(rows.slice(i, i + 500)).execute();
      return rows;
    }

    /** The page as OFFSET reads it from the table as it stands: what the history always answered. */
    async function byOffset(memberId: string, status: string, page: number, size: number) {
      let query = h.db.selectFrom('inquiries').select('id').where('user_id', '=', memberId);
      if (status !== 'all') query = query.where('status', '=', status as InquiryStatus);
      const rows = await query.orderBy('created_at', 'desc').orderBy('id').limit(size).offset((page - 1) * size).execute();
      return rows.map((row) => row.id);
    }

    const ids = (items: ListItem[]) => items.map((item) => item.id);
    const rowsPast = Math.ceil((ANCHOR_STRIDE * 2.3) / 100) * 100;

    it('every page of every tab, one after another, has the rows OFFSET gives, in its order, ties on the time by id; past the end []', async () => {
      const m = await member();
      await bulk(m.id, rowsPast);
      for (const status of ['all', 'open', 'answered', 'closed']) {
        const seen: string[] = [];
        for (let page = 1; ; page++) {
          const items = await list(m.token, { status, page, size: 100 });
          expect(ids(items), `${status} page ${page}`).toEqual(await byOffset(m.id, status, page, 100));
          if (items.length === 0) break;
          seen.push(...ids(items));
        }
        expect(new Set(seen).size).toBe(seen.length);
        expect(seen.length).toBe((await byOffset(m.id, status, 1, 10_000)).length);
      }
      // The item's shape is the same at depth.
      const deep = await list(m.token, { status: 'all', page: rowsPast / 20 - 1, size: 20 });
      const row = await h.db.selectFrom('inquiries').selectAll().where('id', '=', deep[0]!.id).executeTakeFirstOrThrow();
      expect(deep[0]).toEqual({ id: row.id, created_at: row.created_at, category: '1', ticket_no: row.ticket_no, subject: row.content, status: row.status });
    });

    it('a deep page asked for first, and in any order, with another size: the rows OFFSET gives', async () => {
      const m = await member();
      await bulk(m.id, rowsPast);
      for (const [status, page, size] of [['all', 110, 20], ['open', 70, 20], ['all', 12, 100], ['all', 31, 70], ['answered', 2, 100], ['all', 1, 20], ['all', 115, 20], ['all', 116, 20]] as const) {
        expect(ids(await list(m.token, { status, page, size })), `${status} ${page} × ${size}`).toEqual(await byOffset(m.id, status, page, size));
      }
    });

    it('changes between page reads: a new inquiry, one answered, one removed, one filed in the past — the next deep page is the list as it stands', async () => {
      const m = await member();
      await bulk(m.id, rowsPast);
      const deepPage = Math.ceil(ANCHOR_STRIDE / 20) + 5;
      const check = async (label: string, status = 'all', page = deepPage) =>
        expect(ids(await list(m.token, { status, page, size: 20 })), label).toEqual(await byOffset(m.id, status, page, 20));
      await check('before');
      await check('before (open)', 'open');

      // A new inquiry on top: every row moves one down, so page n starts with page n-1's last.
      const before = await list(m.token, { status: 'all', page: deepPage - 1, size: 20 });
      await send(m.token, m.email);
      const after = await list(m.token, { status: 'all', page: deepPage, size: 20 });
      expect(after[0]!.id).toBe(before.at(-1)!.id);
      await check('after a new inquiry');

      // The operator answers an open one far down: the open tab closes up behind it.
      const answered = (await byOffset(m.id, 'open', 3, 20))[0]!;
      await h.db.updateTable('inquiries').set({ status: 'answered', updated_at: new Date().toISOString() }).where('id', '=', answered).execute();
      await check('after an answer (open)', 'open');
      await check('after an answer (all)');

      // A row removed, and one filed with an old time (a late import), both above the page.
      await h.db.deleteFrom('inquiries').where('id', '=', (await byOffset(m.id, 'all', 2, 20))[5]!).execute();
      await check('after a removal');
      await bulk(m.id, 1, Date.parse('2025-03-31T23:00:00.000Z'));
      await check('after an old one filed');
      await check('after an old one filed (open)', 'open');
    });

    it('each member\'s pages are their own: two members paging deep at once never see each other\'s rows', async () => {
      const [a, b] = [await member(), await member()];
      await bulk(a.id, rowsPast);
      await bulk(b.id, rowsPast);
      const pages = [60, 61, 90, 110];
      const results = await Promise.all(pages.flatMap((page) => [a, b].map(async (m) => ({ m, page, got: ids(await list(m.token, { status: 'all', page, size: 20 })) }))));
      for (const { m, page, got } of results) expect(got, `page ${page}`).toEqual(await byOffset(m.id, 'all', page, 20));
    });
  });

  it('no token → 401 UNAUTHENTICATED; the client key is not a session', async () => {
    expectError(await h.contactList(undefined), 401, 'UNAUTHENTICATED');
    expectError(await h.app.inject({ method: 'GET', url: '/v1/user/contact/list', headers: { 'x-client-key': CLIENT_KEY } }), 401, 'UNAUTHENTICATED');
    expectError(await h.contactList('not-a-token'), 401, 'UNAUTHENTICATED');
  });

  it('an ended session → 401 UNAUTHENTICATED', async () => {
    const m = await member();
    await send(m.token, m.email);
    expect((await h.logout(m.token)).statusCode).toBe(204);
    expectError(await h.contactList(m.token), 401, 'UNAUTHENTICATED');
  });
});
