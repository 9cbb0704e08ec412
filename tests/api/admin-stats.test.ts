// The statistics (issue 34 point 5, docs/decisions/033), on SQLite and PostgreSQL: figures as of
// the end of the previous Japan day, from SQL aggregates kept in a daily snapshot (a registration
// today changes nothing until tomorrow; two views racing compute the figures once; a view reads
// the one row), every category listed, nothing under 5 shown and nothing left to subtract.
import { afterAll, describe, expect, it } from 'vitest';
import { DATABASES, Harness, setUpOrFail } from '../support/api-harness';
import { operatorSession, type TestOperator } from '../support/admin-session';
import { applicant, asOperator } from '../support/admin-records';
import { ageOn, computeStats, endOfJapanDay, isoWeek, statsDayOf, statsGroupQuery } from '../../src/server/admin/services/stats';
import { CLAIM_MS, recomputeStats, statsSnapshot } from '../../src/server/admin/services/stats-snapshot';
import { allMunicipalities, denshijitiList } from '../../src/server/denshijiti';
import { masterOptions } from '../../src/server/masters';
import type { Count, Stats } from '../../src/shared/admin-api';
import operatorTexts from '../../messages/operator.ja.json';

const texts = operatorTexts.records.stats;
const PREFECTURES = [...new Set(allMunicipalities().map((m) => m.prefecture))];

/** No hidden cell of an additive dimension is alone, and the hidden ones hold 5 or more together
 *  (their true counts are in `truth`). */
function protectedCells(list: Array<{ count: number | null }>, truth: number[]) {
  const hidden = list.flatMap((c, i) => (c.count === null ? [truth[i]!] : []));
  expect(hidden.length === 0 || (hidden.length >= 2 && hidden.reduce((a, b) => a + b, 0) >= 5), JSON.stringify(list)).toBe(true);
}

describe('statistics: the calendar', () => {
  it('weeks are ISO weeks in Japan time, and the figures are as of the Japan day before the view', () => {
    // Monday 00:30 in Japan is still Sunday in UTC: the week is Japan's.
    expect(isoWeek('2025-03-02T15:30:00.000Z')).toBe('2025-W10');
    expect(isoWeek('2025-03-02T14:30:00.000Z')).toBe('2025-W09');
    // 08:59 UTC on 3 March is 17:59 in Japan: as of 2 March; 15:00 UTC is already 4 March in Japan: as of 3 March.
    expect(statsDayOf(new Date('2025-03-03T08:59:00.000Z'))).toBe('2025-03-02');
    expect(statsDayOf(new Date('2025-03-03T15:00:00.000Z'))).toBe('2025-03-03');
    expect(endOfJapanDay('2025-03-02')).toBe('2025-03-02T15:00:00.000Z');
    // Ages at the end of the day, on the birthday's text.
    expect(ageOn('1990-04-01', '2025-03-31')).toBe(34);
    expect(ageOn('1990-04-01', '2025-04-01')).toBe(35);
    expect(ageOn('2000-02-29', '2025-02-28')).toBe(24);
    expect(ageOn('', '2025-02-28')).toBeUndefined();
    expect(ageOn('2030-01-01', '2025-02-28')).toBeUndefined();
  });
});

