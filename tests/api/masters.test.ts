// GET /v1/master/options?master_name=<name>: the option lists of schemas/masters/options.json,
// seeded into the database at every start and answered in the file's order as {value, label}.
// The call needs no client key (the registration form loads the lists before anything else).
import { afterAll, describe, expect, it } from 'vitest';
import options from '../../schemas/masters/options.json';
import { migrate } from '../../src/server/db/connect';
import { MASTER_NAMES, seedMasters, type MasterName } from '../../src/server/masters';
import { MASTER_MAX_AGE_SECONDS } from '../../src/server/routes/masters';
import { CLIENT_KEY, DATABASES, Harness, expectError, setUpOrFail } from '../support/api-harness';
import { rulesOf, schemaSet } from '../support/schema-messages';

/** Every list of options.json (its keys but annotations such as $comment), read here on its own. */
const FILE = Object.fromEntries(Object.entries(options).filter(([key]) => !key.startsWith('$'))) as Record<MasterName, { value: string; label: string }[]>;
const NAMES = Object.keys(FILE) as MasterName[];

describe('the list names', () => {
  it('are the keys of options.json: the server serves and seeds every list there, and only those', () => {
    expect(NAMES.length).toBeGreaterThan(0);
    expect(MASTER_NAMES).toEqual(NAMES);
    for (const name of NAMES) expect(Array.isArray(FILE[name]), name).toBe(true);
  });

  it('each can be asked for: it passes the query schema\'s pattern for master_name', () => {
    const pattern = new RegExp((schemaSet().api['api.master-options-query.json'] as { properties: { master_name: { pattern: string } } }).properties.master_name.pattern);
    for (const name of NAMES) expect(name).toMatch(pattern);
  });
});

