// The registration rules (spec section 5) at their boundaries, checked with the precompiled
// validators the browser gets (virtual:form/register-*) and the messages the form shows under
// each field. Each case changes one field of otherwise valid data, so the expected answer is the
// complete set of errors: exactly these messages under exactly this field, nothing elsewhere.
import { describe, expect, it } from 'vitest';
import * as profileForm from 'virtual:form/register-profile';
import * as emailForm from 'virtual:form/register-email';
import * as termsForm from 'virtual:form/register-terms';
import type { FormModule } from '../../src/engine/SchemaForm';
import { toFieldErrors, type FieldErrors } from '../../src/shared/validation/field-errors';
import { browserFieldErrors } from '../support/field-messages';
import { validateWith } from '../support/forms';
import { passwordMessages, rulesOf } from '../support/schema-messages';

const profile = profileForm as FormModule;
const email = emailForm as FormModule;
const terms = termsForm as FormModule;
/** Messages and limits as the schemas state them (a JSON edit moves these tests with it). */
const rules = rulesOf('register-profile');
const PW = passwordMessages();

/** `n` characters of Japanese text (code points, as the schema counts them). */
const jp = (n: number) => Array.from({ length: n }, (_, i) => 'あいうえおかきくけこ二地域居住応援'[i % 17]).join('');

const VALID_PROFILE = {
  password: 'Abcdef1!',
  password_confirm: 'Abcdef1!',
  last_name_kanji: '山田',
  first_name_kanji: '花子',
  last_name_alphabet: 'YAMADA',
  first_name_alphabet: 'HANAKO',
  birthday: '1990-01-01',
  gender: 'female',
  job: '1',
  industry: '8',
  zip_current: '100-0001',
  address_current: '東京都千代田区千代田1-1',
  phone: '090-1234-5678',
  mail_opt: '1',
  purpose: ['1'],
  purpose_detail: jp(20),
  condition_checked: true,
};

/** `base` with `patch` applied; an `undefined` in the patch removes the field. */
function withPatch(base: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const data: Record<string, unknown> = { ...base, ...patch };
  for (const [key, value] of Object.entries(patch)) if (value === undefined) delete data[key];
  return data;
}

/** The form's messages for `data` as the browser shows them; also checks that the raw
 *  precompiled validator agrees (same verdict, and the server-side mapping gives the same). */
function errorsOf(form: FormModule, data: Record<string, unknown>): FieldErrors {
  const shown = browserFieldErrors(form, data);
  const raw = validateWith(form, data);
  expect(raw.valid, `precompiled verdict for ${JSON.stringify(data)}`).toBe(Object.keys(shown).length === 0);
  expect(toFieldErrors(raw.errors, '(fallback)'), 'server-side mapping of the same errors').toEqual(shown);
  return shown;
}

const profileErrors = (patch: Record<string, unknown>) => errorsOf(profile, withPatch(VALID_PROFILE, patch));

/** Asserts that `patch` is accepted (no message anywhere). */
const accepts = (patch: Record<string, unknown>) => expect(profileErrors(patch)).toEqual({});
/** Asserts that `patch` gives exactly `messages` under `field`, and nothing else. */
const refuses = (patch: Record<string, unknown>, field: string, messages: string[]) =>
  expect(profileErrors(patch)).toEqual({ [field]: messages });

describe('register-profile: the valid baseline', () => {
  it('accepts the baseline data', () => accepts({}));
});

