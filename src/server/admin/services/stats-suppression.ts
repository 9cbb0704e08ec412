// Disclosure control of the statistics (docs/decisions/033): primary suppression of every count
// under the floor, zero included, then secondary suppression in each dimension whose cells add
// up to the published total, so that no hidden cell can be worked out from the total and the
// cells shown. Pure: the property test (tests/unit/stats-suppression.test.ts) runs it on random data.

/** A category and its true count (never leaves the server). */
export interface Cell {
  label: string;
  count: number;
}

/** Why a count is hidden. 'floor': under the floor (zero included), shown as "under 5";
 *  'complement': at or above the floor, hidden so that the others cannot be worked out. */
export type Suppression = 'floor' | 'complement';

/** A category as published: its count, or null with why it is hidden. */
export interface ShownCell {
  label: string;
  count: number | null;
  suppressed?: Suppression;
}

/** One dimension before publication. `additive`: each member is in exactly one of its
 *  categories, so its cells add up to the total; a multi-valued dimension (purposes: a member
 *  may pick several) is not, and gets primary suppression only. */
export interface Dimension {
  cells: Cell[];
  additive: boolean;
}

/** What a reader can tell of each hidden cell from what is published: a count under the floor
 *  lies in [0, floor − 1]; a complement cell in [floor, the smallest cell still shown] (the
 *  smallest shown cell is the one hidden next); and, when the hidden cells' sum is known (the
 *  total minus the shown cells), each cell is bounded by that sum minus the others' bounds. */
export function readerBounds(shown: ShownCell[], floor: number, hiddenSum: number | undefined): Array<[number, number] | undefined> {
  const counts = shown.filter((c) => c.count !== null).map((c) => c.count!);
  const smallestShown = counts.length ? Math.min(...counts) : Infinity;
  const own = shown.map((c): [number, number] | undefined => (c.count !== null ? undefined : c.suppressed === 'complement' ? [floor, smallestShown] : [0, floor - 1]));
  if (hiddenSum === undefined) return own;
  const low = own.reduce((sum, b) => sum + (b ? b[0] : 0), 0);
  const high = own.reduce((sum, b) => sum + (b ? b[1] : 0), 0);
  return own.map((b) => (b ? [Math.max(b[0], hiddenSum - (high - b[1])), Math.min(b[1], hiddenSum - (low - b[0]))] : undefined));
}

/** Whether a reader can tell a hidden cell's exact count. */
const anyPinned = (bounds: Array<[number, number] | undefined>) => bounds.some((b) => b !== undefined && b[0] >= b[1]);

/** One dimension's cells as published. `totalKnown`: the reader knows the total (so the hidden
 *  cells' sum); `mustHide`: at least two cells are hidden even if none is under the floor (the
 *  total is hidden and this dimension's cells would add up to it). */
function hide(cells: Cell[], floor: number, additive: boolean, totalKnown: boolean, mustHide = false): { shown: ShownCell[]; pinned: boolean } {
  const hidden = new Map<number, Suppression>();
  cells.forEach((cell, i) => cell.count < floor && hidden.set(i, 'floor'));
  const shownOf = (): ShownCell[] =>
    cells.map((cell, i) => {
      const why = hidden.get(i);
      return why ? { label: cell.label, count: null, suppressed: why } : { label: cell.label, count: cell.count };
    });
  const hiddenSum = () => [...hidden.keys()].reduce((sum, i) => sum + cells[i]!.count, 0);
  const pinned = () => anyPinned(readerBounds(shownOf(), floor, totalKnown ? hiddenSum() : undefined));
  if (!additive) return { shown: shownOf(), pinned: false };
  // Secondary suppression (e-Stat's secondary suppression): while one cell alone is hidden (the total minus
  // the shown cells is that cell), or the hidden cells together hold fewer than `floor` members
  // (zero included: "they are all empty" is a disclosure too), or a reader could still bound a
  // hidden cell to one value, the smallest shown cell is hidden too.
  const unsafe = () => (hidden.size > 0 || mustHide) && (hidden.size < 2 || hiddenSum() < floor || pinned());
  while (unsafe()) {
    let smallest = -1;
    cells.forEach((cell, i) => {
      if (!hidden.has(i) && (smallest === -1 || cell.count < cells[smallest]!.count)) smallest = i;
    });
    if (smallest === -1) break; // every cell hidden
    hidden.set(smallest, 'complement');
  }
  return { shown: shownOf(), pinned: unsafe() };
}

/** Every dimension as published (every category kept, in its given order) and the total. The
 *  total is published when it is `floor` or more and every dimension could protect its hidden
 *  cells against it; otherwise it is hidden, and every additive dimension hides at least two
 *  cells (one whose cells were all shown would give the total back as their sum). */
export function publish<K extends string>(dimensions: Record<K, Dimension>, total: number, floor: number): { total: number | null; dimensions: Record<K, ShownCell[]> } {
  const keys = Object.keys(dimensions) as K[];
  const run = (totalKnown: boolean) =>
    Object.fromEntries(keys.map((k) => [k, hide(dimensions[k].cells, floor, dimensions[k].additive, totalKnown, !totalKnown)])) as Record<K, { shown: ShownCell[]; pinned: boolean }>;
  let hiddenTotal = total < floor;
  let out = run(!hiddenTotal);
  if (!hiddenTotal && keys.some((k) => out[k].pinned)) {
    hiddenTotal = true;
    out = run(false);
  }
  return { total: hiddenTotal ? null : total, dimensions: Object.fromEntries(keys.map((k) => [k, out[k].shown])) as Record<K, ShownCell[]> };
}