describe.each(DATABASES)('master option lists ($name)', ({ kind }) => {
  let h: Harness;

  setUpOrFail(async () => {
    h = await Harness.start(kind);
  });
  afterAll(async () => {
    await h?.close();
  });

  const get = (query: string, headers: Record<string, string> = {}) => h.app.inject({ method: 'GET', url: `/v1/master/options${query}`, headers });

  describe.each(NAMES)('master_name=%s', (name) => {
    it('→ 200, the list of options.json in the same order, each item exactly {value, label}', async () => {
      const res = await get(`?master_name=${name}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      const list = res.json<unknown[]>();
      expect(Array.isArray(list)).toBe(true);
      expect(FILE[name].length).toBeGreaterThan(0);
      expect(list).toEqual(FILE[name]);
      for (const item of list) {
        expect(Object.keys(item as object).sort()).toEqual(['label', 'value']);
        expect(typeof (item as { value: unknown }).value).toBe('string');
        expect(typeof (item as { label: unknown }).label).toBe('string');
        expect((item as { label: string }).label.length).toBeGreaterThan(0);
      }
      // Values are unique within a list.
      const values = list.map((item) => (item as { value: string }).value);
      expect(new Set(values).size).toBe(values.length);
    });

    it('needs no client key, and a wrong one or a bogus bearer token does not matter', async () => {
      const plain = await get(`?master_name=${name}`);
      const wrongKey = await get(`?master_name=${name}`, { 'x-client-key': 'not-the-key' });
      const rightKey = await get(`?master_name=${name}`, { 'x-client-key': CLIENT_KEY });
      const bogusToken = await get(`?master_name=${name}`, { authorization: 'Bearer not-a-session' });
      for (const res of [plain, wrongKey, rightKey, bogusToken]) {
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json()).toEqual(FILE[name]);
      }
    });
  });

  it('the defaults exist: job "1", industry "8", mail_opt "1"; "99" means その他 where present', async () => {
    const job = (await get('?master_name=job')).json<{ value: string; label: string }[]>();
    const industry = (await get('?master_name=industry')).json<{ value: string; label: string }[]>();
    const mailOpt = (await get('?master_name=mail_opt')).json<{ value: string; label: string }[]>();
    expect(job.find((o) => o.value === '1')).toEqual({ value: '1', label: '会社員（正社員）' });
    expect(industry.find((o) => o.value === '8')).toEqual({ value: '8', label: '運輸業・郵便業' });
    expect(mailOpt.find((o) => o.value === '1')).toEqual({ value: '1', label: '受け取る' });
    for (const name of ['job', 'industry', 'purpose', 'inquiry_type', 'inquiry_user_category'] as const) {
      const list = (await get(`?master_name=${name}`)).json<{ value: string; label: string }[]>();
      expect(list.find((o) => o.value === '99'), name).toEqual({ value: '99', label: 'その他' });
    }
  });

  it('the order is the file\'s, not the values sorted as text or numbers (industry 9, 10 … 19, 99; mail_opt 1 before 0)', async () => {
    const industry = (await get('?master_name=industry')).json<{ value: string }[]>().map((o) => o.value);
    expect(industry).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12', '13', '14', '15', '16', '17', '18', '19', '99']);
    const mailOpt = (await get('?master_name=mail_opt')).json<{ value: string }[]>().map((o) => o.value);
    expect(mailOpt).toEqual(['1', '0']);
  });

  it.each([
    ['an unknown name', '?master_name=denshijiti'],
    ['another unknown name', '?master_name=users'],
    ['a prototype key', '?master_name=__proto__'],
    ['a prototype method', '?master_name=constructor'],
  ])('%s → 400 BAD_REQUEST in Japanese, no fields', async (_label, query) => {
    const body = expectError(await get(query), 400, 'BAD_REQUEST');
    expect(body.fields).toBeUndefined();
    expect(Object.keys(body).sort()).toEqual(['code', 'error']);
  });

  // Refused by the route's query schema (schemas/api/master-options-query.json), which says why.
  const query = rulesOf('api.master-options-query.json');
  it.each([
    ['a name in another case', '?master_name=JOB', query.message('master_name', 'pattern')],
    ['a name with spaces', '?master_name=%20job', query.message('master_name', 'pattern')],
    ['an empty name', '?master_name=', query.message('master_name', 'pattern')],
    ['no master_name', '', query.required('master_name')],
    ['another parameter only', '?name=job', query.required('master_name')],
    ['the name twice', '?master_name=job&master_name=industry', query.message('master_name', 'type')],
  ])('%s → 400 BAD_REQUEST with the query schema\'s message under master_name', async (_label, search, message) => {
    expectError(await get(search), 400, 'BAD_REQUEST', { master_name: [message] });
  });

  it('an unknown name needs no client key either (400, not 401)', async () => {
    expectError(await get('?master_name=nope', { 'x-client-key': 'not-the-key' }), 400, 'BAD_REQUEST');
  });

  it('POST is not a route → 404 NOT_FOUND', async () => {
    const res = await h.app.inject({ method: 'POST', url: '/v1/master/options?master_name=job', headers: { 'x-client-key': CLIENT_KEY } });
    expectError(res, 404, 'NOT_FOUND');
  });

  it('the lists come from the database, reseeded from options.json at every start', async () => {
    try {
      // Product owners reorder and edit a list: the answer follows the stored sort order.
      await seedMasters(h.db, { ...FILE, mail_opt: [{ value: '0', label: '受け取らない' }, { value: '1', label: '受け取る（推奨）' }] });
      expect((await get('?master_name=mail_opt')).json()).toEqual([
        { value: '0', label: '受け取らない' },
        { value: '1', label: '受け取る（推奨）' },
      ]);
      // A list emptied in the file answers an empty list, not an error.
      await seedMasters(h.db, { ...FILE, inquiry_type: [] });
      const empty = await get('?master_name=inquiry_type');
      expect(empty.statusCode, empty.body).toBe(200);
      expect(empty.json()).toEqual([]);
    } finally {
      // A restart (migrate) brings every list back in step with the file.
      await migrate(h.db);
    }
    for (const name of NAMES) expect((await get(`?master_name=${name}`)).json()).toEqual(FILE[name]);
  });

  it('instances reseeding at once (each its own transaction) all succeed, and the list is the file\'s: reordered, an option removed', async () => {
    const edited = { ...FILE, job: FILE.job.slice(1).reverse() };
    try {
      await Promise.all([seedMasters(h.db, edited), seedMasters(h.db, edited), seedMasters(h.db, edited)]);
      expect((await get('?master_name=job')).json()).toEqual(edited.job);
    } finally {
      await migrate(h.db);
    }
    expect((await get('?master_name=job')).json()).toEqual(FILE.job);
  });

  // The lists change only when a start reseeds them: a browser keeps one for a few minutes, then
  // asks with its tag and gets 304 while it is still the same (ADR 029).
  describe('caching', () => {
    const CACHED = `public, max-age=${MASTER_MAX_AGE_SECONDS}`;

    it('a list carries a tag of its content and may be kept five minutes', async () => {
      const job = await get('?master_name=job');
      expect(job.headers['cache-control']).toBe(CACHED);
      expect(MASTER_MAX_AGE_SECONDS).toBe(300);
      expect(job.headers.etag).toMatch(/^W\/"[\w-]{20,}"$/);
      expect((await get('?master_name=job')).headers.etag).toBe(job.headers.etag);
      expect((await get('?master_name=industry')).headers.etag).not.toBe(job.headers.etag);
    });

    it('asked again with its tag → 304 without a body; with another tag → the list', async () => {
      const tag = String((await get('?master_name=job')).headers.etag);
      const same = await get('?master_name=job', { 'if-none-match': tag });
      expect(same.statusCode).toBe(304);
      expect(same.body).toBe('');
      expect(same.headers.etag).toBe(tag);
      expect(same.headers['cache-control']).toBe(CACHED);
      // among several tags, and as a strong tag (what some caches send back)
      expect((await get('?master_name=job', { 'if-none-match': `"other", ${tag}` })).statusCode).toBe(304);
      expect((await get('?master_name=job', { 'if-none-match': tag.replace(/^W\//, '') })).statusCode).toBe(304);
      const other = await get('?master_name=job', { 'if-none-match': 'W/"not-this-list"' });
      expect(other.statusCode).toBe(200);
      expect(other.json()).toEqual(FILE.job);
      // a tag of another list is not this one's
      const industryTag = String((await get('?master_name=industry')).headers.etag);
      expect((await get('?master_name=job', { 'if-none-match': industryTag })).statusCode).toBe(200);
    });

    it('a reseeded list gets a new tag: the old one brings the new list', async () => {
      const before = String((await get('?master_name=mail_opt')).headers.etag);
      try {
        await seedMasters(h.db, { ...FILE, mail_opt: [{ value: '1', label: '受け取る（推奨）' }] });
        const after = await get('?master_name=mail_opt', { 'if-none-match': before });
        expect(after.statusCode).toBe(200);
        expect(after.json()).toEqual([{ value: '1', label: '受け取る（推奨）' }]);
        expect(after.headers.etag).not.toBe(before);
      } finally {
        await migrate(h.db);
      }
      expect((await get('?master_name=mail_opt', { 'if-none-match': before })).statusCode).toBe(304);
    });

    it('a request with a member’s token keeps the app’s no-store', async () => {
      const res = await get('?master_name=job', { authorization: 'Bearer not-a-session' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
    });

    it('the municipalities (GET /v1/master/denshijiti) too', async () => {
      const res = await h.app.inject({ method: 'GET', url: '/v1/master/denshijiti' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['cache-control']).toBe(CACHED);
      const again = await h.app.inject({ method: 'GET', url: '/v1/master/denshijiti', headers: { 'if-none-match': String(res.headers.etag) } });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
    });
  });
});