describe('purpose_detail (its length limits, no URL, HTML or emoji)', () => {
  const MIN = rules.limit('purpose_detail', 'minLength');
  const MAX = rules.limit('purpose_detail', 'maxLength');
  const TOO_SHORT = rules.message('purpose_detail', 'minLength');
  const TOO_LONG = rules.message('purpose_detail', 'maxLength');
  const BANNED = rules.message('purpose_detail', 'not');

  it('min - 1 characters are refused, min accepted', () => {
    refuses({ purpose_detail: jp(MIN - 1) }, 'purpose_detail', [TOO_SHORT]);
    accepts({ purpose_detail: jp(MIN) });
  });

  it('max characters are accepted, max + 1 refused', () => {
    accepts({ purpose_detail: jp(MAX) });
    refuses({ purpose_detail: jp(MAX + 1) }, 'purpose_detail', [TOO_LONG]);
  });

  it('counts characters, not UTF-16 units (kanji outside the BMP count one each)', () => {
    accepts({ purpose_detail: '𠮷'.repeat(MIN) });
    refuses({ purpose_detail: '𠮷'.repeat(MIN - 1) }, 'purpose_detail', [TOO_SHORT]);
  });

  it('is required', () => {
    refuses({ purpose_detail: undefined }, 'purpose_detail', [rules.required('purpose_detail')]);
  });

  it.each(['http://example.com', 'https://example.com', 'www.example.com', 'ftp://example.com', 'HTTPをhttp:で', 'HTTPS://EXAMPLE.COM', 'WWW.example.com', 'Ftp://x'])(
    'refuses a URL (%s)',
    (url) => refuses({ purpose_detail: `${jp(20)}${url}` }, 'purpose_detail', [BANNED]),
  );

  it.each(['<b>', '<a href="x">', '</p>', '<br/>'])('refuses the HTML tag %s', (tag) => {
    refuses({ purpose_detail: `${jp(20)}${tag}` }, 'purpose_detail', [BANNED]);
  });

  it.each(['😀', '🎉', '❤️', '👨‍👩‍👧'])('refuses the emoji %s', (emoji) => {
    refuses({ purpose_detail: `${jp(20)}${emoji}` }, 'purpose_detail', [BANNED]);
  });

  it('accepts text that only looks close to a URL or a tag (a lone "<", "www" without a dot)', () => {
    accepts({ purpose_detail: `${jp(20)} 3 < 5` });
    accepts({ purpose_detail: `${jp(20)}wwwの話` });
  });

  it('a short text with a URL gets both messages', () => {
    refuses({ purpose_detail: 'http://x' }, 'purpose_detail', [BANNED, TOO_SHORT]);
  });
});

describe('purpose (its item limits) and purpose_other (required only with 99)', () => {
  const MAX = rules.limit('purpose', 'maxItems');
  const CODES = Array.from({ length: MAX + 1 }, (_, i) => String(i + 1));

  it('no purpose is refused with the required message (missing or empty)', () => {
    refuses({ purpose: undefined }, 'purpose', [rules.required('purpose')]);
    refuses({ purpose: [] }, 'purpose', [rules.message('purpose', 'minItems')]);
  });

  it('max purposes are accepted, max + 1 refused', () => {
    accepts({ purpose: CODES.slice(0, MAX) });
    refuses({ purpose: CODES }, 'purpose', [rules.message('purpose', 'maxItems')]);
  });

  it('the same purpose twice is refused', () => {
    refuses({ purpose: ['1', '1'] }, 'purpose', [rules.message('purpose', 'uniqueItems')]);
  });

  it('purpose_other is not required without 99', () => {
    accepts({ purpose: ['1', '2'] });
  });

  it('purpose_other is required when purpose contains 99 (alone or among others)', () => {
    refuses({ purpose: ['99'] }, 'purpose_other', [rules.required('purpose_other')]);
    refuses({ purpose: ['1', '99'] }, 'purpose_other', [rules.required('purpose_other')]);
  });

  it('purpose_other: min - 1 refused, min and max accepted, max + 1 refused', () => {
    const purpose = ['1', '99'];
    const [min, max] = [rules.limit('purpose_other', 'minLength'), rules.limit('purpose_other', 'maxLength')];
    refuses({ purpose, purpose_other: jp(min - 1) }, 'purpose_other', [rules.message('purpose_other', 'minLength')]);
    accepts({ purpose, purpose_other: jp(min) });
    accepts({ purpose, purpose_other: jp(max) });
    refuses({ purpose, purpose_other: jp(max + 1) }, 'purpose_other', [rules.message('purpose_other', 'maxLength')]);
  });

  it('purpose_other refuses URLs (any letter case) and HTML tags, with a message that does not mention emoji', () => {
    const purpose = ['99'];
    const banned = rules.message('purpose_other', 'not');
    expect(banned).not.toContain('絵文字');
    refuses({ purpose, purpose_other: `${jp(20)}https://example.com` }, 'purpose_other', [banned]);
    refuses({ purpose, purpose_other: `${jp(20)}HTTPS://example.com` }, 'purpose_other', [banned]);
    refuses({ purpose, purpose_other: `${jp(20)}<script>` }, 'purpose_other', [banned]);
  });
});

