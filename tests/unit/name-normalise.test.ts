// Names as members type them (issue 21, point 5): the normalisers on their own, and the name
// fields of the forms (x-normalise, then the schema's pattern) through the validators the
// browser runs and the server shares.
import { beforeAll, describe, expect, it } from 'vitest';
import { composeMarks, normalise, toFullWidthKana, toHalfWidthAscii } from '../../src/shared/normalise';
import type { JsonObject } from '../../src/shared/validation/schema-bundle';
import type { FormModule } from '../../src/engine/SchemaForm';
import { buildFormModule, validateWith } from '../support/forms';

const IVS = '\u{E0100}';
const cps = (text: string) => [...text].map((c) => c.codePointAt(0)!.toString(16));

describe('toFullWidthKana', () => {
  it('turns half-width katakana into full-width, voiced marks joined', () => {
    expect(toFullWidthKana('ﾔﾏﾀﾞ')).toBe('ヤマダ');
    expect(toFullWidthKana('ｻﾄｳ')).toBe('サトウ');
    expect(toFullWidthKana('ﾎﾟﾝｷﾁ')).toBe('ポンキチ');
    expect(toFullWidthKana('ｽｰﾊﾟｰ')).toBe('スーパー');
  });

  it('leaves kanji, full-width kana, variation selectors and ASCII alone', () => {
    for (const text of ['山田', 'やまだ', 'ヤマダ', `辻${IVS}`, 'Yamada', 'ＹＡＭＡＤＡ', '神']) expect(toFullWidthKana(text)).toBe(text);
  });
});

describe('composeMarks', () => {
  it('joins a combining voiced or semi-voiced mark to its kana (a name pasted from a file name)', () => {
    expect(composeMarks('やまた\u3099')).toBe('やまだ');
    expect(composeMarks('ハ\u309Aン')).toBe('パン');
    expect(composeMarks('か\u3099').length).toBe(1);
  });

  it('keeps ideographic variation sequences as typed', () => {
    expect(cps(composeMarks(`辻${IVS}`))).toEqual(['8fbb', 'e0100']);
    expect(cps(composeMarks(`葛${IVS}城`))).toEqual(['845b', 'e0100', '57ce']);
    expect(cps(composeMarks('禰\uFE00'))).toEqual(['79b0', 'fe00']);
  });

  it('does not let NFC turn a compatibility ideograph into its unified twin', () => {
    // U+FA19 (神, as some registers write it) would become U+795E under NFC.
    expect('\uFA19'.normalize('NFC')).toBe('\u795E');
    expect(cps(composeMarks('\uFA19\u3099'))).toEqual(['fa19', '3099']);
    expect(cps(composeMarks('\uFA19さ\u3099'))).toEqual(['fa19', '3056']);
  });
});

describe('toHalfWidthAscii', () => {
  it('turns full-width letters, digits, symbols and the ideographic space into ASCII', () => {
    expect(toHalfWidthAscii('ＹＡＭＡＤＡ')).toBe('YAMADA');
    expect(toHalfWidthAscii('Ｍａｒｙ－Ｊａｎｅ')).toBe('Mary-Jane');
    expect(toHalfWidthAscii('ＤＥ　ＬＡ　ＣＲＵＺ')).toBe('DE LA CRUZ');
  });

  it('leaves kana and kanji alone', () => {
    expect(toHalfWidthAscii('山田ヤマダ')).toBe('山田ヤマダ');
  });
});

