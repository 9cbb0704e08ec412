import { randomUUID } from 'node:crypto';
import { test, expect, waitForMail, codeIn, typeCode, wrongCode } from './support/fixtures';
import { E2E } from './support/stack-env';
import { field, fillProfile, verifyEmail } from './support/register';
import { codeSent, label, labels, mailSubject, messages, passwordChecklist, pinBox, rulesOf, submitText, textPattern, welcome } from './support/texts';

const newAddress = () => `visitor-${randomUUID().slice(0, 8)}@example.com`;
const step1 = labels('register-email');
const step2 = labels('register-profile');
const agreeToTerms = label('register-terms', 'agree');

test('a new visitor registers with the mailed code, lands on the site top, then logs in', async ({ page, db }) => {
  const email = newAddress();
  const password = 'Nichiiki-2026!';
  await verifyEmail(page, email);
  await fillProfile(page, password);
  for (const rule of passwordChecklist()) {
    await expect(page.locator('.checklist__item--ok', { hasText: rule })).toBeVisible();
  }
  await page.getByRole('checkbox', { name: agreeToTerms }).check();
  await page.getByRole('button', { name: messages.register.submit }).click();
  // The spec's words, then: received, the 受付番号, what happens next (as the welcome mail says).
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText(messages.register.completed);
  await expect(dialog).toContainText(messages.register.received);
  const nextSteps = messages.register.nextSteps.split('\n');
  for (const line of nextSteps) await expect(dialog).toContainText(line);
  const shownNumber = textPattern(messages.register.registerNumber, { registerNumber: '(R\\d{8}-\\d{6})' }).exec((await dialog.textContent()) ?? '')?.[1];
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();
  await page.getByRole('button', { name: messages.common.ok }).click();
  await expect(page).toHaveURL(`${E2E.parentUrl}/`);

  const welcomeMail = await waitForMail(email, 2);
  expect(welcomeMail.subject).toBe(mailSubject('welcome'));
  const saved = await db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
  expect(saved).toMatchObject({ zip_current: '1000001', phone: '09012345678', address_current: '東京都千代田区千代田1-1', last_name_alpha: 'SATO', job: '6', purpose: '2', gender: 'male', mail_opt: '1' });
  const application = await db.selectFrom('applications').selectAll().where('user_id', '=', saved.id).executeTakeFirstOrThrow();
  expect(application.status).toBe('pending');
  expect(welcomeMail.text).toContain(application.register_number);
  expect(shownNumber).toBe(application.register_number);
  expect(welcomeMail.text).toContain(messages.register.received);
  for (const line of nextSteps) expect(welcomeMail.text).toContain(line);

  await page.context().clearCookies();
  await page.goto('/user/login');
  await page.getByRole('textbox', { name: labels('login').email }).fill(email);
  await page.getByRole('textbox', { name: labels('login').password }).fill(password);
  await page.getByRole('button', { name: submitText('login'), exact: true }).click();
  await typeCode(page, codeIn(await waitForMail(email, 3)));
  await page.getByRole('button', { name: submitText('login-code') }).click();
  await expect(page.getByText(welcome('佐藤 太郎'))).toBeVisible();
});

test('the final button while something is missing shows every error, and one summary at the top that takes focus', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 700 });
  await verifyEmail(page, newAddress());
  const button = page.getByRole('button', { name: messages.register.submit });
  await expect(button).toHaveAttribute('aria-disabled', 'true');
  // aria-disabled keeps it reachable for people; Playwright would wait for it to be "enabled".
  await button.click({ force: true });
  const profile = rulesOf('register-profile');
  const summary = page.locator('.error-summary');
  await expect(summary).toBeFocused();
  await expect(summary).toBeInViewport();
  const shown = page.locator('.field__errors');
  await expect(shown.getByText(profile.required('password'), { exact: true })).toBeVisible();
  await expect(shown.getByText(profile.required('last_name_kanji'), { exact: true })).toBeVisible();
  await expect(shown.getByText(profile.required('purpose_detail'), { exact: true })).toBeVisible();
  await expect(shown.getByText(rulesOf('register-terms').required('agree'), { exact: true })).toBeVisible();
  await expect(shown.getByText(profile.required('condition_checked'), { exact: true })).toBeVisible();
  await expect(summary.getByRole('link')).toHaveCount(await page.locator('.field--error').count());
});

