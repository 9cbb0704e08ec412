// Normalisers a field names in its schema node ("x-normalise": ["trim", "toHalfWidth", …]).
// normalise(schema, data) applies them before validation on both sides (the server after its
// wire adapter, the client before sending); the engine's inputs apply the same list as the
// member types (never during IME composition), the BLUR_ONLY ones when the field is left.
// "x-canonical" names those that run on valid data only, before it is sent and stored
// (canonical(): hyphens leave the postal code and phone after the schema has judged them).
import { canonicalEmail } from './canonical-email';
import { toPassportSpelling, withoutNameSeparators } from './passport-spelling';
import type { JsonObject } from './validation/schema-bundle.ts';
import { fieldNodes, resolveNode } from './validation/schema-nodes.ts';

const HYPHENS = /[\u2010-\u2015\u2212\u30FC\uFF0D\uFF70\u2043\uFE63]/g;

/** Full-width digits and hyphen-like marks (long vowel mark, full-width hyphen, dashes, minus)
 *  to half-width "0-9" and "-". */
export function toHalfWidth(text: string): string {
  return text.replace(/[\uFF10-\uFF19]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0)).replace(HYPHENS, '-');
}

/** Removes emoji (pictographs, their modifiers, variation selectors and joiners). */
export function stripEmoji(text: string): string {
  // One character class (not an alternation): linear and quick on a text at the body limit.
  return text.replace(/[\p{Extended_Pictographic}\u{1F3FB}-\u{1F3FF}\u{1F1E6}-\u{1F1FF}\uFE0F\u200D\u20E3]/gu, '');
}

export function digitsOnly(text: string): string {
  return toHalfWidth(text).replace(/[^0-9]/g, '');
}

export function removeHyphens(text: string): string {
  return toHalfWidth(text).replace(/-/g, '');
}

/** A birthday as members type it (year-kanji form YYYY\u5E74M\u6708D\u65E5, YYYY/M/D, YYYY-M-D, YYYYMMDD; full-width digits
 *  too) as YYYY-MM-DD. Anything else is returned unchanged, for the schema to refuse. Whether
 *  the date exists (31 Feb, 29 Feb of a common year) is the schema's `format: date` check. */
export function japaneseDateToIso(text: string): string {
  // Full-width slashes too: Japanese input methods often type them.
  const value = toHalfWidth(text).replace(/\uFF0F/g, '/').trim();
  const match = /^(\d{4})\u5E74(\d{1,2})\u6708(\d{1,2})\u65E5$/.exec(value) ?? /^(\d{4})[/-](\d{1,2})[/-](\d{1,2})$/.exec(value) ?? /^(\d{4})(\d{2})(\d{2})$/.exec(value);
  if (!match) return text;
  const [, year, month, day] = match;
  return `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`;
}

/** A Japanese number written internationally (+81 90-1234-5678, +81 (0)90 1234 5678, +81 090…,
 *  a full-width plus too) in its national form (090-1234-5678), the form the site stores: the
 *  country code becomes the trunk prefix 0 (one written after it is not doubled). Anything else
 *  is returned unchanged. */
export function toNationalPhone(text: string): string {
  const match = /^\s*[+\uFF0B]\s*81[\s\-(\uFF08]*0?[\s\-)\uFF09]*(.*)$/s.exec(text);
  return match ? `0${match[1]}` : text;
}

export function trim(text: string): string {
  return text.trim();
}

/** Half-width katakana (U+FF61-U+FF9F: letters, punctuation, the long vowel mark) as full-width,
 *  a voiced or semi-voiced mark joined to its letter (U+FF80 U+FF9E becomes U+30C0). Only that block is touched: NFKC of the whole text would
 *  also rewrite compatibility ideographs and full-width letters. */
export function toFullWidthKana(text: string): string {
  return text.replace(/[\uFF61-\uFF9F]+/g, (run) => run.normalize('NFKC'));
}

/** CJK compatibility ideographs (U+F900-U+FAFF, U+2F800-U+2FA1F): NFC would replace each with
 *  its unified ideograph, losing the form a family register writes. */
const COMPATIBILITY_IDEOGRAPHS = /([\uF900-\uFAFF\u{2F800}-\u{2FA1F}])/u;

/** Combining marks composed with their letter (NFC: U+304B U+3099 becomes U+304C, as a file name
 *  from a Mac pastes it). Variation selectors (U+FE00-U+FE0F, U+E0100-U+E01EF) are kept as typed (NFC never
 *  touches them), and compatibility ideographs are left out of NFC, which would rewrite them. */
export function composeMarks(text: string): string {
  return text
    .split(COMPATIBILITY_IDEOGRAPHS)
    .map((part, i) => (i % 2 === 1 ? part : part.normalize('NFC')))
    .join('');
}

/** Full-width ASCII (U+FF01-U+FF5E: letters, digits, symbols) and the ideographic space (U+3000)
 *  as half-width ASCII: a roman name typed in full-width becomes YAMADA. */
export function toHalfWidthAscii(text: string): string {
  return text.replace(/[\uFF01-\uFF5E]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0)).replace(/\u3000/g, ' ');
}


