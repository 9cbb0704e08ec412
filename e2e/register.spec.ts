import { randomUUID } from 'node:crypto';
import { test, expect, waitForMail, codeIn, typeCode } from './support/fixtures';
import { E2E } from './support/stack-env';
import { field, fillProfile, verifyEmail } from './support/register';
import { readFileSync } from 'node:fs';

const newAddress = () => `visitor-${randomUUID().slice(0, 8)}@example.com`;

test('a new visitor registers with the mailed code, lands on the site top, then logs in', async ({ page, db }) => {
  const email = newAddress();
  const password = 'Nichiiki-2026!';
  await verifyEmail(page, email);
  await fillProfile(page, password);
  for (const rule of ['8文字以上', '英小文字を含む', '英大文字を含む', '数字を含む', '記号を含む', '同じ文字を8回以上続けない']) {
    await expect(page.locator('.checklist__item--ok', { hasText: rule })).toBeVisible();
  }
  await page.getByRole('checkbox', { name: /利用規約に同意する/ }).check();
  await page.getByRole('button', { name: '利用登録する' }).click();
  // The spec's words, then: received, the 受付番号, what happens next (as the welcome mail says).
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toHaveText(/会員登録が完了しました。/);
  await expect(dialog).toContainText('お申し込みを受け付けました。');
  await expect(dialog).toContainText(/受付番号：R\d{8}-\d{6}/);
  await expect(dialog).toContainText('事務局で内容を確認のうえ、登録の可否をメールでお知らせします。');
  const shownNumber = /受付番号：(R\d{8}-\d{6})/.exec((await dialog.textContent()) ?? '')![1]!;
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();
  await page.getByRole('button', { name: 'OK' }).click();
  await expect(page).toHaveURL(`${E2E.parentUrl}/`);

  const welcome = await waitForMail(email, 2);
  expect(welcome.subject).toContain('会員登録のお申し込みを受け付けました');
  const saved = await db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
  expect(saved).toMatchObject({ zip_current: '1000001', phone: '09012345678', address_current: '東京都千代田区千代田1-1', last_name_alpha: 'SATO', job: '6', purpose: '2', gender: 'male', mail_opt: '1' });
  const application = await db.selectFrom('applications').selectAll().where('user_id', '=', saved.id).executeTakeFirstOrThrow();
  expect(application.status).toBe('pending');
  expect(welcome.text).toContain(application.register_number);
  expect(shownNumber).toBe(application.register_number);
  expect(welcome.text).toContain('お申し込みを受け付けました。');
  expect(welcome.text).toContain('事務局で内容を確認のうえ、登録の可否をメールでお知らせします。');

  await page.context().clearCookies();
  await page.goto('/user/login');
  await page.getByRole('textbox', { name: 'メールアドレス' }).fill(email);
  await page.getByRole('textbox', { name: 'パスワード' }).fill(password);
  await page.getByRole('button', { name: 'ログイン', exact: true }).click();
  await typeCode(page, codeIn(await waitForMail(email, 3)));
  await page.getByRole('button', { name: '認証してログイン' }).click();
  await expect(page.getByText('ようこそ、佐藤 太郎 様')).toBeVisible();
});

test('the final button while something is missing shows every error and scrolls to the first', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 700 });
  await verifyEmail(page, newAddress());
  const button = page.getByRole('button', { name: '利用登録する' });
  await expect(button).toHaveAttribute('aria-disabled', 'true');
  // aria-disabled keeps it reachable for people; Playwright would wait for it to be "enabled".
  await button.click({ force: true });
  const firstError = page.getByText('パスワードを入力してください', { exact: true });
  await expect(firstError).toBeVisible();
  await expect(firstError).toBeInViewport();
  await expect(page.getByText('姓を入力してください', { exact: true })).toBeVisible();
  await expect(page.getByText('具体的な目的を入力してください', { exact: true })).toBeVisible();
  await expect(page.getByText('同意欄にチェックを入れてください', { exact: true })).toBeVisible();
  await expect(page.getByText('確認事項にチェックを入れてください', { exact: true })).toBeVisible();
});

