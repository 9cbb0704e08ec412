import { randomUUID } from 'node:crypto';
import { test, expect, waitForMail, codeIn, typeCode, loginAs, mailsTo } from './support/fixtures';
import type { Page } from '@playwright/test';
import { codeSent, format, label, labels, MAIL_DOMAIN, mailSubject, messages, pinBox, routeSetting, rulesOf, screenTitle, submitText, textPattern } from './support/texts';
import { PHONE } from './support/framed';
import { expectAccessible } from './support/axe';

const field = (page: Page, name: string) => page.getByRole('textbox', { name, exact: true });
const contact = labels('contact');
const identity = labels('reset-identity');
const login = labels('login');

async function chooseInquiry(page: Page) {
  await page.getByRole('combobox', { name: contact.inquiry_user_type }).selectOption({ label: '非会員（登録を検討中）' });
  await page.getByRole('combobox', { name: contact.inquiry_type }).selectOption({ label: '航空券・運賃について' });
  await page.getByRole('combobox', { name: contact.job }).selectOption({ label: '会社員（正社員）' });
}

test('a visitor agrees to the privacy notice, sends an inquiry and gets the acknowledgement with its ticket and nothing they typed', async ({ page }) => {
  const email = `visitor-${randomUUID().slice(0, 8)}@example.com`;
  await page.goto('/user/contact');
  await expect(field(page, contact.last_name_kanji)).toBeDisabled();
  await page.getByRole('checkbox', { name: label('contact-privacy', 'agree_privacy') }).check();
  await expect(field(page, contact.last_name_kanji)).toBeEnabled();
  await field(page, contact.last_name_kanji).fill('田中');
  await field(page, contact.first_name_kanji).fill('次郎');
  await field(page, contact.email).fill(email);
  await chooseInquiry(page);
  await field(page, contact.purpose_detail).fill('https://example.com を見ました。運賃について教えてください。');
  await page.getByRole('button', { name: submitText('contact') }).click();
  // The inquiry text bans links and markup, not emoji: its message says so.
  await expect(page.locator('.field__errors').getByText(rulesOf('contact').message('purpose_detail', 'not'))).toBeVisible();
  await field(page, contact.purpose_detail).fill('特別運賃で予約した航空券は、出発の何日前まで変更できますか。');
  await page.getByRole('button', { name: submitText('contact') }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText(messages.contact.done);
  const ticket = /Q\d{6}-\d{5}/.exec((await dialog.textContent()) ?? '')![0];
  await page.getByRole('button', { name: messages.common.ok }).click();
  await expect(page).toHaveURL(/\/user\/login$/);
  const mail = await waitForMail(email);
  expect(mail.subject).toContain(ticket);
  expect(mail.text).toContain(ticket);
  // Anyone can type anyone's address here: the acknowledgement quotes nothing the visitor wrote.
  expect(mail.text).not.toContain('特別運賃で予約した航空券は');
  expect(mail.text).not.toContain('田中');
});

test('a member sends an inquiry with a locked identity and finds it in the history by status', async ({ page, member, db }) => {
  await loginAs(page, member);
  await page.getByRole('link', { name: messages.mypage.contact, exact: true }).click();
  await expect(field(page, contact.email)).toHaveValue(member.email);
  await expect(field(page, contact.email)).not.toBeEditable();
  await expect(field(page, contact.last_name_kanji)).toHaveValue('山田');
  await expect(page.getByRole('checkbox', { name: label('contact-privacy', 'agree_privacy') })).toHaveCount(0);
  await chooseInquiry(page);
  await field(page, contact.purpose_detail).fill('地域体験メニューの申し込み方法を教えてください。よろしくお願いします。');
  await page.getByRole('button', { name: submitText('contact') }).click();
  await page.getByRole('button', { name: messages.common.ok }).click();
  await expect(page).toHaveURL(/\/user\/mypage$/);
  await waitForMail(member.email, 2);

  await page.getByRole('link', { name: messages.mypage.contactHistory }).click();
  const row = page.getByRole('row').filter({ hasText: '地域体験メニューの申し込み方法' });
  await expect(row).toContainText('航空券・運賃について');
  await expect(row).toContainText(/Q\d{6}-\d{5}/);
  await expect(row).toContainText(/\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}/);

  await db.updateTable('inquiries').set({ status: 'answered' }).where('email', '=', member.email).execute();
  await page.reload();
  await expect(page.getByText(messages.contactHistory.empty)).toBeVisible();
  await page.getByRole('button', { name: messages.contactHistory.statuses.answered }).click();
  await expect(page).toHaveURL(/status=answered/);
  await expect(page.getByRole('row').filter({ hasText: '地域体験メニューの申し込み方法' })).toBeVisible();
});

test('the inquiry history needs a login', async ({ page }) => {
  await page.goto('/user/contact_history');
  await expect(page).toHaveURL(/\/user\/login$/);
});

