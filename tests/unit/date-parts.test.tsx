// @vitest-environment jsdom
// The birthday in three boxes (issue 21, point 2): the date-parts widget the registration, old
// registration and edit forms name in their UI schemas, and the birthday's rules (fields.json)
// through the precompiled validators the browser runs and the server shares.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as registerForm from 'virtual:form/register-profile';
import * as oldForm from 'virtual:form/old-register';
import * as editForm from 'virtual:form/edit-profile';
import messages from '../../messages/ja.json';
import { FormHarness, catchUp } from '../support/form-harness';
import { rulesIn } from '../support/schema-rules';
import { validatorFor, type FormModule } from '../../src/engine/SchemaForm';
import { fieldNodes } from '../../src/shared/validation/schema-nodes';
import type { JsonObject } from '../../src/shared/validation/schema-bundle';
import { joinDate, splitDate } from '../../src/engine/widgets/DatePartsWidget';

afterEach(cleanup);

const rules = rulesIn(registerForm.schema);
const TITLE = String(fieldNodes(registerForm.schema as JsonObject).birthday.title);
const japanDay = (offsetDays: number) => new Date(Date.now() + 9 * 3600e3 + offsetDays * 86400e3).toISOString().slice(0, 10);

function setup(form: FormModule, initial?: Record<string, unknown>) {
  const onData = vi.fn();
  const user = userEvent.setup();
  render(<FormHarness form={form} initial={initial} onData={onData} />);
  const birthday = () => (onData.mock.lastCall?.[0] as { birthday?: string } | undefined)?.birthday;
  return { user, birthday };
}

const boxesOf = () => {
  const group = screen.getByRole('group', { name: TITLE });
  const box = (name: string) => within(group).getByRole('textbox', { name }) as HTMLInputElement;
  return { group, year: box(messages.form.dateYear), month: box(messages.form.dateMonth), day: box(messages.form.dateDay) };
};

describe('splitDate and joinDate', () => {
  it('show a stored date without leading zeros and send it padded', () => {
    expect(splitDate('1990-04-05')).toEqual({ year: '1990', month: '4', day: '5' });
    expect(joinDate({ year: '1990', month: '4', day: '5' })).toBe('1990-04-05');
    expect(joinDate({ year: '１９９０', month: '０４', day: '１２' })).toBe('1990-04-12');
    expect(joinDate({ year: '1990年', month: '4月', day: '5日' })).toBe('1990-04-05');
  });

  it('send nothing while a box is empty', () => {
    expect(joinDate({ year: '1990', month: '4', day: '' })).toBeUndefined();
    expect(joinDate({ year: '', month: '', day: '' })).toBeUndefined();
  });
});

describe.each([
  ['register-profile', registerForm],
  ['old-register', oldForm],
])('the birthday on %s', (_name, form) => {
  it('is a named group of three labelled numeric boxes with the bday-* autocomplete tokens', () => {
    setup(form as FormModule);
    const { group, year, month, day } = boxesOf();
    expect(group.getAttribute('aria-labelledby')).toBe(`${year.id}__label`);
    expect(document.getElementById(`${year.id}__label`)?.textContent).toContain(TITLE);
    expect([year, month, day].map((b) => b.getAttribute('inputmode'))).toEqual(['numeric', 'numeric', 'numeric']);
    expect([year, month, day].map((b) => b.getAttribute('autocomplete'))).toEqual(['bday-year', 'bday-month', 'bday-day']);
    expect([year, month, day].map((b) => b.type)).toEqual(['text', 'text', 'text']);
    expect(document.querySelector('input[type="date"]')).toBeNull();
  });

  it('takes full-width digits and sends YYYY-MM-DD', async () => {
    const { user, birthday } = setup(form as FormModule);
    const { year, month, day } = boxesOf();
    await user.type(year, '１９９０');
    await user.type(month, '４');
    expect(birthday()).toBeUndefined();
    await user.type(day, '５');
    catchUp();
    expect([year.value, month.value, day.value]).toEqual(['1990', '4', '5']);
    expect(birthday()).toBe('1990-04-05');
    await user.clear(day);
    expect(birthday()).toBeUndefined();
  });

  it('shows a date it opens with (a restored draft) in the boxes', () => {
    setup(form as FormModule, { birthday: '1985-11-03' });
    const { year, month, day } = boxesOf();
    expect([year.value, month.value, day.value]).toEqual(['1985', '11', '3']);
  });

  it('says what to enter when the boxes are left half filled and the member moves on', async () => {
    const { user } = setup(form as FormModule);
    const { year, month } = boxesOf();
    await user.type(year, '1990');
    await user.type(month, '4');
    await user.tab();
    await user.tab();
    expect(await screen.findByText(rules.required('birthday'))).toBeTruthy();
    // The group, which a screen reader announces on entering it, carries the error too (issue 35).
    const group = year.closest('[role="group"]')!;
    expect(group.getAttribute('aria-invalid')).toBe('true');
    expect(group.getAttribute('aria-describedby')).toContain('root_birthday__error');
  });
});

describe('the birthday rules (fields.json birthday), as registration and the server judge them', () => {
  const verdict = (birthday: string) => {
    const { errors } = validatorFor(registerForm as FormModule).validateFormData({ birthday }, registerForm.schema);
    return errors.filter((e) => e.property === '.birthday').map((e) => e.message);
  };

  it('accepts real dates from 1900 to today', () => {
    for (const date of ['1900-01-01', '1990-04-05', '2000-02-29', japanDay(0)]) expect({ date, errors: verdict(date) }).toEqual({ date, errors: [] });
  });

  it('refuses 2月30日 and a 13th month with the format message', () => {
    for (const date of ['1990-02-30', '1991-02-29', '1990-13-01', '1990-00-10']) expect({ date, errors: verdict(date) }).toEqual({ date, errors: [rules.message('birthday', 'format')] });
  });

  it('refuses a future date with its own message', () => {
    for (const date of [japanDay(1), '2999-01-01']) expect({ date, errors: verdict(date) }).toEqual({ date, errors: [rules.message('birthday', 'maxDate')] });
  });

  it('refuses an implausible year (before 1900, or a two-digit year) with its own message', () => {
    for (const date of ['1899-12-31', '0090-04-05']) expect({ date, errors: verdict(date) }).toEqual({ date, errors: [rules.message('birthday', 'minDate')] });
  });

  it('gives every message in polite Japanese that says what to enter', () => {
    for (const keyword of ['format', 'minDate', 'maxDate']) expect(rules.message('birthday', keyword)).toMatch(/ください/);
    expect(rules.required('birthday')).toMatch(/年・月・日/);
  });
});

describe('the birthday on edit (read-only)', () => {
  it('is shown as text, as the member info shows it, not as an input', () => {
    setup(editForm as FormModule, { birthday: '1990-04-05' });
    expect(screen.getByText('1990年4月5日')).toBeTruthy();
    expect(screen.queryByRole('group', { name: TITLE })).toBeNull();
    expect(screen.queryByRole('textbox', { name: messages.form.dateYear })).toBeNull();
    expect(document.querySelector('input[type="date"]')).toBeNull();
  });
});