describe('the name fields of the forms', () => {
  const forms = ['register-profile', 'old-register', 'edit-profile', 'contact'];
  const modules = new Map<string, FormModule>();
  beforeAll(async () => {
    for (const form of forms) modules.set(form, await buildFormModule(form));
  });
  const romanOf = (form: string) => (form === 'edit-profile' ? ['last_name_alpha', 'first_name_alpha'] : ['last_name_alphabet', 'first_name_alphabet']);

  /** The field as the form leaves it, and the form's messages for it. */
  function judge(form: string, field: string, typed: string) {
    const module = modules.get(form)!;
    const value = normalise(module.schema as JsonObject, { [field]: typed })[field];
    const errors = validateWith(module, { [field]: value }).errors.filter((e) => e.instancePath === `/${field}`);
    return { value, errors: errors.map((e) => e.message) };
  }

  it.each(forms)('%s: kanji names are trimmed, half-width kana made full-width, marks composed, variation selectors kept', (form) => {
    const cases: Array<[string, string, string]> = [
      ['last_name_kanji', '山田 ', '山田'],
      ['last_name_kanji', ' 山田　', '山田'],
      ['last_name_kanji', 'ﾔﾏﾀﾞ', 'ヤマダ'],
      ['last_name_kanji', 'ｻﾄｳ', 'サトウ'],
      ['last_name_kanji', `辻${IVS}`, `辻${IVS}`],
      ['last_name_kanji', `葛${IVS}城`, `葛${IVS}城`],
      ['last_name_kanji', '山田　太', '山田　太'],
      ['first_name_kanji', 'はなこ\u3099', 'はなご'],
      ['first_name_kanji', 'ﾊﾅｺ ', 'ハナコ'],
    ];
    for (const [field, typed, stored] of cases) {
      const { value, errors } = judge(form, field, typed);
      expect({ typed, value }).toEqual({ typed, value: stored });
      expect({ typed, errors }).toEqual({ typed, errors: [] });
    }
  });

  it.each(forms)('%s: a variation selector alone, or after kana, is still refused', (form) => {
    expect(judge(form, 'last_name_kanji', `${IVS}山`).errors).not.toEqual([]);
    expect(judge(form, 'last_name_kanji', `や${IVS}`).errors).not.toEqual([]);
    expect(judge(form, 'last_name_kanji', 'Yamada').errors).not.toEqual([]);
  });

  it.each(forms.filter((f) => f !== 'contact'))('%s: roman names are made half-width, trimmed and kept in the passport spelling', (form) => {
    const [family, given] = romanOf(form);
    expect(judge(form, family, 'ＹＡＭＡＤＡ')).toEqual({ value: 'YAMADA', errors: [] });
    expect(judge(form, given, ' Hanako ')).toEqual({ value: 'HANAKO', errors: [] });
    for (const [typed, stored] of [['José', 'JOSE'], ['Ōno', 'ONO'], ["O'Brien", 'OBRIEN'], ['Nguyễn', 'NGUYEN'], ['Yūki', 'YUKI'], ['Ｊｏｓé ', 'JOSE']]) {
      expect({ typed, ...judge(form, given, typed) }).toEqual({ typed, value: stored, errors: [] });
    }
    expect(judge(form, family, '山田').errors).not.toEqual([]);
    expect(judge(form, family, 'Yamada2').errors).not.toEqual([]);
  });

  it.each(['register-profile', 'edit-profile'])('%s: roman names keep their spaces and hyphens (spec: letters, space and hyphen)', (form) => {
    const [family, given] = romanOf(form);
    expect(judge(form, family, 'De La Cruz')).toEqual({ value: 'DE LA CRUZ', errors: [] });
    expect(judge(form, given, 'Mary-Jane')).toEqual({ value: 'MARY-JANE', errors: [] });
  });

  it('old-register: names with spaces and hyphens are taken as letters only (spec: the old flow takes letters only)', () => {
    const [family, given] = romanOf('old-register');
    expect(judge('old-register', family, 'De La Cruz')).toEqual({ value: 'DELACRUZ', errors: [] });
    expect(judge('old-register', family, "Smith-Jones O'Neil")).toEqual({ value: 'SMITHJONESONEIL', errors: [] });
    expect(judge('old-register', given, 'Mary-Jane')).toEqual({ value: 'MARYJANE', errors: [] });
    expect(judge('old-register', given, 'Mary2').errors).not.toEqual([]);
  });

  it.each(forms)('%s: katakana names with 「・」 or 「＝」 between their parts, and Ainu small kana with a semi-voiced mark', (form) => {
    const cases: Array<[string, string, string]> = [
      ['last_name_kanji', 'スミス・ヤマダ', 'スミス・ヤマダ'],
      ['last_name_kanji', 'ｽﾐｽ･ﾔﾏﾀﾞ', 'スミス・ヤマダ'],
      ['last_name_kanji', 'デ＝ラ＝クルス', 'デ＝ラ＝クルス'],
      ['last_name_kanji', 'スミス・ヤマダ　ジュニア', 'スミス・ヤマダ　ジュニア'],
      ['first_name_kanji', 'メアリー・ジェーン', 'メアリー・ジェーン'],
      ['first_name_kanji', 'メアリー＝ジェーン', 'メアリー＝ジェーン'],
      ['first_name_kanji', 'ㇷ\u309Aチ', 'ㇷ\u309Aチ'],
      ['last_name_kanji', 'カㇷ\u309A', 'カㇷ\u309A'],
    ];
    for (const [field, typed, stored] of cases) {
      const { value, errors } = judge(form, field, typed);
      expect({ typed, value, errors }).toEqual({ typed, value: stored, errors: [] });
    }
  });

  it.each(forms)('%s: a separator only between two characters, one at a time; a lone mark is refused', (form) => {
    for (const typed of ['・ヤマダ', 'ヤマダ・', 'スミス・・ヤマダ', 'スミス・＝ヤマダ', 'スミス=ヤマダ', '\u309Aチ', 'チ\u309A\u309A', 'スミス・　ヤマダ']) {
      expect({ typed, refused: judge(form, 'last_name_kanji', typed).errors.length > 0 }).toEqual({ typed, refused: true });
    }
    expect(judge(form, 'first_name_kanji', 'メアリー・ジェーン　スミス').errors).not.toEqual([]);
  });
});
