import { test, expect, waitForMail, codeIn, typeCode, wrongCode, mailsTo } from './support/fixtures';
import { CODE_LENGTH, codeSent, format, labels, mailSubject, messages, pinBox, rulesOf, screenTitle, submitText, welcome } from './support/texts';

const loginRules = rulesOf('login');
const login = labels('login');

test.describe('member login', () => {
  test('logs in with the mailed code and lands on mypage', async ({ page, member }) => {
    await page.goto('/user/login');
    await expect(page.getByRole('heading', { name: screenTitle('login') })).toBeVisible();
    await page.getByLabel(login.email).fill(member.email);
    await page.getByLabel(login.password).fill(member.password);
    await page.getByRole('button', { name: submitText('login'), exact: true }).click();

    await expect(page.getByRole('status').filter({ hasText: codeSent(messages.login.codeSent, member.email) })).toBeVisible();
    const mail = await waitForMail(member.email);
    expect(mail.subject).toBe(mailSubject('loginCode'));
    await typeCode(page, codeIn(mail));
    await page.getByRole('button', { name: submitText('login-code') }).click();

    await expect(page).toHaveURL(/\/user\/mypage$/);
    await expect(page.getByText(welcome('山田 花子'))).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();
    const cookies = Object.fromEntries((await page.context().cookies()).map((c) => [c.name, c.value]));
    expect(cookies.ak_logged_in).toBe('1');
    expect(cookies.lastLogin).toBe('true');
    expect(Number(cookies.ak_login_exp)).toBeGreaterThan(Date.now() / 1000 + 3500);
  });

  test('a wrong code is refused with the invalid-code message, then the right one works', async ({ page, member }) => {
    await page.goto('/user/login');
    await page.getByLabel(login.email).fill(member.email);
    await page.getByLabel(login.password).fill(member.password);
    await page.getByRole('button', { name: submitText('login'), exact: true }).click();
    const code = codeIn(await waitForMail(member.email));
    await typeCode(page, wrongCode(code));
    await page.getByRole('button', { name: submitText('login-code') }).click();
    await expect(page.locator('.field__errors').getByText(messages.verification.invalid)).toBeVisible();

    await page.getByLabel(pinBox(1)).click();
    await page.keyboard.press('Control+A');
    for (let i = 0; i < CODE_LENGTH; i++) await page.keyboard.press('Backspace');
    await typeCode(page, code);
    await page.getByRole('button', { name: submitText('login-code') }).click();
    await expect(page).toHaveURL(/\/user\/mypage$/);
  });

  test('field rules show in Japanese before anything is sent', async ({ page }) => {
    await page.goto('/user/login');
    await page.getByRole('button', { name: submitText('login'), exact: true }).click();
    await expect(page.locator('.field__errors').getByText(loginRules.required('email'))).toBeVisible();
    await expect(page.locator('.field__errors').getByText(loginRules.required('password'), { exact: true })).toBeVisible();
    await page.getByLabel(login.email).fill('not-an-address');
    await expect(page.locator('.field__errors').getByText(loginRules.message('email', 'pattern'))).toBeVisible();
  });

  test('the member guard sends a visitor to login', async ({ page }) => {
    await page.goto('/user/mypage');
    await expect(page).toHaveURL(/\/user\/login$/);
  });

  test('a wrong password gets the login-failed alert and no mail', async ({ page, member }) => {
    await page.goto('/user/login');
    await page.getByLabel(login.email).fill(member.email);
    await page.getByLabel(login.password).fill('Wrong-Pass9!');
    await page.getByRole('button', { name: submitText('login'), exact: true }).click();
    // No code-less login on a new device: asking for a code is refused with the server's reason.
    await expect(page.getByRole('alertdialog')).toContainText(format(messages.login.sendFailed, { detail: messages.api.LOGIN_FAILED }));
    expect(await mailsTo(member.email)).toHaveLength(0);
  });
});
