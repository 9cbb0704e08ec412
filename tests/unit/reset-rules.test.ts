// The password reminder's identity rules at their edges: the birthday is registration's (three
// boxes, YYYY-MM-DD, the same messages: an impossible date is no such date, not a format error),
// the phone as digits, a number written with +81 in its national form.
import { beforeAll, describe, expect, it } from 'vitest';
import { applyNormalisers, toNationalPhone } from '../../src/shared/normalise';
import type { FormModule } from '../../src/engine/SchemaForm';
import { buildFormModule } from '../support/forms';
import { browserFieldErrors } from '../support/field-messages';
import { rulesOf } from '../support/schema-messages';

const identity = rulesOf('reset-identity');
const registration = rulesOf('register-profile');
const PHONE_DIGITS = identity.message('phone', 'pattern');
/** The longest number the reset takes: registration's phone limit (docs/decisions/018). */
const PHONE_MAX = identity.limit('phone', 'maxLength');

let form: FormModule;
beforeAll(async () => {
  form = await buildFormModule('reset-identity');
});

/** What the form holds after the member leaves each field (the birthday as its three boxes send
 *  it, the phone through its normalisers). */
const asLeft = (birthday: string, phone: string) => ({
  email: 'member@example.com',
  birthday,
  phone: applyNormalisers(applyNormalisers(applyNormalisers(phone, ['toHalfWidth']), ['toNationalPhone']), ['digitsOnly']),
});

describe('birthday', () => {
  it('is the registration birthday: the same widget and the same messages', () => {
    for (const keyword of ['format', 'minDate', 'maxDate']) expect(identity.message('birthday', keyword)).toBe(registration.message('birthday', keyword));
    expect(identity.required('birthday')).toBe(registration.required('birthday'));
  });

  it.each([
    ['2000-02-29', []],
    ['1990-12-31', []],
    ['1990-04-31', ['format']],
    ['1990-02-30', ['format']],
    ['2023-02-29', ['format']],
    ['1990-13-01', ['format']],
    ['1899-12-31', ['minDate']],
    ['2999-01-01', ['maxDate']],
  ])('%s: %j', (birthday, keywords) => {
    const fields = browserFieldErrors(form, asLeft(birthday, '0312345678'));
    expect(fields.birthday ?? []).toEqual(keywords.map((keyword) => identity.message('birthday', keyword)));
  });

  it('calls 4月31日 no such date, never a format error', () => {
    expect(identity.message('birthday', 'format')).toMatch(/存在しない日付/);
  });

  it('an empty birthday is required, with the three boxes\' message', () => {
    const { birthday: _, ...rest } = asLeft('', '0312345678');
    expect(browserFieldErrors(form, rest).birthday).toEqual([registration.required('birthday')]);
  });
});

describe('toNationalPhone', () => {
  it.each([
    ['+81 90-1234-5678', '090-1234-5678'],
    ['+819012345678', '09012345678'],
    ['+81 (0)90 1234 5678', '090 1234 5678'],
    ['+81-3-1234-5678', '03-1234-5678'],
    ['+81 090-1234-5678', '090-1234-5678'],
    ['\uFF0B81 90-1234-5678', '090-1234-5678'],
  ])('%s is %s', (typed, national) => {
    expect(toNationalPhone(typed)).toBe(national);
  });

  it.each(['090-1234-5678', '+1 415 555 0100', '81 90 1234 5678', ''])('%s is left as it is', (typed) => {
    expect(toNationalPhone(typed)).toBe(typed);
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
    ['+81 90-1234-5678', '09012345678', []],
    ['＋８１　９０－１２３４－５６７８', '09012345678', []],
    ['０９０１２３４５６７８', '09012345678', []],
    ['+81 (0)3-1234-5678', '0312345678', []],
  ])('%s is kept as %s', (typed, kept, messages) => {
    const data = asLeft('1990-01-02', typed);
    expect(data.phone).toBe(kept);
    expect(browserFieldErrors(form, data).phone ?? []).toEqual(messages);
  });
});
