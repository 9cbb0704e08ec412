// The password reminder's identity rules at their edges: the birthday as members type it
// (normalised on leaving the field, then a real calendar date), the phone as digits.
import { beforeAll, describe, expect, it } from 'vitest';
import { applyNormalisers, japaneseDateToIso } from '../../src/shared/normalise';
import type { FormModule } from '../../src/engine/SchemaForm';
import { buildFormModule } from '../support/forms';
import { browserFieldErrors } from '../support/field-messages';
import { rulesOf } from '../support/schema-messages';

const identity = rulesOf('reset-identity');
const INVALID_DATE = identity.message('birthday', 'format');
const PHONE_DIGITS = identity.message('phone', 'pattern');
/** The longest number the reset takes: registration's phone limit (docs/decisions/018). */
const PHONE_MAX = identity.limit('phone', 'maxLength');

let form: FormModule;
beforeAll(async () => {
  form = await buildFormModule('reset-identity');
});

/** What the form holds after the member leaves each field (the UI schema's normalisers). */
const asLeft = (birthday: string, phone: string) => ({
  email: 'member@example.com',
  birthday: applyNormalisers(applyNormalisers(birthday, ['toHalfWidth']), ['japaneseDateToIso']),
  phone: applyNormalisers(applyNormalisers(phone, ['toHalfWidth']), ['digitsOnly']),
});

describe('birthday', () => {
  it.each([
    ['1990年1月2日', '1990-01-02'],
    ['1990年01月02日', '1990-01-02'],
    ['1990/1/2', '1990-01-02'],
    ['1990-1-2', '1990-01-02'],
    ['19900102', '1990-01-02'],
    ['１９９０年１月２日', '1990-01-02'],
    ['１９９０／１／２', '1990-01-02'],
    [' 1990/1/2 ', '1990-01-02'],
  ])('%s is read as %s', (typed, iso) => {
    expect(japaneseDateToIso(applyNormalisers(typed, ['toHalfWidth']))).toBe(iso);
  });

  it.each(['1990.1.2', '90/1/2', '1990年1月', 'January 2, 1990', '1990/1/2/3', '199012'])('%s stays as typed, for the schema to refuse', (typed) => {
    expect(japaneseDateToIso(typed)).toBe(typed);
  });

  it.each([
    ['2000年2月29日', true],
    ['2024/2/29', true],
    ['1900/2/29', false],
    ['2023/2/29', false],
    ['1990年2月31日', false],
    ['1990/2/30', false],
    ['1990/4/31', false],
    ['1990/13/1', false],
    ['1990/0/10', false],
    ['1990/12/31', true],
    ['1990.1.2', false],
  ])('%s is a real date: %s', (typed, real) => {
    const fields = browserFieldErrors(form, asLeft(typed, '0312345678'));
    expect(fields.birthday ?? []).toEqual(real ? [] : [INVALID_DATE]);
  });

  it('an empty birthday is required', () => {
    const { birthday: _, ...rest } = asLeft('', '0312345678');
    expect(browserFieldErrors(form, rest).birthday).toEqual([identity.required('birthday')]);
  });
});

describe('phone', () => {
  it('takes every length registration stores: its maximum is registration\'s, its message says so', () => {
    expect(PHONE_MAX).toBe(rulesOf('register-profile').limit('phone', 'maxLength'));
    expect(PHONE_DIGITS).toBe(`8〜${PHONE_MAX}桁の数字で入力してください`);
  });

  it.each([
    ['03-1234-5678', '0312345678', []],
    ['０３－１２３４－５６７８', '0312345678', []],
    ['090 1234 5678', '09012345678', []],
    ['12345678', '12345678', []],
    ['12345678901', '12345678901', []],
    ['0120-1234-5678', '012012345678', []],
    [`0${'9'.repeat(PHONE_MAX - 1)}`, `0${'9'.repeat(PHONE_MAX - 1)}`, []],
    ['1234567', '1234567', [PHONE_DIGITS]],
    [`0${'9'.repeat(PHONE_MAX)}`, `0${'9'.repeat(PHONE_MAX)}`, [PHONE_DIGITS]],
    ['12-34-56', '123456', [PHONE_DIGITS]],
  ])('%s is kept as %s', (typed, kept, messages) => {
    const data = asLeft('1990/1/2', typed);
    expect(data.phone).toBe(kept);
    expect(browserFieldErrors(form, data).phone ?? []).toEqual(messages);
  });
});