describe.each(DATABASES)('statistics ($name)', ({ kind }) => {
  let h: Harness;
  let municipality: TestOperator;

  setUpOrFail(async () => {
    h = await Harness.start(kind);
    municipality = await operatorSession(h.db, 'municipality');
  });
  afterAll(async () => {
    await h?.close();
  });

  const view = async (): Promise<Stats> => {
    const res = await asOperator(h, municipality, 'GET', '/v1/admin/stats');
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const snapshotRows = (day: string) => h.db.selectFrom('stats_snapshots').selectAll().where('day', '=', day).execute();

  it('lists every category, zero included, hides counts under 5 and what would give them away, as of the end of yesterday in Japan; a registration today changes nothing', async () => {
    // Twelve in 大阪府 who want 長野市 (202011), born 1990; seven in 東京都; three in 沖縄県 who pick purpose 9.
    for (let i = 0; i < 12; i++) await applicant(h, { address_current: '大阪府大阪市北区1-1', city: '202011', purpose: '5', birthday: '1990-01-01' }, '2025-03-03T01:00:00.000Z');
    for (let i = 0; i < 7; i++) await applicant(h, { address_current: i % 2 ? ' 東京都千代田区1-1' : '　東京都千代田区1-1', purpose: '1,5', birthday: '1960-05-05' }, '2025-03-10T01:00:00.000Z');
    for (let i = 0; i < 3; i++) await applicant(h, { address_current: '沖縄県那覇市1-1', purpose: '9', birthday: '' }, '2025-03-10T02:00:00.000Z');

    const body = await view();
    const day = statsDayOf(new Date());
    expect(body).toMatchObject({ asOf: day, floor: 5, total: 22 });
    // Prefectures: all 47 and 不明; 沖縄県 (3) alone would be 22 − 12 − 7 = 3, so 東京都 is hidden too.
    expect(body.prefectures.map((c) => c.label)).toEqual([...PREFECTURES, texts.unknown]);
    const prefecture = (label: string) => body.prefectures.find((c) => c.label === label)!;
    expect(prefecture('大阪府')).toEqual({ label: '大阪府', count: 12 });
    expect(prefecture('東京都')).toEqual({ label: '東京都', count: null, suppressed: 'complement' });
    expect(prefecture('沖縄県')).toEqual({ label: '沖縄県', count: null, suppressed: 'floor' });
    expect(prefecture('北海道')).toEqual({ label: '北海道', count: null, suppressed: 'floor' });
    protectedCells(body.prefectures, body.prefectures.map((c) => ({ 大阪府: 12, 東京都: 7, 沖縄県: 3 })[c.label] ?? 0));

    // Weeks: every ISO week from the first registration's to the day's, empty ones included.
    const weeks = body.registrationsPerWeek.map((w) => w.week);
    expect(weeks[0]).toBe('2025-W10');
    expect(weeks.at(-1)).toBe(isoWeek(new Date(Date.parse(endOfJapanDay(day)) - 1).toISOString()));
    expect(weeks).toContain('2025-W11');
    expect(new Set(weeks).size).toBe(weeks.length);
    // The empty weeks since hold 0 together: the smaller of the two full weeks is hidden beside them.
    expect(body.registrationsPerWeek.slice(0, 3)).toEqual([
      { week: '2025-W10', count: 12 },
      { week: '2025-W11', count: null, suppressed: 'complement' },
      { week: '2025-W12', count: null, suppressed: 'floor' },
    ]);

    // Purposes: every option, a member counted once per option picked (not additive: no complement).
    const options = await masterOptions(h.db, 'purpose');
    expect(body.purposes.map((c) => c.label)).toEqual(options.map((o) => o.label));
    expect(body.purposes.find((c) => c.label === options.find((o) => o.value === '5')!.label)).toEqual({ label: expect.any(String), count: 19 });
    expect(body.purposes.every((c) => c.suppressed !== 'complement')).toBe(true);

    // Age bands at the end of the day: 1990 → 30s, 1960 → 60s, no birthday → 不明 (3, under 5).
    expect(body.ageBands.map((c) => c.label)).toEqual([...Object.values(texts.ageBands), texts.unknown]);
    protectedCells(body.ageBands, body.ageBands.map((c) => ({ '30代': 12, '60代': 7, [texts.unknown]: 3 })[c.label] ?? 0));
    expect(body.ageBands.find((c) => c.label === '30代')).toEqual({ label: '30代', count: 12 });

    // Desired municipalities: the registration offers the whole country, so 長野県 (wanted by 12)
    // is listed whole, the other prefectures are one cell, with no wish and an unknown code.
    const nagano = allMunicipalities().filter((m) => m.prefecture === '長野県').map((m) => `長野県${m.label}`);
    expect(body.desiredMunicipalities.map((c) => c.label)).toEqual([...nagano, texts.otherPrefectures, texts.noWish, texts.unknown]);
    expect(body.desiredMunicipalities.find((c) => c.label === '長野県長野市')).toEqual({ label: '長野県長野市', count: 12 });
    // Every other cell holds 0: no wish (10) is hidden beside them, or they would read as empty.
    expect(body.desiredMunicipalities.find((c) => c.label === texts.noWish)).toEqual({ label: texts.noWish, count: null, suppressed: 'complement' });
    expect(JSON.stringify(body)).not.toMatch(/@|山田|花子/);

    // Someone registers today: the figures stay those of yesterday, read from the one snapshot row.
    await applicant(h, { address_current: '北海道札幌市1-1' });
    expect(await view()).toEqual(body);
    expect(await snapshotRows(day)).toHaveLength(1);
    // Ten loaded by SQL into yesterday reach the figures when they are computed again (the operator's reindex).
    const lastMinute = new Date(Date.parse(endOfJapanDay(day)) - 60_000).toISOString();
    for (let i = 0; i < 10; i++) await applicant(h, { address_current: '北海道札幌市1-1', city: '011002' }, lastMinute);
    expect(await view()).toEqual(body);
    const again = await recomputeStats(h.db, denshijitiList());
    expect(again.total).toBe(32);
    expect(again.prefectures.find((c) => c.label === '北海道')).toEqual({ label: '北海道', count: 10 });
    expect(await view()).toEqual(again);
  });

  it('two views racing compute the figures once; both read the same row', async () => {
    const at = new Date('2031-06-10T03:00:00.000Z');
    const computed: string[] = [];
    const options = { municipalities: denshijitiList(), at, onCompute: (d: string) => computed.push(d) };
    const [first, second] = await Promise.all([statsSnapshot(h.db, options), statsSnapshot(h.db, options)]);
    expect(computed).toEqual(['2031-06-09']);
    expect(second).toEqual(first);
    expect(await snapshotRows('2031-06-09')).toHaveLength(1);
    // And through the API: the day's row removed, two operators' views at once give one row.
    const today = statsDayOf(new Date());
    await h.db.deleteFrom('stats_snapshots').where('day', '=', today).execute();
    const [a, b] = await Promise.all([view(), view()]);
    expect(b).toEqual(a);
    expect(await snapshotRows(today)).toHaveLength(1);
  });

  it('a claim whose figures never came (the process ended) is taken over once it runs out; a live one is waited for', async () => {
    const at = new Date('2031-07-10T03:00:00.000Z');
    await h.db.insertInto('stats_snapshots').values({ day: '2031-07-09', claimed_at: new Date(Date.now() - CLAIM_MS - 1000).toISOString(), figures: null, computed_at: null }).execute();
    const computed: string[] = [];
    const figures = await statsSnapshot(h.db, { municipalities: denshijitiList(), at, onCompute: (d) => computed.push(d) });
    expect(computed).toEqual(['2031-07-09']);
    expect(figures.asOf).toBe('2031-07-09');

    // A live claim: the view waits and returns what the claimant writes, computing nothing itself.
    const live = new Date('2031-08-10T03:00:00.000Z');
    await h.db.insertInto('stats_snapshots').values({ day: '2031-08-09', claimed_at: new Date().toISOString(), figures: null, computed_at: null }).execute();
    const waiting = statsSnapshot(h.db, { municipalities: denshijitiList(), at: live, onCompute: (d) => computed.push(d) });
    const written = { ...figures, asOf: '2031-08-09' };
    delete (written as Partial<Stats>).at;
    await h.db.updateTable('stats_snapshots').set({ figures: JSON.stringify(written), computed_at: '2031-08-10T00:00:01.000Z' }).where('day', '=', '2031-08-09').execute();
    expect(await waiting).toEqual({ ...written, at: '2031-08-10T00:00:01.000Z' });
    expect(computed).toEqual(['2031-07-09']);
  });

  it('the figures are the same whatever the ranges the members are read in (members sharing an instant across a boundary too)', async () => {
    for (let i = 0; i < 4; i++) await applicant(h, { address_current: '京都府京都市1-1', city: '202029' }, '2025-04-01T00:00:00.000Z');
    const day = statsDayOf(new Date());
    const whole = await computeStats(h.db, { day, municipalities: denshijitiList(), rangeSize: 1_000_000 });
    for (const rangeSize of [1, 2, 3, 7]) expect(await computeStats(h.db, { day, municipalities: denshijitiList(), rangeSize }), `ranges of ${rangeSize}`).toEqual(whole);
    expect(whole.total).toBeGreaterThanOrEqual(26);
    // The day key: from 15:00 UTC a registration belongs to the next day in Japan.
    await applicant(h, { city: '202011' }, '2025-03-16T14:59:59.999Z');
    await applicant(h, { city: '202011' }, '2025-03-16T15:00:00.000Z');
    const keys = (await statsGroupQuery(h.db, 'day', '2025-03-16T00:00:00.000Z', '2025-03-17T00:00:00.000Z').execute()).map((r) => [r.key, Number(r.members)]);
    expect(keys.sort((a, b) => String(a[0]).localeCompare(String(b[0])))).toEqual([['2025-03-16', 1], ['2025-03-16+', 1]]);
  });

  it('a list of participating municipalities is listed whole, with no wish and codes no longer offered', async () => {
    const offered = denshijitiList(['202011', '202029', '011002']);
    const out = await computeStats(h.db, { day: statsDayOf(new Date()), municipalities: offered });
    expect(out.desiredMunicipalities.map((c: Count) => c.label)).toEqual([...offered.map((m) => `${m.prefecture}${m.label}`), texts.noWish, texts.unknown]);
    // 長野市: the twelve of the first test and the two of the day key's.
    expect(out.desiredMunicipalities.find((c: Count) => c.label === '長野県長野市')).toEqual({ label: '長野県長野市', count: 14 });
  });
});
