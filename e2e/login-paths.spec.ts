import { test, expect, waitForMail, codeIn, typeCode, wrongCode, type Member } from './support/fixtures';
import type { Page } from '@playwright/test';
import { E2E } from './support/stack-env';
import { anyOf, CODE_LENGTH, codeSent, labels, mailSubject, messages, pinBox, routeSetting, submitText, textPattern } from './support/texts';

const text = messages.login;
const login = labels('login');

async function requestCode(page: Page, member: Member) {
  await page.goto('/user/login');
  await page.getByLabel(login.email).fill(member.email);
  await page.getByLabel(login.password).fill(member.password);
  await page.getByRole('button', { name: submitText('login'), exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: codeSent(messages.login.codeSent, member.email) })).toBeVisible();
}

async function clearCode(page: Page) {
  await page.getByLabel(pinBox(CODE_LENGTH)).click();
  for (let i = 0; i < CODE_LENGTH; i++) await page.keyboard.press('Backspace');
}

test('an expired code is refused with the invalid-or-expired message', async ({ page, member, db }) => {
  await requestCode(page, member);
  const code = codeIn(await waitForMail(member.email));
  await db.updateTable('email_codes').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('email', '=', member.email).execute();
  await typeCode(page, code);
  await page.getByRole('button', { name: submitText('login-code') }).click();
  await expect(page.locator('.field__errors').getByText(messages.verification.invalid)).toBeVisible();
  await expect(page).toHaveURL(/\/user\/login$/);
});

test('after five wrong codes the code is dead: attempt-limit message even for the right code', async ({ page, member }) => {
  await requestCode(page, member);
  const code = codeIn(await waitForMail(member.email));
  const wrong = wrongCode(code);
  for (let attempt = 1; attempt <= 4; attempt++) {
    await typeCode(page, wrong);
    await page.getByRole('button', { name: submitText('login-code') }).click();
    await expect(page.locator('.field__errors').getByText(messages.verification.invalid)).toBeVisible();
    await clearCode(page);
  }
  await typeCode(page, wrong);
  await page.getByRole('button', { name: submitText('login-code') }).click();
  await expect(page.locator('.field__errors').getByText(messages.verification.limit)).toBeVisible();
  await clearCode(page);
  await typeCode(page, code);
  await page.getByRole('button', { name: submitText('login-code') }).click();
  await expect(page.locator('.field__errors').getByText(messages.verification.limit)).toBeVisible();
  await expect(page).toHaveURL(/\/user\/login$/);
});

test('resend is locked by a visible countdown (the route\'s resendLockSeconds), then sends a new code that replaces the old', async ({ page, member }) => {
  const lock = routeSetting('login', 'resendLockSeconds');
  const waiting = (seconds: number) => textPattern(text.resendIn, { seconds: `${seconds}|${seconds - 1}` });
  await page.clock.install();
  await requestCode(page, member);
  const first = codeIn(await waitForMail(member.email, 1));
  const resend = page.getByRole('button', { name: anyOf(text.resend, textPattern(text.resendIn)) });
  await expect(resend).toBeDisabled();
  await expect(resend).toHaveText(waiting(lock));
  await page.clock.runFor(10_000);
  await expect(resend).toHaveText(waiting(lock - 10));
  await page.clock.runFor((lock - 10 + 1) * 1000);
  await expect(resend).toBeEnabled();
  await expect(resend).toHaveText(text.resend);
  await resend.click();
  const second = codeIn(await waitForMail(member.email, 2));
  await expect(resend).toBeDisabled();
  if (first !== second) {
    await typeCode(page, first);
    await page.getByRole('button', { name: submitText('login-code') }).click();
    await expect(page.locator('.field__errors').getByText(messages.verification.invalid)).toBeVisible();
    await clearCode(page);
  }
  await typeCode(page, second);
  await page.getByRole('button', { name: submitText('login-code') }).click();
  await expect(page).toHaveURL(/\/user\/mypage$/);
});

test('redo returns to an empty first step', async ({ page, member }) => {
  await requestCode(page, member);
  await page.getByRole('button', { name: text.redo }).click();
  await expect(page.getByLabel(pinBox(1))).toHaveCount(0);
  await expect(page.getByLabel(login.email)).toHaveValue('');
  await expect(page.getByLabel(login.email)).toBeEditable();
});

test('a device that logged in with a code logs in again without one; logout goes to the site top', async ({ page, member }) => {
  await requestCode(page, member);
  await typeCode(page, codeIn(await waitForMail(member.email)));
  await page.getByRole('button', { name: submitText('login-code') }).click();
  await expect(page).toHaveURL(/\/user\/mypage$/);

  await page.getByRole('link', { name: messages.mypage.logout }).click();
  await expect(page).toHaveURL(`${E2E.parentUrl}/`);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();

  await page.goto('/user/login');
  await page.getByLabel(login.email).fill(member.email);
  await page.getByLabel(login.password).fill(member.password);
  await page.getByRole('button', { name: submitText('login'), exact: true }).click();
  await expect(page).toHaveURL(/\/user\/mypage$/);
  expect((await waitForMail(member.email)).subject).toBe(mailSubject('loginCode')); // only the first login's mail
});

test('a lastLogin cookie alone (no device the server trusts) falls back to sending a code', async ({ page, member, context }) => {
  await context.addCookies([{ name: 'lastLogin', value: 'true', url: `${E2E.appUrl}/` }]);
  await requestCode(page, member);
  await expect(page.getByRole('status').filter({ hasText: codeSent(text.codeSent, member.email) })).toBeVisible();
  await waitForMail(member.email);
});