test('STEP2 and STEP3 stay locked, and the final button asks for STEP1, until the address is verified', async ({ page }) => {
  await page.goto('/user/register');
  await expect(field(page, '姓')).toBeDisabled();
  await expect(page.getByRole('checkbox', { name: /利用規約に同意する/ })).not.toBeChecked();
  await expect(page.getByRole('checkbox', { name: /帰省・単身赴任・介護/ })).not.toBeChecked();
  await expect(page.getByRole('checkbox', { name: /利用規約に同意する/ })).toBeDisabled();
  await page.getByRole('button', { name: '利用登録する' }).click({ force: true });
  await expect(page.getByText('STEP1のメールアドレス認証を完了してください。')).toBeVisible();
});

test('an address that is already a member: STEP1 answers as for any address, and the member is told by mail', async ({ page, member }) => {
  // Telling the visitor would tell anyone who is a member (docs/decisions/015).
  await page.goto('/user/register');
  await field(page, 'メールアドレス').fill(member.email);
  await field(page, 'メールアドレス（確認用）').fill(member.email);
  await page.getByRole('button', { name: '認証コードを送信' }).click();
  await expect(page.getByRole('status').filter({ hasText: '認証コードを送信しました' })).toBeVisible();
  const notice = await waitForMail(member.email);
  const { site } = JSON.parse(readFileSync(new URL('../messages/ja.json', import.meta.url), 'utf8'));
  const { templates } = JSON.parse(readFileSync(new URL('../messages/mail.ja.json', import.meta.url), 'utf8'));
  expect(notice.subject).toBe(templates.registerAttempted.subject.replace('{site}', site.name));
  expect(notice.text).not.toMatch(/^\s*\d{5}\s*$/m);
});

test('the confirmation must match, and cannot be pasted', async ({ page }) => {
  await page.goto('/user/register');
  await field(page, 'メールアドレス').fill('one@example.com');
  await field(page, 'メールアドレス（確認用）').fill('two@example.com');
  await page.getByRole('button', { name: '認証コードを送信' }).click();
  await expect(page.getByText('メールアドレスが一致しません')).toBeVisible();
  const confirm = field(page, 'メールアドレス（確認用）');
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
  await field(page, 'メールアドレス').fill(email);
  await field(page, 'メールアドレス（確認用）').fill(email);
  await page.getByRole('button', { name: '認証コードを送信' }).click();
  const code = codeIn(await waitForMail(email));
  await typeCode(page, code === '12345' ? '54321' : '12345');
  await page.getByRole('button', { name: '認証コードを登録' }).click();
  await expect(page.getByText('認証コードが無効か、有効期限が切れています。入力内容を確認して、もう一度お試しください。')).toBeVisible();
  await expect(field(page, 'メールアドレス')).not.toBeEditable();
  await page.getByRole('button', { name: '認証をやり直す' }).click();
  await expect(field(page, 'メールアドレス')).toBeEditable();
  await expect(page.getByLabel('1桁目')).toHaveCount(0);
});

test('industry 99 and purpose 99 open their free-text fields; deselecting 99 clears the text', async ({ page }) => {
  await verifyEmail(page, newAddress());
  await expect(field(page, '職種（その他）')).toHaveCount(0);
  await page.getByRole('combobox', { name: '職種' }).selectOption('99');
  await expect(field(page, '職種（その他）')).toBeVisible();
  const other = page.getByRole('checkbox', { name: 'その他' });
  await other.check();
  await field(page, 'その他の目的').fill('地域の祭りの運営に関わりながら、地元の方々と交流を深めたいです。');
  await other.uncheck();
  await expect(field(page, 'その他の目的')).toHaveCount(0);
  await other.check();
  await expect(field(page, 'その他の目的')).toHaveValue('');
});
