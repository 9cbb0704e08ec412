// Defects 2, 5 and 7 of issue 10, as a member on a phone meets them in the parent's frame: the
// frame follows the page's height both ways, each new screen starts at its top, dialogs and the
// first error come into view, and withdrawal has cleared the session when its dialog shows.
import { test, expect } from './support/fixtures';
import { E2E } from './support/stack-env';
import { expectInParentView, frameHeight, loginInFrame, myPageLoaded, openFramed, scrollParentToBottom } from './support/framed';
import { labels, messages, screenTitle, submitText, welcome } from './support/texts';

test('the frame shrinks after a long page, and back shows the login page at the top of the view', async ({ page }) => {
  const framed = await openFramed(page);
  const { app } = framed;
  await expect(app.getByRole('heading', { name: screenTitle('login') })).toBeVisible();
  await app.getByRole('link', { name: messages.login.register }).click();
  await expect(app.getByRole('heading', { name: screenTitle('register'), exact: true })).toBeVisible();
  await expect.poll(() => frameHeight(framed)).toBeGreaterThan(2500);
  await scrollParentToBottom(page, framed);

  // The browser's back button: the joint history steps back inside the frame.
  await page.evaluate(() => history.back());
  const heading = app.getByRole('heading', { name: screenTitle('login') });
  await expect(heading).toBeVisible();
  const contentHeight = await framed.frame.evaluate(() => document.getElementById('root')!.getBoundingClientRect().height);
  await expect.poll(() => frameHeight(framed)).toBe(Math.max(800, Math.ceil(contentHeight)));
  await expectInParentView(page, heading);
});

test('each screen opens at its top; the first error and dialogs come where the member is looking', async ({ page, member }) => {
  const framed = await openFramed(page);
  const { app } = framed;
  await loginInFrame(page, framed, member);
  await expect(app.getByText(welcome())).toBeVisible();
  await scrollParentToBottom(page, framed);
  await app.getByRole('link', { name: messages.mypage.info }).click();
  await expectInParentView(page, app.getByRole('heading', { name: screenTitle('info'), level: 1 }));

  await scrollParentToBottom(page, framed);
  await app.getByRole('link', { name: messages.info.edit }).click();
  const family = app.getByRole('textbox', { name: labels('edit-profile').last_name_kanji, exact: true });
  await expectInParentView(page, family);
  await family.fill('');
  await scrollParentToBottom(page, framed);
  await app.getByRole('button', { name: submitText('edit-profile') }).click();

  // The error summary at the top takes focus and comes into view; its link takes the member to
  // the field (docs/decisions/025).
  const summary = app.locator('.error-summary');
  await expect(summary).toBeFocused();
  await expectInParentView(page, summary);
  await expect(family).toHaveAttribute('aria-invalid', 'true');
  await summary.getByRole('link').first().click();
  await expect(family).toBeFocused();
  await expectInParentView(page, family);

  await family.fill('鈴木');
  await scrollParentToBottom(page, framed);
  await app.getByRole('button', { name: submitText('edit-profile') }).click();
  const dialog = app.getByRole('alertdialog');
  await expect(dialog).toContainText(messages.edit.done);
  await expectInParentView(page, dialog);
  await expect(app.getByRole('button', { name: messages.common.ok })).toBeFocused();
  await app.getByRole('button', { name: messages.common.ok }).click();
  await expect.poll(() => new URL(framed.frame.url()).pathname).toBe('/user/mypage');
  await expectInParentView(page, app.getByRole('heading', { name: screenTitle('mypage'), level: 1 }));
});

test('withdrawal clears token, cookies and session storage before its dialog, which shows in view', async ({ page, member }) => {
  const framed = await openFramed(page);
  const { app } = framed;
  await loginInFrame(page, framed, member);
  await myPageLoaded(framed);
  await framed.frame.evaluate(() => sessionStorage.setItem('left-behind', '1'));
  await app.getByRole('link', { name: messages.mypage.withdraw }).click();
  await app.getByRole('textbox', { name: labels('withdraw').password }).fill('Wrong-Pass9!');
  await app.getByRole('button', { name: submitText('withdraw') }).click();
  // A wrong password is the field's error, once: no dialog repeating it.
  await expect(app.locator('.field__errors').getByText(messages.api.WRONG_PASSWORD)).toHaveCount(1);
  await expect(app.getByRole('alertdialog')).toHaveCount(0);
  // The server's field error comes with the form's summary, which takes focus (ADR 025).
  await expect(app.locator('.error-summary')).toBeFocused();

  await app.getByRole('textbox', { name: labels('withdraw').password }).fill(member.password);
  await scrollParentToBottom(page, framed);
  await app.getByRole('button', { name: submitText('withdraw') }).click();
  const dialog = app.getByRole('alertdialog');
  await expect(dialog).toContainText(messages.withdraw.doneTitle);
  expect(await framed.frame.evaluate(() => [localStorage.getItem('token'), sessionStorage.length])).toEqual([null, 0]);
  const cookies = await page.context().cookies(E2E.appUrl);
  expect(cookies.filter((c) => c.name.startsWith('ak_'))).toEqual([]);
  await expectInParentView(page, dialog);
  await app.getByRole('button', { name: messages.common.ok }).click();
  await expect(page).toHaveURL(`${E2E.parentUrl}/`);
});
