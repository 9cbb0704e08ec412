// The member area's whole story as the issue tells it: a visitor registers, sees the pending
// application, an operator approves it from the command line, the member sees the new status
// and a notice, edits the profile, changes e-mail with a code, withdraws, and login is refused.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { test, expect, waitForMail, codeIn, typeCode } from './support/fixtures';
import { E2E, stackEnv } from './support/stack-env';
import { field, fillProfile, verifyEmail } from './support/register';
import { label, labels, mailSubject, memberNotice, messages, submitText } from './support/texts';

function operator(...args: string[]): string {
  return execFileSync(process.execPath, ['--import', 'tsx', 'src/server/operator/cli.ts', ...args], { env: stackEnv(E2E), encoding: 'utf8' });
}

test('register, approval by the operator, edit, e-mail change, withdrawal', async ({ page, db }) => {
  test.setTimeout(120_000);
  const email = `journey-${randomUUID().slice(0, 8)}@example.com`;
  const password = 'Journey-2026!';
  await verifyEmail(page, email);
  await fillProfile(page, password);
  await page.getByRole('checkbox', { name: label('register-terms', 'agree') }).check();
  await page.getByRole('button', { name: messages.register.submit }).click();
  await page.getByRole('button', { name: messages.common.ok }).click();
  await expect(page).toHaveURL(`${E2E.parentUrl}/`);

  await page.goto('/user/mypage');
  const application = page.getByRole('region', { name: messages.mypage.applicationTitle });
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
  await expect(page.getByRole('region', { name: messages.mypage.noticesTitle })).toContainText(memberNotice.applicationApproved);

  await page.goto('/user/edit');
  await field(page, labels('edit-profile').address_current).fill('東京都千代田区千代田1-1 二地域ハウス101');
  await page.getByRole('button', { name: submitText('edit-profile') }).click();
  await page.getByRole('button', { name: messages.common.ok }).click();
  await expect(page).toHaveURL(/\/user\/mypage$/);

  const newEmail = `journey-new-${randomUUID().slice(0, 8)}@example.com`;
  await page.goto('/user/email/change');
  await field(page, labels('email-change').email).fill(newEmail);
  await page.getByRole('button', { name: submitText('email-change') }).click();
  await typeCode(page, codeIn(await waitForMail(newEmail)));
  await page.getByRole('button', { name: submitText('email-change-code') }).click();
  await page.getByRole('button', { name: messages.common.ok }).click();
  await page.goto('/user/info');
  await expect(page.getByText(newEmail)).toBeVisible();
  await expect(page.getByText('東京都千代田区千代田1-1 二地域ハウス101')).toBeVisible();

  await page.goto('/user/withdraw');
  await page.getByRole('textbox', { name: labels('withdraw').password }).fill(password);
  await page.getByRole('button', { name: submitText('withdraw') }).click();
  await page.getByRole('button', { name: messages.common.ok }).click();
  await expect(page).toHaveURL(`${E2E.parentUrl}/`);

  await page.context().clearCookies();
  await page.goto('/user/login');
  await page.getByRole('textbox', { name: labels('login').email }).fill(newEmail);
  await page.getByRole('textbox', { name: labels('login').password }).fill(password);
  await page.getByRole('button', { name: submitText('login'), exact: true }).click();
  await expect(page.getByRole('alertdialog')).toContainText(messages.api.LOGIN_FAILED);
});
