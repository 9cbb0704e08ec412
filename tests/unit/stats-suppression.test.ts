// The statistics cannot be subtracted (issue 34 point 5, docs/decisions/033): over random
// members, every dimension lists every category; a count under the floor (zero included) is
// hidden; in a dimension whose cells add up to the total the hidden cells are none, or at least
// two holding `floor` or more together, or the total is hidden; and a reader who knows the rules
// (a "5未満" cell holds 0–4, a complement cell holds from the floor up to the smallest cell still
// shown, the hidden cells add up to the total minus the shown ones) can pin no hidden cell to one value.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { publish, type Cell, type Dimension, type ShownCell } from '../../src/server/admin/services/stats-suppression';

const FLOOR = 5;
const SIZES = { weeks: 8, prefectures: 6, ages: 4, cities: 3, purposes: 4 } as const;
type Name = keyof typeof SIZES;

interface Member {
  weeks: number;
  prefectures: number;
  ages: number;
  cities: number;
  purposes: number[];
}

const member = fc.record({
  weeks: fc.nat(SIZES.weeks - 1),
  prefectures: fc.nat(SIZES.prefectures - 1),
  ages: fc.nat(SIZES.ages - 1),
  cities: fc.nat(SIZES.cities - 1),
  purposes: fc.uniqueArray(fc.nat(SIZES.purposes - 1), { maxLength: SIZES.purposes }),
});
// Few members piled in few categories: small cells and near-empty dimensions are where leaks are.
const members = fc.oneof(fc.array(member, { maxLength: 12 }), fc.array(member, { maxLength: 80 }), fc.array(member, { minLength: 100, maxLength: 300 }));

function dimensionsOf(list: Member[]): Record<Name, Dimension> {
  const count = (name: Name, of: (m: Member) => number[]): Cell[] =>
    Array.from({ length: SIZES[name] }, (_, i) => ({ label: `${name}-${i}`, count: list.filter((m) => of(m).includes(i)).length }));
  return {
    weeks: { cells: count('weeks', (m) => [m.weeks]), additive: true },
    prefectures: { cells: count('prefectures', (m) => [m.prefectures]), additive: true },
    ages: { cells: count('ages', (m) => [m.ages]), additive: true },
    cities: { cells: count('cities', (m) => [m.cities]), additive: true },
    purposes: { cells: count('purposes', (m) => m.purposes), additive: false },
  };
}

/** The values a reader finds possible for each hidden cell (every value of its own range for
 *  which the other hidden cells can still make up the rest of the known sum). */
function possibleValues(shown: ShownCell[], hiddenSum: number | undefined, bound: number): Map<number, number[]> {
  const counts = shown.flatMap((c) => (c.count === null ? [] : [c.count]));
  const smallest = counts.length ? Math.min(...counts) : bound;
  const range = (c: ShownCell): [number, number] => (c.suppressed === 'floor' ? [0, FLOOR - 1] : [FLOOR, smallest]);
  const hidden = shown.map((c, i) => [c, i] as const).filter(([c]) => c.count === null);
  const out = new Map<number, number[]>();
  for (const [cell, i] of hidden) {
    const others = hidden.filter(([, j]) => j !== i).map(([c]) => range(c));
    const [lo, hi] = range(cell);
    const values: number[] = [];
    for (let v = lo; v <= hi; v++) {
      if (hiddenSum === undefined) values.push(v);
      else {
        const rest = hiddenSum - v;
        if (rest >= others.reduce((s, r) => s + r[0], 0) && rest <= others.reduce((s, r) => s + r[1], 0)) values.push(v);
      }
    }
    out.set(i, values);
  }
  return out;
}

