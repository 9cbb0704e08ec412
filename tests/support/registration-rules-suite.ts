// The registration rules (spec section 5) at their boundaries, checked with the precompiled
// validators the browser gets (built as virtual:form/register-* is) and the messages the form
// shows under each field. Each case changes one field of otherwise valid data, so the expected
// answer is the complete set of errors: exactly these messages under exactly this field, nothing
// elsewhere. The valid data, every message, limit, option and condition is read from the schemas
// folder the suite is given: tests/unit/register-rules.test.ts runs it on schemas/ and on an
// edited copy, tests/contract/rule-changes.test.ts on each kind of JSON-only rule change.
import { beforeAll, describe, expect, it } from 'vitest';
import type { FormModule } from '../../src/engine/SchemaForm';
import { toFieldErrors, type FieldErrors } from '../../src/shared/validation/field-errors';
import { loadMasterLists } from '../../src/shared/validation/schema-files';
import type { JsonObject } from '../../src/shared/validation/schema-bundle';
import { browserFieldErrors } from './field-messages';
import { buildFormModule, validateWith } from './forms';
import { passwordMessages, rulesOf } from './schema-messages';
import { FormSamples, jp } from './schema-samples';

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

/** The registration rules as the schemas in `dir` state them. */
export function registrationRules(dir: string): void {
  /** Messages and limits as the schemas state them (a JSON edit moves these tests with it). */
  const rules = rulesOf('register-profile', dir);
  const PW = passwordMessages(dir);
  const PW_MIN = rules.limit('password', 'minLength');
  const DETAIL_MIN = rules.limit('purpose_detail', 'minLength');

  /** `text` repeated to at least the password's minimum (same kinds of characters, no new run). */
  const long = (text: string) => text.repeat(Math.ceil(PW_MIN / text.length));
  /** A password of exactly `n` characters meeting every rule but length. */
  const passwordOf = (n: number) => `Ab1!${'xY9#'.repeat(Math.ceil(n / 4))}`.slice(0, n);

  /** The valid baseline: made from the schemas (tests/support/schema-samples.ts), so a field a
   *  product owner makes required, a new option list or a new condition are in it by themselves. */
  let VALID_PROFILE: Record<string, unknown> = {};
  /** The purpose codes of the list other than the one that brings purpose_other. */
  let PLAIN_PURPOSES: string[] = [];
  /** The choice that brings each conditional field in (industry_other: industry "99"). */
  let BRINGING: Record<string, { field: string; value: unknown }> = {};
  const otherPurpose = () => String(BRINGING.purpose_other.value);
  const otherIndustry = () => String(BRINGING.industry_other.value);

  const forms: Record<'profile' | 'email' | 'terms', FormModule> = {} as never;
  let samples: FormSamples;
  beforeAll(async () => {
    forms.profile = await buildFormModule('register-profile', dir);
    forms.email = await buildFormModule('register-email', dir);
    forms.terms = await buildFormModule('register-terms', dir);
    samples = new FormSamples(forms.profile.schema as JsonObject, loadMasterLists(dir), (data) => browserFieldErrors(forms.profile, data));
    VALID_PROFILE = samples.valid();
    BRINGING = samples.bringing;
    PLAIN_PURPOSES = samples.options('purpose').filter((value) => value !== otherPurpose());
    // Three forms precompiled: seconds on a loaded machine; the limit is for a hang.
  }, 120_000);

  const profileErrors = (patch: Record<string, unknown>) => errorsOf(forms.profile, withPatch(VALID_PROFILE, patch));
  /** Asserts that `patch` is accepted (no message anywhere). */
  const accepts = (patch: Record<string, unknown>) => expect(profileErrors(patch)).toEqual({});
  /** Asserts that `patch` gives exactly `messages` under `field`, and nothing else. */
  const refuses = (patch: Record<string, unknown>, field: string, messages: string[]) => expect(profileErrors(patch)).toEqual({ [field]: messages });
  /** The field left out: refused with its required message when the form requires it, else
   *  accepted (a product owner may move a field either way in JSON). */
  const missing = (field: string) => (rules.isRequired(field) ? refuses({ [field]: undefined }, field, [rules.required(field)]) : accepts({ [field]: undefined }));

  describe('register-profile: the valid baseline', () => {
    it('can be made from the schemas', () => expect(samples.problems('register-profile')).toEqual([]));
    it('accepts the baseline data', () => accepts({}));
  });

  describe('purpose_detail (its length limits, no URL, HTML or emoji)', () => {
    const MIN = DETAIL_MIN;
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

    it('missing: its required message when required', () => missing('purpose_detail'));

    it.each(['http://example.com', 'https://example.com', 'www.example.com', 'ftp://example.com', 'HTTPをhttp:で', 'HTTPS://EXAMPLE.COM', 'WWW.example.com', 'Ftp://x'])(
      'refuses a URL (%s)',
      (url) => refuses({ purpose_detail: `${jp(MIN)}${url}` }, 'purpose_detail', [BANNED]),
    );

    it.each(['<b>', '<a href="x">', '</p>', '<br/>'])('refuses the HTML tag %s', (tag) => {
      refuses({ purpose_detail: `${jp(MIN)}${tag}` }, 'purpose_detail', [BANNED]);
    });

    it.each(['😀', '🎉', '❤️', '👨‍👩‍👧'])('refuses the emoji %s', (emoji) => {
      refuses({ purpose_detail: `${jp(MIN)}${emoji}` }, 'purpose_detail', [BANNED]);
    });

    it('accepts text that only looks close to a URL or a tag (a lone "<", "www" without a dot)', () => {
      accepts({ purpose_detail: `${jp(MIN)} 3 < 5` });
      accepts({ purpose_detail: `${jp(MIN)}wwwの話` });
    });

    it('a short text with a URL gets both messages', () => {
      refuses({ purpose_detail: 'http://x' }, 'purpose_detail', [BANNED, TOO_SHORT]);
    });
  });

  describe('purpose (its item limits) and purpose_other (required only with 99)', () => {
    const MAX = rules.limit('purpose', 'maxItems');
    const CODES = Array.from({ length: MAX + 1 }, (_, i) => String(i + 1));

    it('no purpose is refused with the required message (missing or empty)', () => {
      missing('purpose');
      refuses({ purpose: [] }, 'purpose', [rules.message('purpose', 'minItems')]);
    });

    it('max purposes are accepted, max + 1 refused', () => {
      accepts({ purpose: CODES.slice(0, MAX) });
      refuses({ purpose: CODES }, 'purpose', [rules.message('purpose', 'maxItems')]);
    });

    it('the same purpose twice is refused', () => {
      refuses({ purpose: ['1', '1'] }, 'purpose', [rules.message('purpose', 'uniqueItems')]);
    });

    it('purpose_other is not required without "other"', () => {
      accepts({ purpose: PLAIN_PURPOSES.slice(0, 2) });
    });

    it('purpose_other is required when purpose contains "other" (alone or among others)', () => {
      refuses({ purpose: [otherPurpose()] }, 'purpose_other', [rules.required('purpose_other')]);
      refuses({ purpose: [PLAIN_PURPOSES[0], otherPurpose()] }, 'purpose_other', [rules.required('purpose_other')]);
    });

    it('purpose_other: min - 1 refused, min and max accepted, max + 1 refused', () => {
      const purpose = [PLAIN_PURPOSES[0], otherPurpose()];
      const [min, max] = [rules.limit('purpose_other', 'minLength'), rules.limit('purpose_other', 'maxLength')];
      refuses({ purpose, purpose_other: jp(min - 1) }, 'purpose_other', [rules.message('purpose_other', 'minLength')]);
      accepts({ purpose, purpose_other: jp(min) });
      accepts({ purpose, purpose_other: jp(max) });
      refuses({ purpose, purpose_other: jp(max + 1) }, 'purpose_other', [rules.message('purpose_other', 'maxLength')]);
    });

    it('purpose_other refuses URLs (any letter case) and HTML tags, with a message that does not mention emoji', () => {
      const purpose = [otherPurpose()];
      const text = jp(rules.limit('purpose_other', 'minLength'));
      const banned = rules.message('purpose_other', 'not');
      expect(banned).not.toContain('絵文字');
      refuses({ purpose, purpose_other: `${text}https://example.com` }, 'purpose_other', [banned]);
      refuses({ purpose, purpose_other: `${text}HTTPS://example.com` }, 'purpose_other', [banned]);
      refuses({ purpose, purpose_other: `${text}<script>` }, 'purpose_other', [banned]);
    });
  });

  describe('kanji names', () => {
    const FAMILY_PATTERN = rules.message('last_name_kanji', 'pattern');
    const GIVEN_PATTERN = rules.message('first_name_kanji', 'pattern');

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

    it('family name: max characters are accepted, max + 1 refused', () => {
      const max = rules.limit('last_name_kanji', 'maxLength');
      accepts({ last_name_kanji: '山'.repeat(max) });
      refuses({ last_name_kanji: '山'.repeat(max + 1) }, 'last_name_kanji', [rules.message('last_name_kanji', 'maxLength')]);
    });

    // (an emptied input reaches the form data as undefined, not '': see ime.test.tsx)
    it('family name: missing is refused when required', () => missing('last_name_kanji'));

    it('given name: any space is refused', () => {
      accepts({ first_name_kanji: '花子' });
      refuses({ first_name_kanji: '花　子' }, 'first_name_kanji', [GIVEN_PATTERN]);
      refuses({ first_name_kanji: '花 子' }, 'first_name_kanji', [GIVEN_PATTERN]);
      refuses({ first_name_kanji: 'Hanako' }, 'first_name_kanji', [GIVEN_PATTERN]);
    });

    it('given name: max characters are accepted, max + 1 refused; missing is refused when required', () => {
      const max = rules.limit('first_name_kanji', 'maxLength');
      accepts({ first_name_kanji: '花'.repeat(max) });
      refuses({ first_name_kanji: '花'.repeat(max + 1) }, 'first_name_kanji', [rules.message('first_name_kanji', 'maxLength')]);
      missing('first_name_kanji');
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

    it('max characters are accepted, max + 1 refused; missing is refused when required', () => {
      const max = rules.limit('last_name_alphabet', 'maxLength');
      accepts({ last_name_alphabet: 'A'.repeat(max) });
      refuses({ last_name_alphabet: 'A'.repeat(max + 1) }, 'last_name_alphabet', [rules.message('last_name_alphabet', 'maxLength')]);
      missing('first_name_alphabet');
    });
  });

  describe('password (the checklist rules, each with its own message)', () => {
    const pw = (password: string) => ({ password, password_confirm: password });
    const MAX = rules.limit('password', 'maxLength');

    it('min - 1 characters are refused, min accepted', () => {
      refuses(pw(passwordOf(PW_MIN - 1)), 'password', [PW.min]);
      accepts(pw(passwordOf(PW_MIN)));
    });

    it('no lower-case letter', () => refuses(pw(long('ABCDEF1!')), 'password', [PW.lower]));
    it('no upper-case letter', () => refuses(pw(long('abcdef1!')), 'password', [PW.upper]));
    it('no digit', () => refuses(pw(long('Abcdefg!')), 'password', [PW.digit]));
    it('no symbol', () => refuses(pw(long('Abcdefg1')), 'password', [PW.symbol]));

    it.each(['!', '/', ':', '@', '[', '`', '{', '~'])('the symbol %s counts as a symbol', (symbol) => accepts(pw(long(`Abcdef1${symbol}`))));

    it('the same character 7 times in a row is accepted, 8 times refused', () => {
      accepts(pw(long(`A${'a'.repeat(7)}1!`)));
      refuses(pw(long(`A${'a'.repeat(8)}1!`)), 'password', [PW.repeat]);
      refuses(pw(long(`Ab1${'!'.repeat(8)}`)), 'password', [PW.repeat]);
    });

    it('full-width characters are refused', () => {
      refuses(pw(`${long('Abcdef1!')}ａ`), 'password', [PW.charset]);
      refuses(pw(`${long('Abcdef1!')}あ`), 'password', [PW.charset]);
      refuses(pw(`${long('Abcdef1!')}　`), 'password', [PW.charset]);
    });

    it('every missing rule gets its own message', () => {
      refuses(pw('abc'), 'password', [PW.min, PW.upper, PW.digit, PW.symbol]);
    });

    it('max + 1 characters are refused, max accepted', () => {
      expect([...passwordOf(MAX + 1)]).toHaveLength(MAX + 1);
      refuses(pw(passwordOf(MAX + 1)), 'password', [rules.message('password', 'maxLength')]);
      accepts(pw(passwordOf(MAX)));
    });

    it('missing is refused', () => {
      expect(profileErrors({ password: undefined, password_confirm: undefined })).toEqual({
        password: [rules.required('password')],
        password_confirm: [rules.required('password_confirm')],
      });
    });

    it('a confirmation that differs is refused with its own message', () => {
      const MISMATCH = rules.message('password_confirm', 'sameAs');
      const password = String(VALID_PROFILE.password);
      refuses({ password_confirm: `${password}?` }, 'password_confirm', [MISMATCH]);
      refuses({ password_confirm: password.toLowerCase() }, 'password_confirm', [MISMATCH]);
    });
  });

  describe('register-email: email_confirm', () => {
    const emailRules = rulesOf('register-email', dir);
    const emailErrors = (data: Record<string, unknown>) => errorsOf(forms.email, data);

    it('the same address twice is accepted', () => {
      expect(emailErrors({ email: 'taro@example.com', email_confirm: 'taro@example.com' })).toEqual({});
    });

    it('a different confirmation is refused with its own message', () => {
      expect(emailErrors({ email: 'taro@example.com', email_confirm: 'jiro@example.com' })).toEqual({
        email_confirm: [emailRules.message('email_confirm', 'sameAs')],
      });
    });

    it('a missing confirmation has its own message', () => {
      expect(emailErrors({ email: 'taro@example.com' })).toEqual({ email_confirm: [emailRules.required('email_confirm')] });
    });
  });

  describe('amc (exactly 10 half-width digits; optional unless the form requires it)', () => {
    const MESSAGE = rules.message('amc', 'pattern');
    it('10 digits are accepted; 9 and 11 refused', () => {
      refuses({ amc: '123456789' }, 'amc', [MESSAGE]);
      accepts({ amc: '1234567890' });
      refuses({ amc: '12345678901' }, 'amc', [MESSAGE]);
    });
    it('missing: accepted when optional (so is empty), its required message when required', () => {
      missing('amc');
      if (!rules.isRequired('amc')) accepts({ amc: '' });
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
    it('missing: its required message when required', () => missing('zip_current'));
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
    it('missing: its required message when required', () => missing('phone'));
  });

  describe('industry_other (required only when industry is "other", at most max characters)', () => {
    it('is not required for another industry', () => accepts({ industry: samples.options('industry').find((v) => v !== otherIndustry()) }));
    it('is required when industry is "other"', () => {
      refuses({ industry: otherIndustry() }, 'industry_other', [rules.required('industry_other')]);
      refuses({ industry: otherIndustry(), industry_other: '' }, 'industry_other', [rules.message('industry_other', 'minLength')]);
    });
    it('max characters are accepted, max + 1 refused', () => {
      const max = rules.limit('industry_other', 'maxLength');
      accepts({ industry: otherIndustry(), industry_other: jp(max) });
      refuses({ industry: otherIndustry(), industry_other: jp(max + 1) }, 'industry_other', [rules.message('industry_other', 'maxLength')]);
    });
  });

  describe('agreements', () => {
    it('condition_checked false or missing is refused', () => {
      refuses({ condition_checked: false }, 'condition_checked', [rules.message('condition_checked', 'const')]);
      refuses({ condition_checked: undefined }, 'condition_checked', [rules.required('condition_checked')]);
    });

    it('register-terms: agree false or missing is refused, true accepted', () => {
      const terms = rulesOf('register-terms', dir);
      expect(errorsOf(forms.terms, { agree: false })).toEqual({ agree: [terms.message('agree', 'const')] });
      expect(errorsOf(forms.terms, {})).toEqual({ agree: [terms.required('agree')] });
      expect(errorsOf(forms.terms, { agree: true })).toEqual({});
    });
  });

  describe('other required fields of register-profile', () => {
    it.each(['birthday', 'gender', 'job', 'industry', 'address_current', 'mail_opt'])('%s missing (refused when required)', (field) => missing(field));

    it('every field the baseline carries, left out alone, is refused exactly when the form requires it', () => {
      const own = (forms.profile.schema.properties ?? {}) as Record<string, unknown>;
      // (A field a condition brings in is the condition's: its own tests above.)
      for (const field of Object.keys(VALID_PROFILE).filter((name) => name in own && !('sameAs' in samples.fields[name]))) {
        const errors = profileErrors({ [field]: undefined });
        if (rules.isRequired(field)) expect(errors[field], field).toEqual([rules.required(field)]);
        else expect(errors[field], field).toBeUndefined();
      }
    });

    it('an impossible birthday is refused', () => {
      refuses({ birthday: '1990-02-30' }, 'birthday', [rules.message('birthday', 'format')]);
    });
  });
}