describe('kanji names', () => {
  const FAMILY_PATTERN = '姓はひらがな・カタカナ・漢字で入力してください（全角スペースは1つまで）';
  const GIVEN_PATTERN = '名はひらがな・カタカナ・漢字で入力してください（スペースは使用できません）';

  it('family name: hiragana, katakana, kanji and marks like 々 and ー are accepted', () => {
    for (const name of ['山田', 'やまだ', 'ヤマダ', '佐々木', 'ヶ谷', 'ローレンス']) accepts({ last_name_kanji: name });
  });

  it('family name: one full-width space is accepted, two are refused', () => {
    accepts({ last_name_kanji: '山田　太郎' });
    refuses({ last_name_kanji: '山田　太　郎' }, 'last_name_kanji', [FAMILY_PATTERN]);
    refuses({ last_name_kanji: '山田　　太郎' }, 'last_name_kanji', [FAMILY_PATTERN]);
  });

  it('family name: a half-width space is refused, and so is a leading or trailing full-width space', () => {
    refuses({ last_name_kanji: '山田 太郎' }, 'last_name_kanji', [FAMILY_PATTERN]);
    refuses({ last_name_kanji: '　山田' }, 'last_name_kanji', [FAMILY_PATTERN]);
    refuses({ last_name_kanji: '山田　' }, 'last_name_kanji', [FAMILY_PATTERN]);
  });

  it('family name: latin letters and digits are refused', () => {
    refuses({ last_name_kanji: 'Yamada' }, 'last_name_kanji', [FAMILY_PATTERN]);
    refuses({ last_name_kanji: 'ＹＡＭＡＤＡ' }, 'last_name_kanji', [FAMILY_PATTERN]);
    refuses({ last_name_kanji: '山田1' }, 'last_name_kanji', [FAMILY_PATTERN]);
  });

  it('family name: 50 characters are accepted, 51 refused', () => {
    accepts({ last_name_kanji: '山'.repeat(50) });
    refuses({ last_name_kanji: '山'.repeat(51) }, 'last_name_kanji', ['姓は50文字以内で入力してください']);
  });

  // (an emptied input reaches the form data as undefined, not '': see ime.test.tsx)
  it('family name: missing is refused', () => {
    refuses({ last_name_kanji: undefined }, 'last_name_kanji', ['姓を入力してください']);
  });

  it('given name: any space is refused', () => {
    accepts({ first_name_kanji: '花子' });
    refuses({ first_name_kanji: '花　子' }, 'first_name_kanji', [GIVEN_PATTERN]);
    refuses({ first_name_kanji: '花 子' }, 'first_name_kanji', [GIVEN_PATTERN]);
    refuses({ first_name_kanji: 'Hanako' }, 'first_name_kanji', [GIVEN_PATTERN]);
  });

  it('given name: 50 characters are accepted, 51 refused; missing is refused', () => {
    accepts({ first_name_kanji: '花'.repeat(50) });
    refuses({ first_name_kanji: '花'.repeat(51) }, 'first_name_kanji', ['名は50文字以内で入力してください']);
    refuses({ first_name_kanji: undefined }, 'first_name_kanji', ['名を入力してください']);
  });
});

describe('alphabet names', () => {
  const PATTERN = rules.message('last_name_alphabet', 'pattern');

  it('letters, spaces and hyphens are accepted', () => {
    for (const name of ['YAMADA', 'yamada', 'Mary Ann', 'Smith-Jones', 'De La Cruz-Lopez']) {
      accepts({ last_name_alphabet: name, first_name_alphabet: name });
    }
  });

  it('digits are refused', () => {
    refuses({ last_name_alphabet: 'Yamada2' }, 'last_name_alphabet', [PATTERN]);
    refuses({ first_name_alphabet: '2Hanako' }, 'first_name_alphabet', [PATTERN]);
  });

  it('full-width letters and kana are refused', () => {
    refuses({ last_name_alphabet: 'ＹＡＭＡＤＡ' }, 'last_name_alphabet', [PATTERN]);
    refuses({ first_name_alphabet: 'はなこ' }, 'first_name_alphabet', [PATTERN]);
  });

  it('50 characters are accepted, 51 refused; missing is refused', () => {
    const max = rules.limit('last_name_alphabet', 'maxLength');
    accepts({ last_name_alphabet: 'A'.repeat(max) });
    refuses({ last_name_alphabet: 'A'.repeat(max + 1) }, 'last_name_alphabet', [rules.message('last_name_alphabet', 'maxLength')]);
    refuses({ first_name_alphabet: undefined }, 'first_name_alphabet', [rules.required('first_name_alphabet')]);
  });
});