function check(list: Member[]) {
  const dims = dimensionsOf(list);
  const total = list.length;
  const published = publish(dims, total, FLOOR);
  // The total a reader knows: the published one, or the sum of an additive dimension shown whole.
  const known = published.total ?? (Object.keys(dims) as Name[]).filter((n) => dims[n].additive && published.dimensions[n].every((c) => c.count !== null)).map((n) => published.dimensions[n].reduce((s, c) => s + c.count!, 0))[0];
  if (published.total !== null) expect(published.total).toBe(total);
  for (const name of Object.keys(dims) as Name[]) {
    const truth = dims[name].cells;
    const shown = published.dimensions[name];
    expect(shown.map((c) => c.label), name).toEqual(truth.map((c) => c.label));
    shown.forEach((c, i) => {
      if (c.count !== null) expect(c.count).toBe(truth[i]!.count);
      if (truth[i]!.count < FLOOR) expect(c).toEqual({ label: c.label, count: null, suppressed: 'floor' });
      if (c.suppressed === 'complement') expect(truth[i]!.count).toBeGreaterThanOrEqual(FLOOR);
    });
    if (!dims[name].additive) continue;
    const hidden = truth.filter((_, i) => shown[i]!.count === null);
    const hiddenSum = hidden.reduce((s, c) => s + c.count, 0);
    expect(hidden.length === 0 || (hidden.length >= 2 && hiddenSum >= FLOOR) || published.total === null, `${name}: ${JSON.stringify(shown)}`).toBe(true);
    const sum = known === undefined ? undefined : known - shown.reduce((s, c) => s + (c.count ?? 0), 0);
    for (const [i, values] of possibleValues(shown, sum, total + FLOOR)) {
      expect(values, `${name}: ${shown[i]!.label} of ${JSON.stringify(shown)}`).toContain(truth[i]!.count);
      expect(values.length, `${name}: ${shown[i]!.label} pinned in ${JSON.stringify(shown)}`).toBeGreaterThanOrEqual(2);
    }
  }
}

describe('statistics disclosure control', () => {
  it('over random members, every category is listed and no hidden count can be worked out', () => {
    fc.assert(fc.property(members, (list) => check(list)), { numRuns: 1000 });
  });

  it("the issue's case: 北海道 = 22 − 13 − 8 = 1 is no longer there to subtract", () => {
    const cells = [
      { label: '北海道', count: 1 },
      { label: '青森県', count: 13 },
      { label: '岩手県', count: 8 },
      { label: '宮城県', count: 0 },
    ];
    const out = publish({ prefectures: { cells, additive: true } }, 22, FLOOR);
    expect(out.total).toBe(22);
    expect(out.dimensions.prefectures).toEqual([
      { label: '北海道', count: null, suppressed: 'floor' },
      { label: '青森県', count: 13 },
      { label: '岩手県', count: null, suppressed: 'complement' },
      { label: '宮城県', count: null, suppressed: 'floor' },
    ]);
  });

  it('zero is hidden like 1–4, and a dimension of empty cells beside one full one hides that one too', () => {
    const cells = [{ label: '東京都', count: 30 }, ...['北海道', '青森県', '不明'].map((label) => ({ label, count: 0 }))];
    const out = publish({ prefectures: { cells, additive: true }, ages: { cells: [{ label: '20代', count: 15 }, { label: '30代', count: 15 }], additive: true } }, 30, FLOOR);
    expect(out.dimensions.prefectures.map((c) => c.count)).toEqual([null, null, null, null]);
    expect(out.dimensions.prefectures[0]).toMatchObject({ suppressed: 'complement' });
    expect(out.dimensions.ages).toEqual([{ label: '20代', count: 15 }, { label: '30代', count: 15 }]);
  });

  it('a complement cell equal to the smallest shown one would be known exactly: another is hidden', () => {
    // 1 under the floor, then 5 hidden beside a shown 5: the reader would know the hidden 5 (5 ≤ it ≤ 5) and so the 1.
    const cells = [1, 5, 5, 7].map((count, i) => ({ label: String(i), count }));
    const out = publish({ d: { cells, additive: true } }, 18, FLOOR);
    expect(out.dimensions.d.map((c) => c.count)).toEqual([null, null, null, 7]);
  });

  it('a total under the floor is hidden, and every cell with it', () => {
    const cells = [3, 0, 1].map((count, i) => ({ label: String(i), count }));
    const out = publish({ d: { cells, additive: true }, p: { cells: [{ label: 'a', count: 4 }], additive: false } }, 4, FLOOR);
    expect(out.total).toBeNull();
    expect(out.dimensions.d.every((c) => c.count === null && c.suppressed === 'floor')).toBe(true);
    expect(out.dimensions.p).toEqual([{ label: 'a', count: null, suppressed: 'floor' }]);
  });
});
