// Point 9 of issue 21, at phone size in the parent frame: a dialog holds focus (the ARIA modal
// dialog pattern, WCAG 2.4.3). Tab and Shift+Tab stay inside it, the page behind is inert,
// Escape closes an OK-only alert, focus goes back to where it was, and axe finds nothing.
import { test, expect } from './support/fixtures';
import { expectAccessible } from './support/axe';
import { openFramed } from './support/framed';
import { labels, messages } from './support/texts';

const login = labels('login');

test('the login-failed alert keeps focus inside, the form behind is inert, Escape gives focus back', async ({ page, member }) => {
  const framed = await openFramed(page, '/login');
  const { app, frame } = framed;
  await app.getByRole('textbox', { name: login.email }).fill(member.email);
  const password = app.getByRole('textbox', { name: login.password });
  await password.fill('Wrong-Pass9!');
  await password.press('Enter'); // sent from the keyboard: focus is on the password box

  const dialog = app.getByRole('alertdialog');
  await expect(dialog).toContainText(messages.api.LOGIN_FAILED);
  const ok = dialog.getByRole('button', { name: messages.common.ok });
  await expect(ok).toBeFocused();

  const focusIsInDialog = async () => {
    const parentFocus = await page.evaluate(() => document.activeElement?.id);
    const inDialog = await frame.evaluate(() => !!document.activeElement?.closest('[role="alertdialog"]'));
    return parentFocus === 'member-frame' && inDialog;
  };
  for (const key of ['Tab', 'Tab', 'Tab', 'Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab']) {
    await page.keyboard.press(key);
    expect(await focusIsInDialog(), `focus after ${key}`).toBe(true);
  }
  await expect(ok).toBeFocused();

  // Behind the dialog: the form is inert, focusing does nothing, a click lands on the backdrop.
  const email = app.getByRole('textbox', { name: login.email });
  await email.evaluate((el) => (el as HTMLElement).focus());
  await expect(ok).toBeFocused();
  const behind = await email.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const there = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return { inert: !!el.closest('[inert]'), hitsField: there === el, hitsBackdrop: !!there?.closest('.modal-backdrop') };
  });
  expect(behind).toEqual({ inert: true, hitsField: false, hitsBackdrop: true });
  const box = (await email.boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await expect(dialog).toBeVisible();
  await expect(email).not.toBeFocused();
  expect(await focusIsInDialog()).toBe(true);

  await expectAccessible(page, '/login with the login-failed alert open');

  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(password).toBeFocused();
  await expect(email).toHaveValue(member.email); // the form is as it was
});
