// Issue 21: a member who uses no mouse registers, logs in and edits, in the parent frame. Every
// step is a key: Tab / Shift+Tab to move, typing, Space for choices, Enter to send, arrows in
// selects and radio groups. Locators only check where focus is and what happened.
import { randomUUID } from 'node:crypto';
import type { FrameLocator, Locator, Page } from '@playwright/test';
import { test, expect, codeIn, waitForMail } from './support/fixtures';
import { openFramed } from './support/framed';
import { dateBoxes } from './support/register';
import { E2E } from './support/stack-env';
import termsOfUse from '../messages/terms.ja.json' with { type: 'json' };
import { label, labels, messages, pinBox, submitText, welcome } from './support/texts';
import { recordCheck } from './support/scripted-checks';

const isFocused = (target: Locator) => target.evaluate((el) => el === el.ownerDocument.activeElement && el.ownerDocument.hasFocus()).catch(() => false);

/** Presses Tab (or Shift+Tab) until `target` has focus; fails if it is not reached in `max` presses. */
async function tabTo(page: Page, target: Locator, { back = false, max = 80 } = {}) {
  await expect(target).toBeVisible();
  for (let i = 0; i < max; i++) {
    if (await isFocused(target)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`not reached by keyboard in ${max} presses: ${await target.evaluate((el) => el.outerHTML.slice(0, 120))}`);
}

async function typeInto(page: Page, target: Locator, text: string) {
  await tabTo(page, target);
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(text);
}

/** A closed select moves to the next option with ArrowDown (Chromium), until the wanted label. */
async function chooseByArrows(page: Page, select: Locator, wanted: string) {
  await tabTo(page, select);
  for (let i = 0; i < 40; i++) {
    if ((await select.evaluate((el) => (el as HTMLSelectElement).selectedOptions[0]?.label)) === wanted) return;
    await page.keyboard.press('ArrowDown');
  }
  throw new Error(`option not reached: ${wanted}`);
}

async function tickBySpace(page: Page, box: Locator) {
  await tabTo(page, box);
  await page.keyboard.press('Space');
  await expect(box).toBeChecked();
}

const field = (app: FrameLocator, name: string) => app.getByRole('textbox', { name, exact: true });

test('with the keyboard alone: register, log in, edit the profile', async ({ page, db }) => {
  test.slow(); // a whole registration typed key by key, three mails
  const email = `keys-${randomUUID().slice(0, 8)}@example.com`;
  const password = 'Keyboard-2026!';
  const framed = await openFramed(page, '/register');
  const { app } = framed;
  await expect(app.getByRole('heading', { level: 1 })).toBeVisible();

  // STEP1: the address twice, Enter sends it; the code boxes take focus, Enter sends the code.
  const step1 = labels('register-email');
  await typeInto(page, field(app, step1.email), email);
  await typeInto(page, field(app, step1.email_confirm), email);
  await page.keyboard.press('Enter');
  await expect(app.getByLabel(pinBox(1))).toBeFocused();
  await page.keyboard.type(codeIn(await waitForMail(email)));
  await page.keyboard.press('Enter');
  await expect(app.getByText(messages.register.verified)).toBeVisible();

  // STEP2, field by field.
  const profile = labels('register-profile');
  await typeInto(page, field(app, profile.password), password);
  await typeInto(page, field(app, profile.password_confirm), password);
  await typeInto(page, field(app, profile.last_name_kanji), '鍵盤');
  await typeInto(page, field(app, profile.first_name_kanji), '花子');
  await typeInto(page, field(app, profile.last_name_alphabet), 'KENBAN');
  await typeInto(page, field(app, profile.first_name_alphabet), 'HANAKO');
  const birthday = dateBoxes(app, profile.birthday);
  await typeInto(page, birthday.year, '1966');
  await page.keyboard.press('Tab');
  await expect(birthday.month).toBeFocused();
  await page.keyboard.type('3');
  await page.keyboard.press('Tab');
  await expect(birthday.day).toBeFocused();
  await page.keyboard.type('14');
  // A radio group is one Tab stop; Space chooses the focused radio, arrows move the choice.
  const female = app.getByRole('radio', { name: '女性' });
  await tabTo(page, app.getByRole('radio').first());
  for (let i = 0; i < 5 && !(await isFocused(female)); i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Space');
  await expect(female).toBeChecked();
  await chooseByArrows(page, app.getByRole('combobox', { name: profile.job }), '会社員（正社員）');
  await typeInto(page, field(app, profile.zip_current), '1000001');
  await expect(field(app, profile.address_current)).toHaveValue('東京都千代田区千代田');
  await tabTo(page, field(app, profile.address_current));
  await page.keyboard.press('End');
  await page.keyboard.type('1-1');
  await typeInto(page, field(app, profile.phone), '09087654321');
  await tickBySpace(page, app.getByRole('checkbox', { name: 'テレワーク・ワーケーション' }));
  await typeInto(page, field(app, profile.purpose_detail), '週末は地方の畑で野菜づくりをしながら暮らしたいと考えています。');
  await tickBySpace(page, app.getByRole('checkbox', { name: profile.condition_checked }));
  // STEP3: the terms box scrolls with keys; then the agreement and the final button.
  const terms = app.getByRole('document', { name: termsOfUse.title });
  await tabTo(page, terms);
  await page.keyboard.press('End');
  await tickBySpace(page, app.getByRole('checkbox', { name: label('register-terms', 'agree') }));
  await tabTo(page, app.getByRole('button', { name: messages.register.submit }));
  await page.keyboard.press('Enter');
  const dialog = app.getByRole('alertdialog');
  await expect(dialog).toContainText(messages.register.completed);
  await expect(dialog.getByRole('button', { name: messages.common.ok })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(`${E2E.parentUrl}/`);
  await expect.poll(() => db.selectFrom('users').select('gender').where('email', '=', email).executeTakeFirst()).toEqual({ gender: 'female' });
  recordCheck('keyboard', 'registration, keyboard alone (in the frame)');

  // Log in: Enter on the password field sends the first step, the code boxes have focus.
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
  const login = await openFramed(page, '/login');
  await typeInto(page, field(login.app, labels('login').email), email);
  await typeInto(page, field(login.app, labels('login').password), password);
  await page.keyboard.press('Enter');
  await expect(login.app.getByLabel(pinBox(1))).toBeFocused();
  recordCheck('focus-moves', 'login: the code boxes take focus after the password step');
  await page.keyboard.type(codeIn(await waitForMail(email, 3)));
  await page.keyboard.press('Enter');
  await expect(login.app.getByText(welcome('鍵盤 花子'))).toBeVisible();

  // My page → 会員情報 → 変更する, all by Enter on links; then a new phone number, saved.
  await tabTo(page, login.app.getByRole('link', { name: messages.mypage.info }));
  await page.keyboard.press('Enter');
  await tabTo(page, login.app.getByRole('link', { name: messages.info.edit }).or(login.app.getByRole('button', { name: messages.info.edit })));
  await page.keyboard.press('Enter');
  const edit = labels('edit-profile');
  await typeInto(page, field(login.app, edit.phone), '0312345678');
  await tabTo(page, login.app.getByRole('button', { name: submitText('edit-profile') }));
  await page.keyboard.press('Enter');
  const done = login.app.getByRole('alertdialog');
  await expect(done).toContainText(messages.edit.done);
  await page.keyboard.press('Enter');
  await expect(done).toBeHidden();
  await expect.poll(() => db.selectFrom('users').select('phone').where('email', '=', email).executeTakeFirst()).toEqual({ phone: '0312345678' });
  recordCheck('keyboard', 'login and profile edit, keyboard alone (in the frame)');
});
