// Roman names in their passport spelling (issue 35, point 10; ICAO Doc 9303 Part 3): the fold on
// its own, by example and by properties over generated names (fast-check).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toPassportSpelling, withoutNameSeparators } from '../../src/shared/passport-spelling';

const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
/** The combining diacritical marks block: accents, macrons, cedillas, hooks, dots. */
const mark = fc.integer({ min: 0x300, max: 0x36f }).map((cp) => String.fromCodePoint(cp));
const apostrophe = fc.constantFrom("'", '\u2019', '\u2018', '\u02BC', '\u02BB', '`', '\u00B4');

describe('toPassportSpelling', () => {
  it.each([
    ['José', 'JOSE'],
    ['Ōno', 'ONO'],
    ["O'Brien", 'OBRIEN'],
    ['O\u2019Brien', 'OBRIEN'],
    ['Nguyễn', 'NGUYEN'],
    ['Yūki', 'YUKI'],
    ['Đặng', 'DANG'],
    ['Müller', 'MULLER'],
    ['Øster', 'OESTER'],
    ['Straße', 'STRASSE'],
    ['Þórsdóttir', 'THORSDOTTIR'],
    ['Łukasz', 'LUKASZ'],
    ['Æsa', 'AESA'],
    ['Çelik', 'CELIK'],
    ['Núñez', 'NUNEZ'],
    ['İnce', 'INCE'],
    ['Kalanianaʻole', 'KALANIANAOLE'],
    ['D\u00B4Angelo', 'DANGELO'],
    ['Jose\u0301', 'JOSE'],
    ['De La Cruz', 'DE LA CRUZ'],
    ['Smith-Jones', 'SMITH-JONES'],
    ['YAMADA', 'YAMADA'],
  ])('%s is %s', (typed, passport) => {
    expect(toPassportSpelling(typed)).toBe(passport);
  });

  it('leaves digits, dots and Japanese text for the pattern to refuse', () => {
    expect(toPassportSpelling('Yamada2')).toBe('YAMADA2');
    expect(toPassportSpelling('O.Brien')).toBe('O.BRIEN');
    expect(toPassportSpelling('山田')).toBe('山田');
  });

  it('writes a name of ASCII letters, spaces and hyphens in capitals, and changes nothing else', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z][A-Za-z -]{0,40}$/), (name) => {
        expect(toPassportSpelling(name)).toBe(name.toUpperCase());
      }),
      { numRuns: 300 },
    );
  });

  it('takes every accent and apostrophe off a Latin name, however the marks were typed (composed or not)', () => {
    const part = fc.record({ letter: fc.constantFrom(...LETTERS), marks: fc.array(mark, { maxLength: 3 }), apostrophe: fc.option(apostrophe, { nil: '' }) });
    fc.assert(
      fc.property(fc.array(part, { minLength: 1, maxLength: 12 }), fc.constantFrom('NFC', 'NFD') as fc.Arbitrary<'NFC' | 'NFD'>, (parts, form) => {
        const typed = parts.map((p) => p.letter + p.marks.join('') + p.apostrophe).join('').normalize(form);
        expect(toPassportSpelling(typed)).toBe(parts.map((p) => p.letter.toUpperCase()).join(''));
      }),
      { numRuns: 300 },
    );
  });

  it('is stable (the stored form folds to itself) and leaves no small letter, mark or apostrophe, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 24 }), (text) => {
        const once = toPassportSpelling(text);
        expect(toPassportSpelling(once)).toBe(once);
        expect(once).not.toMatch(/[a-z\p{M}'\u2019\u02BC]/u);
      }),
      { numRuns: 500 },
    );
  });
});

describe('withoutNameSeparators (the old form: letters only)', () => {
  it.each([
    ['SMITH-JONES', 'SMITHJONES'],
    ['DE LA CRUZ', 'DELACRUZ'],
    ['VAN  DYKE', 'VANDYKE'],
    ['YAMADA', 'YAMADA'],
  ])('%s is %s', (name, letters) => {
    expect(withoutNameSeparators(name)).toBe(letters);
  });
});