test('STEP2 and STEP3 stay locked, and the final button asks for STEP1, until the address is verified', async ({ page }) => {
  await page.goto('/user/register');
  await expect(field(page, step2.last_name_kanji)).toBeDisabled();
  await expect(page.getByRole('checkbox', { name: agreeToTerms })).not.toBeChecked();
  await expect(page.getByRole('checkbox', { name: step2.condition_checked })).not.toBeChecked();
  await expect(page.getByRole('checkbox', { name: agreeToTerms })).toBeDisabled();
  await page.getByRole('button', { name: messages.register.submit }).click({ force: true });
  await expect(page.locator('.error-summary').getByRole('link', { name: messages.register.needVerification })).toBeVisible();
});

test('an address that is already a member: STEP1 answers as for any address, and the member is told by mail', async ({ page, member }) => {
  // Telling the visitor would tell anyone who is a member (docs/decisions/015).
  await page.goto('/user/register');
  await field(page, step1.email).fill(member.email);
  await field(page, step1.email_confirm).fill(member.email);
  await page.getByRole('button', { name: submitText('register-email') }).click();
  await expect(page.getByRole('status').filter({ hasText: codeSent(messages.register.codeSent, member.email) })).toBeVisible();
  const notice = await waitForMail(member.email);
  expect(notice.subject).toBe(mailSubject('registerAttempted'));
  expect(() => codeIn(notice), 'a code in the notice').toThrow();
});

test('the confirmation must match, and cannot be pasted', async ({ page }) => {
  await page.goto('/user/register');
  await field(page, step1.email).fill('one@example.com');
  await field(page, step1.email_confirm).fill('two@example.com');
  await page.getByRole('button', { name: submitText('register-email') }).click();
  await expect(page.locator('.field__errors').getByText(rulesOf('register-email').message('email_confirm', 'sameAs'))).toBeVisible();
  const confirm = field(page, step1.email_confirm);
  await confirm.fill('');
  await confirm.focus();
  await page.evaluate(() => {
    const data = new DataTransfer();
    data.setData('text/plain', 'pasted@example.com');
    document.activeElement!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  });
  await expect(confirm).toHaveValue('');
});

test('a wrong registration code gets the invalid-or-expired message; redo unlocks the address', async ({ page }) => {
  const email = newAddress();
  await page.goto('/user/register');
  await field(page, step1.email).fill(email);
  await field(page, step1.email_confirm).fill(email);
  await page.getByRole('button', { name: submitText('register-email') }).click();
  const code = codeIn(await waitForMail(email));
  await typeCode(page, wrongCode(code));
  await page.getByRole('button', { name: submitText('register-code') }).click();
  await expect(page.locator('.field__errors').getByText(messages.verification.invalid)).toBeVisible();
  await expect(field(page, step1.email)).not.toBeEditable();
  await page.getByRole('button', { name: messages.register.redo }).click();
  await expect(field(page, step1.email)).toBeEditable();
  await expect(page.getByLabel(pinBox(1))).toHaveCount(0);
});

test('industry 99 and purpose 99 open their free-text fields; deselecting 99 clears the text', async ({ page }) => {
  await verifyEmail(page, newAddress());
  await expect(field(page, step2.industry_other)).toHaveCount(0);
  await page.getByRole('combobox', { name: step2.industry }).selectOption('99');
  await expect(field(page, step2.industry_other)).toBeVisible();
  const other = page.getByRole('checkbox', { name: 'その他' });
  await other.check();
  await field(page, step2.purpose_other).fill('地域の祭りの運営に関わりながら、地元の方々と交流を深めたいです。');
  await other.uncheck();
  await expect(field(page, step2.purpose_other)).toHaveCount(0);
  await other.check();
  await expect(field(page, step2.purpose_other)).toHaveValue('');
});
