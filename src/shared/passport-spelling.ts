// A roman name as a passport spells it (ICAO Doc 9303 Part 3, "Transliteration of multinational
// Latin-based characters"): the airline's records hold the name as the member's passport does, in
// capitals without accents or apostrophes. José becomes JOSE, Ōno ONO, O'Brien OBRIEN,
// Nguyễn NGUYEN. The schema's pattern then judges what is stored (docs/decisions/036).

/** Letters that are not a base letter with marks (NFKD leaves them whole), as ICAO writes them.
 *  Letters ICAO gives two ways (A-umlaut as AE or A) take the base letter, as NFKD gives it. */
const LETTERS: Readonly<Record<string, string>> = {
  '\u00C6': 'AE', '\u00E6': 'AE',
  '\u0152': 'OE', '\u0153': 'OE',
  '\u00D8': 'OE', '\u00F8': 'OE',
  '\u00DF': 'SS', '\u1E9E': 'SS',
  '\u00DE': 'TH', '\u00FE': 'TH',
  '\u00D0': 'D', '\u00F0': 'D', '\u0110': 'D', '\u0111': 'D',
  '\u0126': 'H', '\u0127': 'H',
  '\u0141': 'L', '\u0142': 'L',
  '\u0131': 'I',
  '\u014A': 'N', '\u014B': 'N',
  '\u0166': 'T', '\u0167': 'T',
  '\u0138': 'K',
};
const SPECIAL_LETTERS = new RegExp(`[${Object.keys(LETTERS).join('')}]`, 'g');

/** Apostrophes as names are written with them (O'Brien, D’Angelo, the okina of Hawaiʻi):
 *  a passport leaves them out. */
const APOSTROPHES = /['\u2018\u2019\u201B\u02BB\u02BC\u02BD\u0060\u00B4\u2032\uFF07\uFF40]/g;

/** Combining marks (accents, macrons, the hook and dot below of Vietnamese) once NFKD has taken
 *  them off their letters. */
const MARKS = /\p{M}/gu;

/** `text` in the passport's spelling: accents and apostrophes off, special letters as ICAO writes
 *  them, capitals. Anything else (digits, kana, punctuation) is left for the pattern to refuse. */
export function toPassportSpelling(text: string): string {
  // Apostrophes go before NFKD, which would make a spacing acute accent a space and a mark.
  return text
    .replace(APOSTROPHES, '')
    .normalize('NFKD')
    .replace(SPECIAL_LETTERS, (c) => LETTERS[c])
    .replace(MARKS, '')
    .replace(APOSTROPHES, '')
    .replace(/[a-z]+/g, (run) => run.toUpperCase());
}

/** A name without its spaces and hyphens (SMITH-JONES as SMITHJONES), for the old form, whose
 *  names are letters only (spec section 5), as airline reservations write such names. */
export function withoutNameSeparators(text: string): string {
  return text.replace(/[ -]+/g, '');
}
