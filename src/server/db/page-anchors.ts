// Page numbers over a keyset (docs/decisions/026). A page is a position in a list as it stands
// (page n of size s starts at row (n - 1) * s), but skipping to it with OFFSET walks every row
// before it: page 5000 of 100,000 inquiries read 100,000 index entries per request. So the key
// of every `stride`-th row of a list is remembered (an anchor), and a page is read from the
// nearest anchor before it, skipping fewer than `stride` rows. Anchors belong to one version of
// the list (the database raises it on every change), so a page never comes from a list that
// has changed since; the first read of a deep page after a change finds its anchors again one
// stride at a time, yielding between reads so that no request holds the event loop for long.
import { setImmediate as yieldToOthers } from 'node:timers/promises';

/** Where a page starts: `skip` rows past the row keyed `after` (from the top when undefined). */
export interface PagePlace<Key> {
  after: Key | undefined;
  skip: number;
}

/** Reads the key of the row `skip` rows past `after` (excluded; from the top when undefined),
 *  or undefined when the list ends before it. */
export type KeyAt<Key> = (after: Key | undefined, skip: number) => Promise<Key | undefined>;

interface Anchors<Key> {
  version: unknown;
  /** keys[i]: the key of row (i + 1) * stride - 1 (counting from 0). */
  keys: Key[];
  /** The list ends before the next anchor. */
  ended: boolean;
}

/** Rows between two anchors: the most a page read skips with OFFSET. */
export const ANCHOR_STRIDE = 1000;
/** Lists whose anchors are kept (the least recently read go first). */
export const ANCHORED_LISTS = 2000;

export class PageAnchors<Key> {
  private readonly lists = new Map<string, Anchors<Key>>();

  constructor(
    readonly stride = ANCHOR_STRIDE,
    private readonly maxLists = ANCHORED_LISTS,
  ) {}

  /** Lists with anchors kept (for tests and the bench). */
  get size(): number {
    return this.lists.size;
  }

  /** Where the row at `offset` of `list` (at `version`) is read from; undefined when the list
   *  is shorter than that. Only offsets of a stride or more need the anchors (and the version). */
  async place(list: string, version: unknown, offset: number, keyAt: KeyAt<Key>): Promise<PagePlace<Key> | undefined> {
    const anchor = Math.floor(offset / this.stride);
    if (anchor === 0) return { after: undefined, skip: offset };
    const anchors = this.anchorsOf(list, version);
    while (anchors.keys.length < anchor) {
      if (anchors.ended) return undefined;
      const next = anchors.keys.length;
      if (next > 0) await yieldToOthers();
      const key = await keyAt(anchors.keys[next - 1], this.stride - 1);
      // Another request reading the same list may have found it meanwhile: the same key.
      if (key === undefined) anchors.ended = true;
      else if (anchors.keys.length === next) anchors.keys.push(key);
    }
    return { after: anchors.keys[anchor - 1], skip: offset - anchor * this.stride };
  }

  private anchorsOf(list: string, version: unknown): Anchors<Key> {
    const known = this.lists.get(list);
    const anchors = known && known.version === version ? known : { version, keys: [], ended: false };
    this.lists.delete(list);
    this.lists.set(list, anchors);
    if (this.lists.size > this.maxLists) this.lists.delete(this.lists.keys().next().value!);
    return anchors;
  }
}
