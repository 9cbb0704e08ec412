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

export const normalisers = { toHalfWidth, stripEmoji, digitsOnly } as const;
export type NormaliserName = keyof typeof normalisers;

export function applyNormalisers(text: string, names: readonly string[] | undefined): string {
  return (names ?? []).reduce((value, name) => {
    const fn = normalisers[name as NormaliserName];
    if (!fn) throw new Error(`Unknown normaliser "${name}" in a UI schema`);
    return fn(value);
  }, text);
}
