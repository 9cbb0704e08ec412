// Issue 21, points 2 and 5, and issue 35, point 10, as a new member on a phone in the parent's
// frame: a family name with an ideographic variation selector is kept as typed; the member then
// registers as スミス・ヤマダ (typed half-width, its middle dot too) / José: a half-width katakana
// given name, a roman family name typed full-width with its hyphen, a roman given name with an
// accent that the form shows in its passport spelling (「登録される表記：JOSE」) before it is sent,
// and the birthday typed in three boxes in full-width digits (after meeting the message for
// 2月30日); the stored record holds the normalised names and YYYY-MM-DD; the info view and edit
// show them, edit the fixed birthday as text. axe in each state.
import { randomUUID } from 'node:crypto';
import { test, expect, waitForMail, codeIn, typeCode } from './support/fixtures';
import { expectAccessible } from './support/axe';
import { openFramed, PHONE } from './support/framed';
import { dateBoxes, fillOtherRequired } from './support/register';
import { codeSent, format, label, labels, messages, rulesOf, submitText } from './support/texts';

const IVS = '\u{E0100}';
const profile = labels('register-profile');
const birthdayRules = rulesOf('register-profile');

test('register as ｽﾐｽ･ﾔﾏﾀﾞ ﾀﾞｲｽｹ, ＳＭＩＴＨ－ＹＡＭＡＤＡ José with a three-box birthday in full-width digits; see them stored, on the info view and on edit', async ({ page, db }) => {
  test.setTimeout(120_000);
  const email = `names-${randomUUID().slice(0, 8)}@example.com`;
  const password = 'Names-Birth-2026!';
  const framed = await openFramed(page, '/register');
  const { app } = framed;
  expect(page.viewportSize()).toEqual(PHONE);

  const step1 = labels('register-email');
  const box = (name: string) => app.getByRole('textbox', { name, exact: true });
  await box(step1.email).fill(email);
  await box(step1.email_confirm).fill(email);
  await app.getByRole('button', { name: submitText('register-email') }).click();
  await expect(app.getByRole('status').filter({ hasText: codeSent(messages.register.codeSent, email) })).toBeVisible();
  await typeCode(app, codeIn(await waitForMail(email)));
  await app.getByRole('button', { name: submitText('register-code') }).click();
  await expect(app.getByText(messages.register.verified)).toBeVisible();

  await box(profile.password).fill(password);
  await box(profile.password_confirm).fill(password);
  await box(profile.last_name_kanji).fill(`辻${IVS} `);
  await box(profile.first_name_kanji).fill('ﾀﾞｲｽｹ');
  await box(profile.last_name_alphabet).fill('ＳＭＩＴＨ－ＹＡＭＡＤＡ');
  await box(profile.first_name_alphabet).fill('José ');

  // The birthday: a group named 生年月日 of three labelled numeric boxes, 44 px tall.
  const birthday = dateBoxes(app, profile.birthday);
  await expect(birthday.group).toBeVisible();
  for (const [part, token] of [[birthday.year, 'bday-year'], [birthday.month, 'bday-month'], [birthday.day, 'bday-day']] as const) {
    await expect(part).toHaveAttribute('inputmode', 'numeric');
    await expect(part).toHaveAttribute('autocomplete', token);
    expect((await part.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  }
  // Leaving the family name field shows it as it will be stored (trimmed, the selector kept).
  await expect(box(profile.last_name_kanji)).toHaveValue(`辻${IVS}`);
  await expect(box(profile.first_name_kanji)).toHaveValue('ダイスケ');
  // Roman fields never ask the browser for the (kanji) family or given name.
  for (const name of [profile.last_name_alphabet, profile.first_name_alphabet]) await expect(box(name)).toHaveAttribute('autocomplete', 'off');
  await expect(box(profile.last_name_kanji)).toHaveAttribute('autocomplete', 'family-name');

  // A katakana name with its middle dot, typed half-width, is taken (and shown full-width).
  await box(profile.last_name_kanji).fill('ｽﾐｽ･ﾔﾏﾀﾞ');
  await expect(box(profile.last_name_kanji)).toHaveValue('スミス・ヤマダ');
  // The roman names: full-width made half-width as typed; the accent is kept in the box, and the
  // passport spelling that will be stored is shown under it and read with it.
  await expect(box(profile.last_name_alphabet)).toHaveValue('SMITH-YAMADA');
  await expect(box(profile.first_name_alphabet)).toHaveValue('José');
  const storedAs = format(messages.form.storedAs, { value: 'JOSE' });
  await expect(app.getByText(storedAs)).toBeVisible();
  await expect(box(profile.first_name_alphabet)).toHaveAccessibleDescription(new RegExp(storedAs));
  await expect(box(profile.first_name_alphabet)).not.toHaveAttribute('aria-invalid', 'true');
  await app.getByText(storedAs).scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/names-stored-as.png' });

  // 2月30日 gets the message that says what to enter.
  await birthday.year.fill('１９９０');
  await birthday.month.fill('２');
  await birthday.day.fill('３０');
  await app.getByRole('radio', { name: '男性' }).focus();
  await expect(birthday.group.locator('..')).toContainText(birthdayRules.message('birthday', 'format'));
  await expect(birthday.day).toHaveAttribute('aria-invalid', 'true');
  await page.screenshot({ path: 'test-results/names-birthday-error.png' });
  await expectAccessible(page, '/register with the birthday 2月30日 refused');

  await birthday.month.fill('４');
  await birthday.day.fill('５');
  await expect(birthday.year).toHaveValue('1990');
  await expect(birthday.day).toHaveValue('5');
  await app.getByRole('radio', { name: '男性' }).check();
  await expect(birthday.group.locator('..')).not.toContainText(birthdayRules.message('birthday', 'format'));
  await expect(birthday.day).not.toHaveAttribute('aria-invalid', 'true');
  await app.getByRole('combobox', { name: profile.job }).selectOption({ label: '自営業・フリーランス' });
  await box(profile.zip_current).fill('100-0001');
  await expect(box(profile.address_current)).toHaveValue('東京都千代田区千代田');
  await box(profile.address_current).fill('東京都千代田区千代田1-1');
  await box(profile.phone).fill('090-1234-5678');
  await app.getByRole('checkbox', { name: 'テレワーク・ワーケーション' }).check();
  await box(profile.purpose_detail).fill('平日は東京で働き、週末は長野で畑を借りて野菜づくりをしたいと考えています。');
  await app.getByRole('checkbox', { name: profile.condition_checked }).check();
  await fillOtherRequired(app);
  await birthday.group.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/names-birthday-filled.png' });
  await expectAccessible(page, '/register with names and the birthday typed');
  await app.getByRole('checkbox', { name: label('register-terms', 'agree') }).check();
  await app.getByRole('button', { name: messages.register.submit }).click();
  await app.getByRole('button', { name: messages.common.ok }).click();

  // Stored as normalised, the birthday as the API takes it.
  await expect.poll(async () => (await db.selectFrom('users').select('id').where('email', '=', email).execute()).length).toBe(1);
  const row = await db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
  expect([row.last_name_kanji, row.first_name_kanji, row.last_name_alpha, row.first_name_alpha, row.birthday]).toEqual(['スミス・ヤマダ', 'ダイスケ', 'SMITH-YAMADA', 'JOSE', '1990-04-05']);

  // The member info and the edit form in the frame (registration left the member logged in).
  const info = await openFramed(page, '/info');
  await expect(info.app.getByText('スミス・ヤマダ ダイスケ')).toBeVisible();
  await expect(info.app.getByText('SMITH-YAMADA JOSE')).toBeVisible();
  await info.app.getByText('SMITH-YAMADA JOSE').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/names-info.png' });
  await expect(info.app.getByText('1990年4月5日')).toBeVisible();
  await expectAccessible(page, '/info with the new member');

  await info.frame.goto(info.frame.url().replace(/\/user\/.*$/, '/user/edit'));
  const edit = labels('edit-profile');
  await expect(info.app.getByRole('textbox', { name: edit.last_name_kanji, exact: true })).toHaveValue('スミス・ヤマダ');
  await expect(info.app.getByRole('textbox', { name: edit.first_name_kanji, exact: true })).toHaveValue('ダイスケ');
  await expect(info.app.getByRole('textbox', { name: edit.last_name_alpha, exact: true })).toHaveValue('SMITH-YAMADA');
  await expect(info.app.getByRole('textbox', { name: edit.first_name_alpha, exact: true })).toHaveValue('JOSE');
  // Stored as it is stored, nothing more to show.
  await expect(info.app.locator('.field__stored')).toHaveCount(0);
  const form = info.app.locator('form');
  await expect(form.getByText('1990年4月5日')).toBeVisible();
  await expect(info.app.getByRole('group', { name: edit.birthday })).toHaveCount(0);
  await expect(info.app.getByRole('textbox', { name: messages.form.dateYear })).toHaveCount(0);
  await expect(form.locator('input[type="date"]')).toHaveCount(0);
  await form.getByText('1990年4月5日').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/names-birthday-edit.png' });
  await expectAccessible(page, '/edit with the birthday as text');
});
