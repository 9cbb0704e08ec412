import type { FrameLocator, Page } from '@playwright/test';
import { expect, waitForMail, codeIn, typeCode } from './fixtures';
import options from '../../schemas/masters/options.json' with { type: 'json' };
import { fieldNodes } from '../../src/shared/validation/schema-nodes';
import type { JsonObject } from '../../src/shared/validation/schema-bundle';
import { schemaSet } from '../../tests/support/schema-messages';
import { codeSent, labels, messages, submitText } from './texts';

/** The registration fields fillProfile (and the tests that fill STEP2 themselves) fill by hand. */
export const FILLED_BY_HAND = ['password', 'password_confirm', 'last_name_kanji', 'first_name_kanji', 'last_name_alphabet', 'first_name_alphabet', 'birthday', 'gender', 'job', 'zip_current', 'address_current', 'phone', 'purpose', 'purpose_detail', 'condition_checked'] as const;

/** Every other field registration requires, filled from its schema as a visitor would: a text
 *  with the field's example, a choice with the first option of its list, a tick. A product
 *  owner who makes a field required in JSON (the mileage number, a new list) keeps these tests
 *  going; a field with a default is left at it. */
export async function fillOtherRequired(scope: Page | FrameLocator, handled: readonly string[] = FILLED_BY_HAND) {
  const form = 'register-profile';
  const { schema } = schemaSet().forms[form];
  const nodes = fieldNodes(schema);
  const label = labels(form);
  const lists = options as unknown as Record<string, Array<{ value: string; label: string }>>;
  for (const name of ((schema.required as string[] | undefined) ?? []).filter((n) => !handled.includes(n))) {
    const node = nodes[name];
    if (node.default !== undefined) continue;
    const master = (node['x-master'] ?? (node.items as JsonObject | undefined)?.['x-master']) as string | undefined;
    if (node.type === 'array' && master) await scope.getByRole('checkbox', { name: lists[master][0].label, exact: true }).check();
    else if (master) await scope.getByRole('combobox', { name: label[name] }).selectOption(lists[master][0].value);
    else if (node.type === 'boolean') await scope.getByRole('checkbox', { name: label[name] }).check();
    else await scope.getByRole('textbox', { name: label[name], exact: true }).fill(String(((node.examples as unknown[] | undefined) ?? []).find((e) => e !== '') ?? ''));
  }
}

export const field = (page: Page, name: string) => page.getByRole('textbox', { name, exact: true });

/** The three boxes of a date (the date-parts widget), inside the group its label names. */
export function dateBoxes(scope: Page | FrameLocator, name: string) {
  const group = scope.getByRole('group', { name, exact: true });
  const box = (text: string) => group.getByRole('textbox', { name: text, exact: true });
  return { group, year: box(messages.form.dateYear), month: box(messages.form.dateMonth), day: box(messages.form.dateDay) };
}

/** Types a date as a member does: year, month and day in their boxes (any digits: full-width too). */
export async function fillDate(scope: Page | FrameLocator, name: string, year: string, month: string, day: string) {
  const boxes = dateBoxes(scope, name);
  await boxes.year.fill(year);
  await boxes.month.fill(month);
  await boxes.day.fill(day);
}

/** STEP1 as a visitor does it: address twice, the code from the mail. */
export async function verifyEmail(page: Page, email: string) {
  const step1 = labels('register-email');
  await page.goto('/user/register');
  await field(page, step1.email).fill(email);
  await field(page, step1.email_confirm).fill(email);
  await page.getByRole('button', { name: submitText('register-email') }).click();
  await expect(page.getByRole('status').filter({ hasText: codeSent(messages.register.codeSent, email) })).toBeVisible();
  await typeCode(page, codeIn(await waitForMail(email)));
  await page.getByRole('button', { name: submitText('register-code') }).click();
  await expect(page.getByText(messages.register.verified)).toBeVisible();
}

/** STEP2 filled in as a visitor would (option labels are the visitor's choices). */
export async function fillProfile(page: Page, password: string) {
  const profile = labels('register-profile');
  await field(page, profile.password).fill(password);
  await field(page, profile.password_confirm).fill(password);
  await field(page, profile.last_name_kanji).fill('佐藤');
  await field(page, profile.first_name_kanji).fill('太郎');
  await field(page, profile.last_name_alphabet).fill('SATO');
  await field(page, profile.first_name_alphabet).fill('TARO');
  await fillDate(page, profile.birthday, '1985', '5', '5');
  await page.getByRole('radio', { name: '男性' }).check();
  await page.getByRole('combobox', { name: profile.job }).selectOption({ label: '自営業・フリーランス' });
  await field(page, profile.zip_current).fill('100-0001');
  await expect(field(page, profile.address_current)).toHaveValue('東京都千代田区千代田');
  await field(page, profile.address_current).fill('東京都千代田区千代田1-1');
  await field(page, profile.phone).fill('090-1234-5678');
  await page.getByRole('checkbox', { name: 'テレワーク・ワーケーション' }).check();
  await field(page, profile.purpose_detail).fill('平日は東京で働き、週末は長野で畑を借りて野菜づくりをしたいと考えています。');
  await page.getByRole('checkbox', { name: profile.condition_checked }).check();
  await fillOtherRequired(page);
}
