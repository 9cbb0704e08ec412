// The impact report's examples show the shape of a refused value, never whose it is.
import { describe, expect, it } from 'vitest';
import { maskDigits, maskEmail, maskText, maskValue } from '../../src/server/impact/mask';

describe('maskText', () => {
  it('keeps the first character and stars the rest, a full-width star for full-width text', () => {
    expect(maskText('山田')).toBe('山＊');
    expect(maskText('さいとう々ヶ')).toBe('さ＊＊＊＊＊');
    expect(maskText('Yamada')).toBe('Y*****');
    expect(maskText('山田　太')).toBe('山＊＊＊');
  });

  it('stars a one-character value whole (its first character would be all of it)', () => {
    expect(maskText('豊')).toBe('＊');
    expect(maskText('A')).toBe('*');
    expect(maskText('')).toBe('');
  });

  it('shortens a long text to its first characters’ worth and “…”', () => {
    const text = '週末は地方の農家で手伝いをしながら、平日は都内で働きたい';
    expect(maskText(text)).toBe('週＊＊＊＊＊＊＊＊＊…');
    expect(maskText(text, 4)).toBe('週＊＊＊…');
  });

  it('counts characters, not UTF-16 units (no half of an emoji or a rare kanji leaks)', () => {
    expect(maskText('𠮷野')).toBe('𠮷＊');
    expect(maskText('😀😀😀')).toBe('😀＊＊');
  });
});

describe('maskEmail', () => {
  it('keeps the first character of the local part and of each domain label, and the top-level domain', () => {
    expect(maskEmail('taro@example.com')).toBe('t***@e******.com');
    expect(maskEmail('taro..yamada.@docomo.ne.jp')).toBe('t************@d*****.n*.jp');
    expect(maskEmail('a@b.jp')).toBe('*@*.jp');
  });
});

describe('maskDigits', () => {
  it('keeps the first and the last digit and every separator', () => {
    expect(maskDigits('09012345678')).toBe('0*********8');
    expect(maskDigits('090-1234-5678')).toBe('0**-****-***8');
    expect(maskDigits('1000001')).toBe('1*****1');
    expect(maskDigits('1990-04-01')).toBe('1***-**-*1');
  });

  it('stars a value of two digits or fewer whole', () => {
    expect(maskDigits('12')).toBe('**');
    expect(maskDigits('7')).toBe('*');
  });
});

describe('maskValue', () => {
  it('masks by shape: an address, digits, or text', () => {
    expect(maskValue('taro@example.com')).toBe('t***@e******.com');
    expect(maskValue('03-1234-5678')).toBe('0*-****-***8');
    expect(maskValue('０９０１２３４５６７８')).toBe('０＊＊＊＊＊＊＊＊＊８');
    expect(maskValue('東京都千代田区千代田1-1')).toBe('東＊＊＊＊＊＊＊＊＊…');
  });

  it('masks each item of a list, and says nothing of other values but their kind', () => {
    expect(maskValue(['山田', '0312345678'])).toBe('山＊,0********8');
    expect(maskValue(true)).toBe('true');
    expect(maskValue(undefined)).toBe('');
    expect(maskValue({ name: '山田' })).toBe('{…}');
  });

  it('never returns a stored value of two or more characters as it was', () => {
    for (const value of ['山田', 'ab', 'taro@example.com', '12345', '週末は地方で', 'x@y.z']) expect(maskValue(value)).not.toBe(value);
  });
});
