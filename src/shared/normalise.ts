// Input normalisers the widgets apply (never during IME composition). Named in UI schemas as
// "ui:options": { "normalise": ["toHalfWidth", …] }.

const HYPHENS = /[\u2010-\u2015\u2212\u30FC\uFF0D\uFF70\u2043\uFE63]/g;

/** Full-width digits and hyphen-like marks (long vowel mark, full-width hyphen, dashes, minus)
 *  to half-width "0-9" and "-". */
export function toHalfWidth(text: string): string {
  return text.replace(/[\uFF10-\uFF19]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0)).replace(HYPHENS, '-');
}

/** Removes emoji (pictographs, their modifiers, variation selectors and joiners). */
export function stripEmoji(text: string): string {
  return text.replace(/\p{Extended_Pictographic}|[\u{1F3FB}-\u{1F3FF}\u{1F1E6}-\u{1F1FF}\uFE0F\u200D\u20E3]/gu, '');
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

export const normalisers = { toHalfWidth, stripEmoji, digitsOnly, japaneseDateToIso } as const;
export type NormaliserName = keyof typeof normalisers;

export function applyNormalisers(text: string, names: readonly string[] | undefined): string {
  return (names ?? []).reduce((value, name) => {
    const fn = normalisers[name as NormaliserName];
    if (!fn) throw new Error(`Unknown normaliser "${name}" in a UI schema`);
    return fn(value);
  }, text);
}