test('a member resets the password with the mailed code; the new password works and the old one does not', async ({ page, member }) => {
  await page.goto('/user/login');
  await page.getByRole('link', { name: messages.login.forgotPassword }).click();
  await expect(page.getByRole('heading', { name: screenTitle('password_reminder'), level: 1 })).toBeVisible();
  await expect(page.getByText(format(messages.passwordReminder.domainNote, { domain: MAIL_DOMAIN }))).toBeVisible();
  await field(page, identity.email).fill(member.email);
  await field(page, identity.birthday).fill('1990年2月30日');
  // The stored 0312345678, written internationally: one number (docs/decisions/036).
  await field(page, identity.phone).fill('+81 3-1234-5678');
  await page.getByRole('button', { name: submitText('reset-identity') }).click();
  await expect(page.locator('.field__errors').getByText(rulesOf('reset-identity').message('birthday', 'format'))).toBeVisible();
  await field(page, identity.birthday).fill('1990/4/1');
  await field(page, identity.phone).click();
  await expect(field(page, identity.birthday)).toHaveValue('1990-04-01');
  await page.getByRole('button', { name: submitText('reset-identity') }).click();
  await expect(page.getByRole('status').filter({ hasText: codeSent(messages.passwordReminder.codeSent, member.email) })).toBeVisible();
  const lock = routeSetting('password_reminder', 'resendLockSeconds');
  await expect(page.getByRole('button', { name: textPattern(messages.passwordReminder.resendIn, { seconds: `${lock}|${lock - 1}` }) })).toBeDisabled();
  // Step 2 beside step 1: no id twice (the forms' `root` and the code form's hidden address had
  // been), the code's boxes focused, every field heard as seen.
  await expect(page.getByRole('textbox', { name: pinBox(1) })).toBeFocused();
  await expectAccessible(page, '/password_reminder code step');
  await typeCode(page, codeIn(await waitForMail(member.email)));
  const password = 'Fresh-Start9!';
  await field(page, labels('reset-password').new_password).fill(password);
  await field(page, labels('reset-password').new_password_confirm).fill(password);
  await page.getByRole('button', { name: submitText('reset-password') }).click();
  await expect(page.getByText(messages.passwordReminder.doneTitle)).toBeVisible();
  await expect.poll(async () => (await mailsTo(member.email)).map((m) => m.subject)).toContain(mailSubject('passwordChanged'));

  await page.goto('/user/login');
  await field(page, login.email).fill(member.email);
  await field(page, login.password).fill(member.password);
  await page.getByRole('button', { name: submitText('login'), exact: true }).click();
  await expect(page.getByRole('alertdialog')).toContainText(messages.api.LOGIN_FAILED);
  await page.getByRole('button', { name: messages.common.ok }).click();
  await loginAs(page, { email: member.email, password }, { mailCount: 3 });
});

test('the link in the reset mail opens the reset in the parent\'s frame at phone size with the code filled in; the new password works', async ({ page, member }) => {
  // docs/decisions/015: the mailbox's owner gets through whatever strangers spent of the ceiling.
  await page.setViewportSize(PHONE);
  await page.goto('/user/password_reminder');
  await field(page, identity.email).fill(member.email);
  await field(page, identity.birthday).fill('1990/4/1');
  await field(page, identity.phone).fill('03-1234-5678');
  await page.getByRole('button', { name: submitText('reset-identity') }).click();
  const mail = await waitForMail(member.email);
  const link = /http\S+\?path=\/user\/password_reminder\?key=[A-Za-z0-9_-]{43}/.exec(mail.text)?.[0];
  expect(link, 'a link in the reset mail').toBeDefined();
  await page.goto(link!);
  const app = page.frameLocator('iframe');
  await expect(app.getByRole('status').filter({ hasText: format(messages.verification.linkOpened, { email: member.email }) })).toBeVisible();
  await expect(app.getByRole('textbox', { name: pinBox(1) })).not.toHaveValue('');
  const password = 'By-The-Link-7!';
  await app.getByRole('textbox', { name: labels('reset-password').new_password, exact: true }).fill(password);
  await app.getByRole('textbox', { name: labels('reset-password').new_password_confirm, exact: true }).fill(password);
  await app.getByRole('button', { name: submitText('reset-password') }).click();
  await expect(app.getByText(messages.passwordReminder.doneTitle)).toBeVisible();
  // Used once: the same link again says so.
  await page.goto(link!);
  await expect(page.frameLocator('iframe').getByRole('alertdialog')).toContainText(messages.api.CODE_LINK_INVALID);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/user/login');
  await loginAs(page, { email: member.email, password }, { mailCount: 3 });
});

test('a wrong identity gets the same refusal as an unknown address', async ({ page, member }) => {
  const attempt = async (email: string, birthday: string) => {
    await page.goto('/user/password_reminder');
    await field(page, identity.email).fill(email);
    await field(page, identity.birthday).fill(birthday);
    await field(page, identity.phone).fill('0312345678');
    await page.getByRole('button', { name: submitText('reset-identity') }).click();
    const text = await page.getByRole('alertdialog').textContent();
    await page.getByRole('button', { name: messages.common.ok }).click();
    return text;
  };
  const wrongBirthday = await attempt(member.email, '1991/4/1');
  const unknown = await attempt(`nobody-${randomUUID().slice(0, 8)}@example.com`, '1990/4/1');
  expect(wrongBirthday).toContain(messages.api.IDENTITY_FAILED);
  expect(unknown).toBe(wrongBirthday);
  expect(await mailsTo(member.email)).toHaveLength(0);
});