export const normalisers = {
  trim,
  toHalfWidth,
  toHalfWidthAscii,
  toFullWidthKana,
  composeMarks,
  removeHyphens,
  digitsOnly,
  stripEmoji,
  canonicalEmail,
  japaneseDateToIso,
  toNationalPhone,
  toPassportSpelling,
  withoutNameSeparators,
} as const;

/** Normalisers that would get in the way while typing (a space before the next word, a date or a
 *  country code half written): inputs run them when the field is left; normalise() runs them all. */
export const BLUR_ONLY: ReadonlySet<string> = new Set(['trim', 'digitsOnly', 'removeHyphens', 'japaneseDateToIso', 'toNationalPhone']);

/** Normalisers that make the stored form of what the member typed (a roman name in its passport
 *  spelling): an input keeps the member's text as typed and the form shows what will be stored
 *  under it (BaseInputTemplate); normalise() runs them, so validation, the request and the server
 *  all see the stored form. */
export const STORED_ONLY: ReadonlySet<string> = new Set(['toPassportSpelling', 'withoutNameSeparators']);
export type NormaliserName = keyof typeof normalisers;

export function applyNormalisers(text: string, names: readonly string[] | undefined): string {
  return (names ?? []).reduce((value, name) => {
    const fn = normalisers[name as NormaliserName];
    if (!fn) throw new Error(`Unknown normaliser "${name}" in a schema's x-normalise`);
    return fn(value);
  }, text);
}

/** The normalisers a (resolved) field node names. */
export function normalisersOf(node: JsonObject | undefined): string[] {
  const list = node?.['x-normalise'];
  return Array.isArray(list) ? list.filter((n): n is string => typeof n === 'string') : [];
}

/** What normalise() applies to a schema: each field's normalisers, and its items' for a list.
 *  Worked out once per (prepared, unchanging) schema: resolving every field's $refs on each
 *  call was a cost on every request and on every stored record the impact report judges. */
interface FieldPlan {
  name: string;
  own: string[];
  items: string[] | undefined;
}
const PLANS = new WeakMap<JsonObject, FieldPlan[]>();

function planOf(schema: JsonObject): FieldPlan[] {
  let plan = PLANS.get(schema);
  if (!plan) {
    plan = Object.entries(fieldNodes(schema)).map(([name, node]) => ({
      name,
      own: normalisersOf(node),
      items: node.items && typeof node.items === 'object' ? normalisersOf(resolveNode(schema, node.items as JsonObject)) : undefined,
    }));
    PLANS.set(schema, plan);
  }
  return plan;
}

/** `data` with every string field (and every string item of an array field) passed through
 *  the normalisers its node names. Anything else is left for validation to judge. */
export function normalise<T>(schema: JsonObject, data: T): T {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return data;
  const out: Record<string, unknown> = { ...(data as Record<string, unknown>) };
  for (const { name, own, items } of planOf(schema)) {
    const value = out[name];
    if (typeof value === 'string') out[name] = applyNormalisers(value, own);
    else if (Array.isArray(value) && items) out[name] = value.map((item) => (typeof item === 'string' ? applyNormalisers(item, items) : item));
  }
  return out as T;
}

/** `data` without its empty fields ('' or an empty list): empty is "not given", so a form's
 *  `required` (with its own message) judges it, not a length or a pattern, and an optional field
 *  may be emptied. The engine's inputs report an emptied field as undefined; the server applies
 *  this to what arrives, so both sides judge the same data. */
export function withoutEmpty<T>(schema: JsonObject, data: T): T {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return data;
  const out: Record<string, unknown> = { ...(data as Record<string, unknown>) };
  for (const name of Object.keys(fieldNodes(schema))) {
    const value = out[name];
    if (value === '' || (Array.isArray(value) && value.length === 0)) delete out[name];
  }
  return out as T;
}

/** Valid `data` as it is sent and stored: every string field through the normalisers its node
 *  names in "x-canonical" (run after validation, so a misplaced hyphen is still refused). */
export function canonical<T>(schema: JsonObject, data: T): T {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return data;
  const out: Record<string, unknown> = { ...(data as Record<string, unknown>) };
  for (const [name, node] of Object.entries(fieldNodes(schema))) {
    const names = node['x-canonical'];
    if (typeof out[name] === 'string' && Array.isArray(names)) out[name] = applyNormalisers(out[name] as string, names as string[]);
  }
  return out as T;
}

/** The normalisers an input runs on its own text when the member leaves it: all its field names
 *  but the STORED_ONLY. */
export function inputNormalisers(node: JsonObject | undefined): string[] {
  return normalisersOf(node).filter((name) => !STORED_ONLY.has(name));
}

/** The normalisers an input runs as the member types: its inputNormalisers but the BLUR_ONLY. */
export function liveNormalisers(node: JsonObject | undefined): string[] {
  return inputNormalisers(node).filter((name) => !BLUR_ONLY.has(name));
}

/** What a field holding `text` will store, when its node names STORED_ONLY normalisers and that
 *  differs from the text as the input keeps it; else undefined. */
export function storedFormOf(node: JsonObject | undefined, text: unknown): string | undefined {
  if (typeof text !== 'string' || text === '') return undefined;
  const names = normalisersOf(node);
  if (!names.some((name) => STORED_ONLY.has(name))) return undefined;
  const stored = applyNormalisers(text, names);
  return stored !== '' && stored !== applyNormalisers(text, inputNormalisers(node)) ? stored : undefined;
}
