// Stands in for fast-equals inside @rjsf/utils in the client bundle (tools/vite-plugin-slim-client.ts,
// ADR 029). rjsf asks it for one comparator, `createCustomEqual({ circular: true, … })` with
// functions always equal (its deepEquals, which decides whether a field renders again); this is
// that comparator for what rjsf compares (form data, schemas, UI schemas, props, the registry,
// the engine's form context): plain objects and arrays, Dates, RegExps, Maps and Sets, cycles,
// React elements without their owner. A value of another kind (a typed array, an Error) is equal
// only to itself, which at worst renders a field once more. tests/unit/deep-equals.test.ts holds
// it to fast-equals' answers.
const { hasOwnProperty, toString } = Object.prototype;

type Comparable = Record<string, unknown>;

function equal(a: unknown, b: unknown, aStack: unknown[], bStack: unknown[]): boolean {
  if (a === b) return true;
  if (a == null || b == null) return false;
  const type = typeof a;
  if (type !== typeof b) return false;
  if (type === 'function') return true;
  if (type === 'number') return a !== a && b !== b; // NaN
  if (type !== 'object') return false;
  if ((a as Comparable).constructor !== (b as Comparable).constructor) return false;
  // A pair already being compared further up is equal if it pairs the same objects (a cycle).
  let i = aStack.length;
  while (i--) if (aStack[i] === a) return bStack[i] === b;
  aStack.push(a);
  bStack.push(b);
  const result = equalObjects(a as Comparable, b as Comparable, aStack, bStack);
  aStack.pop();
  bStack.pop();
  return result;
}

/** Every entry of `a` pairs with its own equal entry of `b` (same size known). */
function sameEntries(a: Iterable<unknown[]>, b: Iterable<unknown[]>, aStack: unknown[], bStack: unknown[]): boolean {
  const rest = [...b];
  for (const entry of a) {
    const at = rest.findIndex((other) => entry.every((part, n) => equal(part, other[n], aStack, bStack)));
    if (at < 0) return false;
    rest.splice(at, 1);
  }
  return true;
}

function equalObjects(a: Comparable, b: Comparable, aStack: unknown[], bStack: unknown[]): boolean {
  if (Array.isArray(a)) {
    const other = b as unknown as unknown[];
    if (a.length !== other.length) return false;
    for (let n = 0; n < a.length; n++) if (!equal(a[n], other[n], aStack, bStack)) return false;
    return true;
  }
  if (a instanceof Date) return equal(a.getTime(), (b as unknown as Date).getTime(), aStack, bStack);
  if (a instanceof RegExp) return a.source === (b as unknown as RegExp).source && a.flags === (b as unknown as RegExp).flags;
  if (a instanceof Map || a instanceof Set) {
    const other = b as unknown as Map<unknown, unknown> | Set<unknown>;
    if (a.size !== other.size) return false;
    const entries = (m: Map<unknown, unknown> | Set<unknown>) => (m instanceof Map ? [...m] : [...m].map((v) => [v]));
    return sameEntries(entries(a), entries(other), aStack, bStack);
  }
  if (toString.call(a) !== '[object Object]') return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) {
    // A React element's owner (development builds) is the component that made it, not its value.
    if (key === '_owner' && (a.$$typeof || b.$$typeof)) continue;
    if (!hasOwnProperty.call(b, key) || !equal(a[key], b[key], aStack, bStack)) return false;
  }
  return true;
}

/** rjsf's only use: `createCustomEqual(options)` for its deepEquals. */
export function createCustomEqual(_options?: unknown): (a: unknown, b: unknown) => boolean {
  return (a, b) => equal(a, b, [], []);
}
