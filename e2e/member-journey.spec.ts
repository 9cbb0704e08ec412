// The member area's whole story as the issue tells it: a visitor registers, sees the pending
// application, an operator approves it from the command line, the member sees the new status
// and a notice, edits the profile, changes e-mail with a code, withdraws, and login is refused.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { test, expect, waitForMail, codeIn, typeCode } from './support/fixtures';
import { E2E, stackEnv } from './support/stack-env';
import { field, fillProfile, verifyEmail } from './support/register';
import { mailSubject, memberNotice, messages } from './support/texts';

function operator(...args: string[]): string {
  return execFileSync('npx', ['tsx', 'src/server/operator/cli.ts', ...args], { env: stackEnv(E2E), encoding: 'utf8' });
}

test('register, approval by the operator, edit, e-mail change, withdrawal', async ({ page, db }) => {
  test.setTimeout(120_000);
  const email = `journey-${randomUUID().slice(0, 8)}@example.com`;
  const password = 'Journey-2026!';
  await verifyEmail(page, email);
  await fillProfile(page, password);
  await page.getByRole('checkbox', { name: /利用規約に同意する/ }).check();
  await page.getByRole('button', { name: '利用登録する' }).click();
  await page.getByRole('button', { name: 'OK' }).click();
  await expect(page).toHaveURL(`${E2E.parentUrl}/`);

  await page.goto('/user/mypage');
  const application = page.getByRole('region', { name: '登録申請' });
  await expect(application).toContainText(messages.mypage.status.pending);
  const user = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
  const { register_number: number } = await db.selectFrom('applications').select('register_number').where('user_id', '=', user.id).executeTakeFirstOrThrow();
  await expect(application).toContainText(number);

  expect(operator('applications', 'list', '--status', 'pending')).toContain(number);
  operator('applications', 'approve', number);
  const approval = await waitForMail(email, 3);
  expect(approval.subject).toBe(mailSubject('applicationApproved'));
  await page.reload();
  await expect(application).toContainText(messages.mypage.status.approved);
  await expect(page.getByRole('region', { name: 'お知らせ' })).toContainText(memberNotice.applicationApproved);

  await page.goto('/user/edit');
  await field(page, '住所').fill('東京都千代田区千代田1-1 二地域ハウス101');
  await page.getByRole('button', { name: '更新する' }).click();
  await page.getByRole('button', { name: 'OK' }).click();
  await expect(page).toHaveURL(/\/user\/mypage$/);

  const newEmail = `journey-new-${randomUUID().slice(0, 8)}@example.com`;
  await page.goto('/user/email/change');
  await field(page, '新しいメールアドレス').fill(newEmail);
  await page.getByRole('button', { name: '認証コードを送信' }).click();
  await typeCode(page, codeIn(await waitForMail(newEmail)));
  await page.getByRole('button', { name: '変更を確定する' }).click();
  await page.getByRole('button', { name: 'OK' }).click();
  await page.goto('/user/info');
  await expect(page.getByText(newEmail)).toBeVisible();
  await expect(page.getByText('東京都千代田区千代田1-1 二地域ハウス101')).toBeVisible();

  await page.goto('/user/withdraw');
  await page.getByRole('textbox', { name: 'パスワード' }).fill(password);
  await page.getByRole('button', { name: '退会する' }).click();
  await page.getByRole('button', { name: 'OK' }).click();
  await expect(page).toHaveURL(`${E2E.parentUrl}/`);

  await page.context().clearCookies();
  await page.goto('/user/login');
  await page.getByRole('textbox', { name: 'メールアドレス' }).fill(newEmail);
  await page.getByRole('textbox', { name: 'パスワード' }).fill(password);
  await page.getByRole('button', { name: 'ログイン', exact: true }).click();
  await expect(page.getByRole('alertdialog')).toContainText(messages.api.LOGIN_FAILED);
});
