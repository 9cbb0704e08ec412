// Defect 8 of issue 10, at phone size in the parent frame: axe finds nothing on every screen and
// state reached here; aria-invalid only where an error is shown; every error linked to its
// control (selects and groups too); focus placed deliberately after steps and dialogs.
import { test, expect, codeIn, waitForMail, wrongCode } from './support/fixtures';
import { E2E } from './support/stack-env';
import { expectAccessible } from './support/axe';
import { expectInParentView, loginInFrame, openFramed, PHONE, scrollParentToBottom } from './support/framed';
import { labels, messages, pinBox, submitText, welcome } from './support/texts';

for (const path of ['/login', '/register', '/password_reminder', '/contact']) {
  test(`${path} has no axe violations, and no field is invalid before the member has touched it`, async ({ page }) => {
    const framed = await openFramed(page, path);
    await expect(framed.app.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(framed.app.locator('form').first()).toBeVisible();
    await expectAccessible(page, `${path} untouched`);
    await expect(framed.app.locator('[aria-invalid="true"]')).toHaveCount(0);
  });
}

test('an error is linked to its control, a select included; aria-invalid comes with it', async ({ page }) => {
  const framed = await openFramed(page, '/contact');
  const { app } = framed;
  await app.getByRole('checkbox').first().check(); // the privacy notice: the form opens
  await app.getByRole('button', { name: submitText('contact') }).click();
  const select = app.getByRole('combobox').first();
  await expect(select).toHaveAttribute('aria-invalid', 'true');
  const describedBy = (await select.getAttribute('aria-describedby'))!.split(' ');
  const errorId = describedBy.find((id) => id.endsWith('__error'))!;
  await expect(app.locator(`[id="${errorId}"]`)).toBeVisible();
  for (const invalid of await app.locator('[aria-invalid="true"]').all()) {
    const ids = ((await invalid.getAttribute('aria-describedby')) ?? '').split(' ').filter((id) => id.endsWith('__error'));
    expect(ids.length, await invalid.evaluate((el) => el.outerHTML.slice(0, 120))).toBe(1);
    await expect(app.locator(`[id="${ids[0]}"]`)).toBeVisible();
  }
  await expectAccessible(page, '/contact with every error shown');
});

test('login: focus goes to the code boxes when they open; a dialog gives focus back; member screens pass axe', async ({ page, member }) => {
  test.slow(); // eight axe runs over the parent page and its frame
  const framed = await openFramed(page, '/login');
  const { app } = framed;
  const login = labels('login');
  await app.getByRole('textbox', { name: login.email }).fill(member.email);
  await app.getByRole('textbox', { name: login.password }).fill(member.password);
  await app.getByRole('button', { name: submitText('login'), exact: true }).click();
  await expect(app.getByLabel(pinBox(1))).toBeFocused();
  await expectAccessible(page, '/login code step');
  const wrong = wrongCode(codeIn(await waitForMail(member.email)));
  await page.keyboard.type(wrong); // straight into the focused first box
  await app.getByRole('button', { name: submitText('login-code') }).click();
  await expect(app.locator('.field__errors').getByText(messages.verification.invalid)).toBeVisible();
  await expectAccessible(page, '/login wrong code');

  await app.getByRole('button', { name: messages.login.redo }).click();
  await expect(app.getByRole('textbox', { name: login.email })).toHaveValue('');
  await expect(app.getByRole('textbox', { name: login.email })).toBeFocused();
  await loginInFrame(page, framed, member, 2);
  await expect(app.getByText(welcome())).toBeVisible();
  await expect(app.getByRole('heading', { level: 1 })).toBeFocused();
  // Put there by the app on the new page, not reached by keyboard: no ring around the title
  // (issue 35, point 9a; Chromium drew it as :focus-visible before any key in the frame).
  expect(await app.getByRole('heading', { level: 1 }).evaluate((h) => getComputedStyle(h).outlineStyle)).toBe('none');
  // Keyboard focus still shows: the next Tab lands on a control with its ring.
  await page.keyboard.press('Tab');
  expect(await app.locator(':focus').evaluate((el) => getComputedStyle(el).outlineStyle)).toBe('solid');
  await expectAccessible(page, '/mypage');
  for (const [link, state] of [[messages.mypage.info, '/info'], [messages.mypage.contactHistory, '/contact_history'], [messages.mypage.withdraw, '/withdraw']] as const) {
    await framed.frame.goto(`${E2E.appUrl}/user/mypage`);
    // Let my page's blocks load and the frame settle first: a block that fills in moves the menu.
    // (The frame's own network state: the page's counts a module request the frame's navigation
    // cancelled as still running.)
    await expect(app.getByText(welcome())).toBeVisible();
    await framed.frame.waitForLoadState('networkidle');
    await app.getByRole('link', { name: link }).click();
    await expect(app.getByRole('heading', { level: 1 })).toBeFocused();
    await framed.frame.waitForLoadState('networkidle');
    await expectAccessible(page, state);
  }
  await framed.frame.goto(`${E2E.appUrl}/user/edit`);
  await expect(app.getByRole('textbox', { name: labels('edit-profile').last_name_kanji, exact: true })).toBeVisible();
  await expectAccessible(page, '/edit');
  // From the foot of the long form, the dialog opens where the member is: the parent does not
  // jump to the frame's top (a part of the frame not painted yet showed white; issue 35, 9d).
  await scrollParentToBottom(page, framed);
  const before = await page.evaluate(() => window.scrollY);
  await app.getByRole('button', { name: submitText('edit-profile') }).click();
  await expect(app.getByRole('alertdialog')).toBeVisible();
  await expectInParentView(page, app.getByRole('alertdialog'));
  expect(Math.abs((await page.evaluate(() => window.scrollY)) - before)).toBeLessThan(PHONE.height / 2);
  await expectAccessible(page, '/edit dialog');
  await app.getByRole('button', { name: messages.common.ok }).click();
  await expect(app.getByRole('heading', { level: 1 })).toBeFocused();
  await framed.frame.goto(`${E2E.appUrl}/user/email/change`);
  await expect(app.getByRole('textbox', { name: labels('email-change').current_email })).toHaveValue(member.email);
  await expectAccessible(page, '/email/change');
});