describe('password (the checklist rules, each with its own message)', () => {
  const pw = (password: string) => ({ password, password_confirm: password });

  it('7 characters are refused, 8 accepted', () => {
    refuses(pw('Abcde1!'), 'password', [PW.min]);
    accepts(pw('Abcdef1!'));
  });

  it('no lower-case letter', () => refuses(pw('ABCDEF1!'), 'password', [PW.lower]));
  it('no upper-case letter', () => refuses(pw('abcdef1!'), 'password', [PW.upper]));
  it('no digit', () => refuses(pw('Abcdefg!'), 'password', [PW.digit]));
  it('no symbol', () => refuses(pw('Abcdefg1'), 'password', [PW.symbol]));

  it.each(['!', '/', ':', '@', '[', '`', '{', '~'])('the symbol %s counts as a symbol', (symbol) => accepts(pw(`Abcdef1${symbol}`)));

  it('the same character 7 times in a row is accepted, 8 times refused', () => {
    accepts(pw(`A${'a'.repeat(7)}1!`));
    refuses(pw(`A${'a'.repeat(8)}1!`), 'password', [PW.repeat]);
    refuses(pw(`Ab1${'!'.repeat(8)}`), 'password', [PW.repeat]);
  });

  it('full-width characters are refused', () => {
    refuses(pw('Abcdef1!ａ'), 'password', [PW.charset]);
    refuses(pw('Abcdef1!あ'), 'password', [PW.charset]);
    refuses(pw('Abcdef1!　'), 'password', [PW.charset]);
  });

  it('every missing rule gets its own message', () => {
    refuses(pw('abc'), 'password', [PW.min, PW.upper, PW.digit, PW.symbol]);
  });

  it('129 characters are refused', () => {
    const long = `Ab1!${'xY9#'.repeat(31)}a`;
    expect([...long]).toHaveLength(129);
    refuses(pw(long), 'password', ['パスワードは128文字以内で入力してください']);
    accepts(pw(long.slice(0, 128)));
  });

  it('missing is refused', () => {
    expect(profileErrors({ password: undefined, password_confirm: undefined })).toEqual({
      password: ['パスワードを入力してください'],
      password_confirm: ['確認用のパスワードを入力してください'],
    });
  });

  it('a confirmation that differs is refused with パスワードが一致しません', () => {
    refuses({ password_confirm: 'Abcdef1?' }, 'password_confirm', ['パスワードが一致しません']);
    refuses({ password_confirm: 'abcdef1!' }, 'password_confirm', ['パスワードが一致しません']);
  });
});

describe('register-email: email_confirm', () => {
  const emailErrors = (data: Record<string, unknown>) => errorsOf(email, data);

  it('the same address twice is accepted', () => {
    expect(emailErrors({ email: 'taro@example.com', email_confirm: 'taro@example.com' })).toEqual({});
  });

  it('a different confirmation is refused with メールアドレスが一致しません', () => {
    expect(emailErrors({ email: 'taro@example.com', email_confirm: 'jiro@example.com' })).toEqual({
      email_confirm: ['メールアドレスが一致しません'],
    });
  });

  it('a missing confirmation has its own message', () => {
    expect(emailErrors({ email: 'taro@example.com' })).toEqual({ email_confirm: ['確認用のメールアドレスを入力してください'] });
  });
});

describe('amc (optional, exactly 10 half-width digits)', () => {
  const MESSAGE = rules.message('amc', 'pattern');
  it('10 digits are accepted; 9 and 11 refused', () => {
    refuses({ amc: '123456789' }, 'amc', [MESSAGE]);
    accepts({ amc: '1234567890' });
    refuses({ amc: '12345678901' }, 'amc', [MESSAGE]);
  });
  it('empty or missing is accepted', () => {
    accepts({ amc: '' });
    accepts({ amc: undefined });
  });
  it('full-width digits and letters are refused', () => {
    refuses({ amc: '１２３４５６７８９０' }, 'amc', [MESSAGE]);
    refuses({ amc: '12345678a0' }, 'amc', [MESSAGE]);
  });
});

