import { describe, expect, it } from 'vitest';
import { applyNormalisers, digitsOnly, inputNormalisers, liveNormalisers, normalisers, removeHyphens, storedFormOf, stripEmoji, toHalfWidth } from '../../src/shared/normalise';

describe('toHalfWidth', () => {
  it('turns full-width digits into half-width ones', () => {
    expect(toHalfWidth('０１２３４５６７８９')).toBe('0123456789');
    expect(toHalfWidth('〒１２３')).toBe('〒123');
  });

  it.each(['ー', '－', '‐', '―', '−', '‑', '‒', '–', '—', 'ｰ'])('turns the hyphen-like mark %s into "-"', (mark) => {
    expect(toHalfWidth(`090${mark}1234${mark}5678`)).toBe('090-1234-5678');
  });

  it('leaves everything else alone (letters, kana, kanji, half-width text)', () => {
    expect(toHalfWidth('山田 タロウ たろう abc ABC 123-4')).toBe('山田 タロウ たろう abc ABC 123-4');
    expect(toHalfWidth('')).toBe('');
  });
});

describe('stripEmoji', () => {
  it('removes simple emoji and keeps kanji, kana and ASCII', () => {
    expect(stripEmoji('山田😀たろう🎉タロウ!')).toBe('山田たろうタロウ!');
  });

  it('removes ZWJ sequences entirely', () => {
    expect(stripEmoji('家族👨‍👩‍👧‍👦です')).toBe('家族です');
    expect(stripEmoji('a🏳️‍🌈b')).toBe('ab');
  });

  it('removes skin-tone modifiers with their emoji', () => {
    expect(stripEmoji('手👍🏽を振る👋🏿')).toBe('手を振る');
  });

  it('removes variation selectors, keycaps and flags', () => {
    expect(stripEmoji('♥️好き')).toBe('好き');
    expect(stripEmoji('電話#️⃣')).not.toMatch(/[\uFE0F\u20E3]/);
    expect(stripEmoji('日本🇯🇵')).toBe('日本');
  });

  it('keeps characters that are not emoji, including Japanese punctuation and marks', () => {
    const text = '〒100-0001 東京都千代田区「テスト」・ｶﾀｶﾅ（全角）ー々〆';
    expect(stripEmoji(text)).toBe(text);
  });
});

describe('digitsOnly and removeHyphens', () => {
  it('keeps only the digits, full-width converted', () => {
    expect(digitsOnly('０９０－１２３４－５６７８')).toBe('09012345678');
    expect(digitsOnly('a1b2 c３')).toBe('123');
    expect(digitsOnly('なし')).toBe('');
  });

  it('removes hyphens of every kind', () => {
    expect(removeHyphens('１２３ー４５６７')).toBe('1234567');
  });
});

describe('applyNormalisers', () => {
  it('applies the named normalisers in order', () => {
    expect(applyNormalisers('０９０ー😀１', ['stripEmoji', 'toHalfWidth'])).toBe('090-1');
    expect(applyNormalisers('０９０ー１', ['digitsOnly'])).toBe('0901');
  });

  it('is the identity without normalisers', () => {
    expect(applyNormalisers('ＡＢ１', undefined)).toBe('ＡＢ１');
    expect(applyNormalisers('ＡＢ１', [])).toBe('ＡＢ１');
  });

  it('throws on an unknown normaliser name', () => {
    expect(() => applyNormalisers('x', ['toHalfWidth', 'toUpperCase'])).toThrow(/Unknown normaliser "toUpperCase"/);
  });

  it('knows exactly the exported normalisers', () => {
    expect(Object.keys(normalisers).sort()).toEqual([
      'canonicalEmail',
      'composeMarks',
      'digitsOnly',
      'japaneseDateToIso',
      'removeHyphens',
      'stripEmoji',
      'toFullWidthKana',
      'toHalfWidth',
      'toHalfWidthAscii',
      'toNationalPhone',
      'toPassportSpelling',
      'trim',
      'withoutNameSeparators',
    ]);
  });

  it('an input keeps the member\'s text from the stored-only normalisers, which normalise() still runs', () => {
    const node = { 'x-normalise': ['toHalfWidthAscii', 'trim', 'toPassportSpelling'] };
    expect(inputNormalisers(node)).toEqual(['toHalfWidthAscii', 'trim']);
    expect(liveNormalisers(node)).toEqual(['toHalfWidthAscii']);
    expect(storedFormOf(node, 'José')).toBe('JOSE');
    expect(storedFormOf(node, ' José ')).toBe('JOSE');
    expect(storedFormOf(node, 'JOSE')).toBeUndefined();
    expect(storedFormOf(node, '')).toBeUndefined();
    expect(storedFormOf({ 'x-normalise': ['toHalfWidth'] }, '０９０')).toBeUndefined();
  });
});

describe('toNationalPhone', () => {
  it.each([
    ['+81 90-1234-5678', '090-1234-5678'],
    ['+81 (0)90 1234 5678', '090 1234 5678'],
    ['+81 090-1234-5678', '090-1234-5678'],
    ['\uFF0B81\uFF08\uFF10\uFF0990-1234-5678', '090-1234-5678'],
    ['+813-1234-5678', '03-1234-5678'],
    ['090-1234-5678', '090-1234-5678'],
    ['+1 212 555 0100', '+1 212 555 0100'],
  ])('%s → %s', (typed, national) => {
    // As the reset phone's x-normalise runs it: after toHalfWidth.
    expect(applyNormalisers(typed, ['toHalfWidth', 'toNationalPhone'])).toBe(national);
  });
});
