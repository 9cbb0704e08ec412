import { randomUUID } from 'node:crypto';
import { test, expect, waitForMail, codeIn, typeCode, loginAs, mailsTo } from './support/fixtures';
import type { Page } from '@playwright/test';
import { codeSent, format, MAIL_DOMAIN, mailSubject, messages, routeSetting, rulesOf, textPattern } from './support/texts';

const field = (page: Page, name: string) => page.getByRole('textbox', { name, exact: true });

async function chooseInquiry(page: Page) {
  await page.getByRole('combobox', { name: 'お客様の区分' }).selectOption({ label: '非会員（登録を検討中）' });
  await page.getByRole('combobox', { name: 'お問い合わせの種類' }).selectOption({ label: '航空券・運賃について' });
  await page.getByRole('combobox', { name: '就業形態' }).selectOption({ label: '会社員（正社員）' });
}

test('a visitor agrees to the privacy notice, sends an inquiry and gets the acknowledgement with its ticket and nothing they typed', async ({ page }) => {
  const email = `visitor-${randomUUID().slice(0, 8)}@example.com`;
  await page.goto('/user/contact');
  await expect(field(page, '姓')).toBeDisabled();
  await page.getByRole('checkbox', { name: /個人情報の取り扱いに同意する/ }).check();
  await expect(field(page, '姓')).toBeEnabled();
  await field(page, '姓').fill('田中');
  await field(page, '名').fill('次郎');
  await field(page, 'メールアドレス').fill(email);
  await chooseInquiry(page);
  await field(page, 'お問い合わせ内容').fill('https://example.com を見ました。運賃について教えてください。');
  await page.getByRole('button', { name: '送信する' }).click();
  // The inquiry text bans links and markup, not emoji: its message says so.
  await expect(page.getByText(rulesOf('contact').message('purpose_detail', 'not'))).toBeVisible();
  await field(page, 'お問い合わせ内容').fill('特別運賃で予約した航空券は、出発の何日前まで変更できますか。');
  await page.getByRole('button', { name: '送信する' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText(messages.contact.done);
  const ticket = /Q\d{6}-\d{5}/.exec((await dialog.textContent()) ?? '')![0];
  await page.getByRole('button', { name: 'OK' }).click();
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
  await page.getByRole('link', { name: 'お問い合わせ', exact: true }).click();
  await expect(field(page, 'メールアドレス')).toHaveValue(member.email);
  await expect(field(page, 'メールアドレス')).not.toBeEditable();
  await expect(field(page, '姓')).toHaveValue('山田');
  await expect(page.getByRole('checkbox', { name: /個人情報の取り扱いに同意する/ })).toHaveCount(0);
  await chooseInquiry(page);
  await field(page, 'お問い合わせ内容').fill('地域体験メニューの申し込み方法を教えてください。よろしくお願いします。');
  await page.getByRole('button', { name: '送信する' }).click();
  await page.getByRole('button', { name: 'OK' }).click();
  await expect(page).toHaveURL(/\/user\/mypage$/);
  await waitForMail(member.email, 2);

  await page.getByRole('link', { name: 'お問い合わせ履歴' }).click();
  const row = page.getByRole('row').filter({ hasText: '地域体験メニューの申し込み方法' });
  await expect(row).toContainText('航空券・運賃について');
  await expect(row).toContainText(/Q\d{6}-\d{5}/);
  await expect(row).toContainText(/\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}/);

  await db.updateTable('inquiries').set({ status: 'answered' }).where('email', '=', member.email).execute();
  await page.reload();
  await expect(page.getByText(messages.contactHistory.empty)).toBeVisible();
  await page.getByRole('button', { name: '回答済み' }).click();
  await expect(page).toHaveURL(/status=answered/);
  await expect(page.getByRole('row').filter({ hasText: '地域体験メニューの申し込み方法' })).toBeVisible();
});

test('the inquiry history needs a login', async ({ page }) => {
  await page.goto('/user/contact_history');
  await expect(page).toHaveURL(/\/user\/login$/);
});

test('a member resets the password with the mailed code; the new password works and the old one does not', async ({ page, member }) => {
  await page.goto('/user/login');
  await page.getByRole('link', { name: 'パスワードをお忘れの方はこちら' }).click();
  await expect(page.getByRole('heading', { name: 'パスワード再設定', level: 1 })).toBeVisible();
  await expect(page.getByText(format(messages.passwordReminder.domainNote, { domain: MAIL_DOMAIN }))).toBeVisible();
  await field(page, 'ご登録のメールアドレス').fill(member.email);
  await field(page, '生年月日').fill('1990年2月30日');
  await field(page, 'ご登録の電話番号').fill('03-1234-5678');
  await page.getByRole('button', { name: '次へ' }).click();
  await expect(page.getByText(rulesOf('reset-identity').message('birthday', 'format'))).toBeVisible();
  await field(page, '生年月日').fill('1990/4/1');
  await field(page, 'ご登録の電話番号').click();
  await expect(field(page, '生年月日')).toHaveValue('1990-04-01');
  await page.getByRole('button', { name: '次へ' }).click();
  await expect(page.getByRole('status')).toContainText(codeSent(messages.passwordReminder.codeSent, member.email));
  const lock = routeSetting('password_reminder', 'resendLockSeconds');
  await expect(page.getByRole('button', { name: textPattern(messages.passwordReminder.resendIn, { seconds: `${lock}|${lock - 1}` }) })).toBeDisabled();
  await typeCode(page, codeIn(await waitForMail(member.email)));
  const password = 'Fresh-Start9!';
  await field(page, '新しいパスワード').fill(password);
  await field(page, '新しいパスワード（確認用）').fill(password);
  await page.getByRole('button', { name: 'パスワードを再設定する' }).click();
  await expect(page.getByText(messages.passwordReminder.doneTitle)).toBeVisible();
  await expect.poll(async () => (await mailsTo(member.email)).map((m) => m.subject)).toContain(mailSubject('passwordChanged'));

  await page.goto('/user/login');
  await field(page, 'メールアドレス').fill(member.email);
  await field(page, 'パスワード').fill(member.password);
  await page.getByRole('button', { name: 'ログイン', exact: true }).click();
  await expect(page.getByRole('alertdialog')).toContainText(messages.api.LOGIN_FAILED);
  await page.getByRole('button', { name: 'OK' }).click();
  await loginAs(page, { email: member.email, password }, { mailCount: 3 });
});

test('a wrong identity gets the same refusal as an unknown address', async ({ page, member }) => {
  const attempt = async (email: string, birthday: string) => {
    await page.goto('/user/password_reminder');
    await field(page, 'ご登録のメールアドレス').fill(email);
    await field(page, '生年月日').fill(birthday);
    await field(page, 'ご登録の電話番号').fill('0312345678');
    await page.getByRole('button', { name: '次へ' }).click();
    const text = await page.getByRole('alertdialog').textContent();
    await page.getByRole('button', { name: 'OK' }).click();
    return text;
  };
  const wrongBirthday = await attempt(member.email, '1991/4/1');
  const unknown = await attempt(`nobody-${randomUUID().slice(0, 8)}@example.com`, '1990/4/1');
  expect(wrongBirthday).toContain(messages.api.IDENTITY_FAILED);
  expect(unknown).toBe(wrongBirthday);
  expect(await mailsTo(member.email)).toHaveLength(0);
});