describe('zip_current (3 digits, optional hyphen, 4 digits)', () => {
  const MESSAGE = rules.message('zip_current', 'pattern');
  it('accepts 1000001 and 100-0001', () => {
    accepts({ zip_current: '1000001' });
    accepts({ zip_current: '100-0001' });
  });
  it('refuses 8 digits and misplaced hyphens', () => {
    refuses({ zip_current: '10000001' }, 'zip_current', [MESSAGE]);
    refuses({ zip_current: '100000' }, 'zip_current', [MESSAGE]);
    refuses({ zip_current: '1000-001' }, 'zip_current', [MESSAGE]);
    refuses({ zip_current: '100-00001' }, 'zip_current', [MESSAGE]);
    refuses({ zip_current: '１００-０００１' }, 'zip_current', [MESSAGE]);
  });
  it('is required', () => refuses({ zip_current: undefined }, 'zip_current', ['郵便番号を入力してください']));
});

describe('phone (0 followed by 9 to 12 digits, hyphens allowed between them)', () => {
  const MESSAGE = rules.message('phone', 'pattern');
  it.each(['0312345678', '03-1234-5678', '090-1234-5678', '0312345678901', '0120-123-456'])('accepts %s', (phone) => accepts({ phone }));
  it.each([
    ['031234567', '0 + 8'],
    ['03123456789012', '0 + 13'],
    ['3123456789', 'no leading 0'],
    ['+81312345678', 'international form'],
    ['090 1234 5678', 'spaces'],
    ['090-1234-567a', 'a letter'],
    ['０９０１２３４５６７８', 'full-width digits'],
    ['0------------', 'hyphens without digits'],
    ['0-1-2-3-4-5-6', 'too few digits among hyphens'],
    ['090--1234-5678', 'two hyphens in a row'],
  ])('refuses %s (%s)', (phone) => refuses({ phone }, 'phone', [MESSAGE]));
  it('is required', () => refuses({ phone: undefined }, 'phone', ['電話番号を入力してください']));
});

describe('industry_other (required only when industry is 99, at most 100 characters)', () => {
  it('is not required for another industry', () => accepts({ industry: '8' }));
  it('is required when industry is 99', () => {
    refuses({ industry: '99' }, 'industry_other', ['職種が「その他」の場合は入力してください']);
    refuses({ industry: '99', industry_other: '' }, 'industry_other', ['職種を入力してください']);
  });
  it('max characters are accepted, max + 1 refused', () => {
    const max = rules.limit('industry_other', 'maxLength');
    accepts({ industry: '99', industry_other: jp(max) });
    refuses({ industry: '99', industry_other: jp(max + 1) }, 'industry_other', [rules.message('industry_other', 'maxLength')]);
  });
});

describe('agreements', () => {
  it('condition_checked false or missing is refused', () => {
    refuses({ condition_checked: false }, 'condition_checked', ['確認事項にチェックを入れてください']);
    refuses({ condition_checked: undefined }, 'condition_checked', ['確認事項にチェックを入れてください']);
  });

  it('register-terms: agree false or missing is refused, true accepted', () => {
    expect(errorsOf(terms, { agree: false })).toEqual({ agree: ['同意欄にチェックを入れてください'] });
    expect(errorsOf(terms, {})).toEqual({ agree: ['同意欄にチェックを入れてください'] });
    expect(errorsOf(terms, { agree: true })).toEqual({});
  });
});

describe('other required fields of register-profile', () => {
  it.each([
    ['birthday', '生年月日を入力してください'],
    ['gender', '性別を選択してください'],
    ['job', '就業形態を選択してください'],
    ['industry', '職種を選択してください'],
    ['address_current', '住所を入力してください'],
    ['mail_opt', 'おすすめ情報メールの受け取りを選択してください'],
  ])('%s missing: %s', (field, message) => refuses({ [field]: undefined }, field, [message]));

  it('an impossible birthday is refused', () => {
    refuses({ birthday: '1990-02-30' }, 'birthday', ['生年月日を正しく入力してください']);
  });
});
