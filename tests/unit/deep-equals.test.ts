// The client bundle's stand-in for fast-equals inside rjsf (src/engine/deep-equals.ts) gives rjsf's
// deepEquals the answers fast-equals gives (the tests run rjsf with the real fast-equals).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { deepEquals } from '@rjsf/utils';
import { createCustomEqual } from '../../src/engine/deep-equals';

const ours = createCustomEqual({ circular: true });

/** What rjsf compares: data, schemas, props; with Dates, Maps, Sets (the form context's). */
const value = fc.anything({ withDate: true, withMap: true, withSet: true, withBoxedValues: false, withTypedArray: false, withNullPrototype: false, withSparseArray: false, maxDepth: 4 });

/** A copy of `v` with one leaf changed, when it has one. */
function changed(v: unknown): unknown {
  if (Array.isArray(v)) return v.length ? [...v.slice(0, -1), changed(v[v.length - 1])] : [1];
  if (v && typeof v === 'object' && v.constructor === Object) {
    const keys = Object.keys(v);
    return keys.length ? { ...v, [keys[0]]: changed((v as Record<string, unknown>)[keys[0]]) } : { added: true };
  }
  return typeof v === 'string' ? `${v}!` : typeof v === 'number' ? v + 1 : 'other';
}

describe('the fast-equals stand-in', () => {
  it('agrees with rjsf’s deepEquals on values and their copies', () => {
    fc.assert(
      fc.property(value, (a) => {
        const copy = structuredClone(a);
        expect(ours(a, copy)).toBe(deepEquals(a, copy));
        expect(ours(a, copy)).toBe(true);
        const other = changed(copy);
        expect(ours(a, other)).toBe(deepEquals(a, other));
      }),
      { numRuns: 500 },
    );
  });

  it('agrees on unrelated values', () => {
    fc.assert(
      fc.property(value, value, (a, b) => {
        expect(ours(a, b)).toBe(deepEquals(a, b));
      }),
      { numRuns: 500 },
    );
  });

  it('treats functions as equal, as rjsf asks', () => {
    const a = { onChange: () => 1, widgets: { pin: function Pin() {} } };
    const b = { onChange: () => 2, widgets: { pin: function Other() {} } };
    expect(ours(a, b)).toBe(true);
    expect(deepEquals(a, b)).toBe(true);
    expect(ours({ f: () => 1 }, { f: 1 })).toBe(false);
  });

  it('compares Sets and Maps by content, as the form context’s touched fields', () => {
    expect(ours(new Set(['a', 'b']), new Set(['b', 'a']))).toBe(true);
    expect(ours(new Set(['a']), new Set(['b']))).toBe(false);
    expect(ours(new Map([['a', { x: 1 }]]), new Map([['a', { x: 1 }]]))).toBe(true);
    expect(ours(new Map([['a', { x: 1 }]]), new Map([['a', { x: 2 }]]))).toBe(false);
  });

  it('survives cycles', () => {
    const a: Record<string, unknown> = { name: 'a' };
    a.self = a;
    const b: Record<string, unknown> = { name: 'a' };
    b.self = b;
    const c: Record<string, unknown> = { name: 'c' };
    c.self = c;
    expect(ours(a, b)).toBe(true);
    expect(ours(a, c)).toBe(false);
    expect(deepEquals(a, b)).toBe(true);
  });

  it('ignores a React element’s owner, not its props', () => {
    const element = (owner: object, text: string) => ({ $$typeof: Symbol.for('react.transitional.element'), type: 'p', key: null, props: { children: text }, _owner: owner });
    expect(ours(element({ a: 1 }, 'x'), element({ b: 2 }, 'x'))).toBe(true);
    expect(ours(element({}, 'x'), element({}, 'y'))).toBe(false);
  });
});
