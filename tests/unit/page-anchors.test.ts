// Page anchors (src/server/db/page-anchors.ts) over a list in memory: where a page is read from,
// how many key reads that takes (once per anchor and version), and that a walk lets other work in.
import { describe, expect, it } from 'vitest';
import { PageAnchors, type KeyAt } from '../../src/server/db/page-anchors';

/** A list of `length` rows keyed by their position, and a count of the key reads made on it. */
function list(length: number) {
  const reads: number[] = [];
  const keyAt: KeyAt<number> = async (after, skip) => {
    const at = (after === undefined ? 0 : after + 1) + skip;
    reads.push(at);
    return at < length ? at : undefined;
  };
  return { keyAt, reads };
}

describe('PageAnchors', () => {
  it('an offset within the first stride needs no anchor and reads nothing', async () => {
    const anchors = new PageAnchors<number>(10);
    const { keyAt, reads } = list(100);
    expect(await anchors.place('a', 1, 0, keyAt)).toEqual({ after: undefined, skip: 0 });
    expect(await anchors.place('a', 1, 9, keyAt)).toEqual({ after: undefined, skip: 9 });
    expect(reads).toEqual([]);
  });

  it('a deeper offset is read from the nearest anchor before it (the key of every stride-th row), each anchor found once per version', async () => {
    const anchors = new PageAnchors<number>(10);
    const { keyAt, reads } = list(100);
    // Row 37 is 7 rows past row 29 (the key after which row 30 comes).
    expect(await anchors.place('a', 1, 37, keyAt)).toEqual({ after: 29, skip: 7 });
    expect(reads).toEqual([9, 19, 29]);
    expect(await anchors.place('a', 1, 30, keyAt)).toEqual({ after: 29, skip: 0 });
    expect(await anchors.place('a', 1, 25, keyAt)).toEqual({ after: 19, skip: 5 });
    expect(await anchors.place('a', 1, 45, keyAt)).toEqual({ after: 39, skip: 5 });
    expect(reads).toEqual([9, 19, 29, 39]);
    // Another version of the list: its anchors are found again.
    expect(await anchors.place('a', 2, 25, keyAt)).toEqual({ after: 19, skip: 5 });
    expect(reads).toEqual([9, 19, 29, 39, 9, 19]);
  });

  it('past the end: undefined, and the end is remembered', async () => {
    const anchors = new PageAnchors<number>(10);
    const { keyAt, reads } = list(25);
    expect(await anchors.place('a', 1, 95, keyAt)).toBeUndefined();
    expect(reads).toEqual([9, 19, 29]);
    expect(await anchors.place('a', 1, 500, keyAt)).toBeUndefined();
    expect(await anchors.place('a', 1, 24, keyAt)).toEqual({ after: 19, skip: 4 });
    expect(reads).toEqual([9, 19, 29]);
  });

  it('keeps the anchors of the most recently read lists only', async () => {
    const anchors = new PageAnchors<number>(10, 2);
    const { keyAt, reads } = list(100);
    for (const name of ['a', 'b', 'a', 'c']) await anchors.place(name, 1, 15, keyAt);
    expect(anchors.size).toBe(2);
    expect(reads).toHaveLength(3); // a, b, c; a's second read used its anchor
    await anchors.place('a', 1, 15, keyAt); // kept: read after b
    await anchors.place('b', 1, 15, keyAt); // gone: found again
    expect(reads).toHaveLength(4);
  });

  it('lets other work run between two key reads, so a long walk holds nothing up', async () => {
    const anchors = new PageAnchors<number>(10);
    const { keyAt } = list(1000);
    const order: string[] = [];
    const counting: KeyAt<number> = async (after, skip) => {
      order.push('read');
      return keyAt(after, skip);
    };
    setImmediate(() => order.push('other'));
    await anchors.place('a', 1, 35, counting);
    expect(order).toEqual(['read', 'other', 'read', 'read']);
  });
});
