import { test, expect, waitForMail, codeIn, typeCode, wrongCode, type Member } from './support/fixtures';
import type { Page } from '@playwright/test';
import { E2E } from './support/stack-env';
import { CODE_LENGTH, pinBox } from './support/texts';

async function requestCode(page: Page, member: Member) {
  await page.goto('/user/login');
  await page.getByLabel('メールアドレス').fill(member.email);
  await page.getByLabel('パスワード').fill(member.password);
  await page.getByRole('button', { name: 'ログイン', exact: true }).click();
  await expect(page.getByRole('status')).toBeVisible();
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
  await page.getByRole('button', { name: '認証してログイン' }).click();
  await expect(page.getByText('認証コードが無効か、有効期限が切れています。入力内容を確認して、もう一度お試しください。')).toBeVisible();
  await expect(page).toHaveURL(/\/user\/login$/);
});

test('after five wrong codes the code is dead: attempt-limit message even for the right code', async ({ page, member }) => {
  await requestCode(page, member);
  const code = codeIn(await waitForMail(member.email));
  const wrong = wrongCode(code);
  for (let attempt = 1; attempt <= 4; attempt++) {
    await typeCode(page, wrong);
    await page.getByRole('button', { name: '認証してログイン' }).click();
    await expect(page.getByText('認証コードが無効か、有効期限が切れています。', { exact: false })).toBeVisible();
    await clearCode(page);
  }
  await typeCode(page, wrong);
  await page.getByRole('button', { name: '認証してログイン' }).click();
  await expect(page.getByText('試行回数の上限に達しました。しばらく時間をおいてから、もう一度お試しください。')).toBeVisible();
  await clearCode(page);
  await typeCode(page, code);
  await page.getByRole('button', { name: '認証してログイン' }).click();
  await expect(page.getByText('試行回数の上限に達しました。', { exact: false })).toBeVisible();
  await expect(page).toHaveURL(/\/user\/login$/);
});

test('resend is locked by a visible 30-second countdown, then sends a new code that replaces the old', async ({ page, member }) => {
  await page.clock.install();
  await requestCode(page, member);
  const first = codeIn(await waitForMail(member.email, 1));
  const resend = page.getByRole('button', { name: /再送信/ });
  await expect(resend).toBeDisabled();
  await expect(resend).toHaveText(/再送信まで (30|29) 秒/);
  await page.clock.runFor(10_000);
  await expect(resend).toHaveText(/再送信まで (20|19) 秒/);
  await page.clock.runFor(21_000);
  await expect(resend).toBeEnabled();
  await expect(resend).toHaveText('認証コードを再送信');
  await resend.click();
  const second = codeIn(await waitForMail(member.email, 2));
  await expect(resend).toBeDisabled();
  if (first !== second) {
    await typeCode(page, first);
    await page.getByRole('button', { name: '認証してログイン' }).click();
    await expect(page.getByText('認証コードが無効か、有効期限が切れています。', { exact: false })).toBeVisible();
    await clearCode(page);
  }
  await typeCode(page, second);
  await page.getByRole('button', { name: '認証してログイン' }).click();
  await expect(page).toHaveURL(/\/user\/mypage$/);
});

test('redo returns to an empty first step', async ({ page, member }) => {
  await requestCode(page, member);
  await page.getByRole('button', { name: '最初からやり直す' }).click();
  await expect(page.getByLabel('1桁目')).toHaveCount(0);
  await expect(page.getByLabel('メールアドレス')).toHaveValue('');
  await expect(page.getByLabel('メールアドレス')).toBeEditable();
});

test('a device that logged in with a code logs in again without one; logout goes to the site top', async ({ page, member }) => {
  await requestCode(page, member);
  await typeCode(page, codeIn(await waitForMail(member.email)));
  await page.getByRole('button', { name: '認証してログイン' }).click();
  await expect(page).toHaveURL(/\/user\/mypage$/);

  await page.getByRole('link', { name: 'ログアウト' }).click();
  await expect(page).toHaveURL(`${E2E.parentUrl}/`);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();

  await page.goto('/user/login');
  await page.getByLabel('メールアドレス').fill(member.email);
  await page.getByLabel('パスワード').fill(member.password);
  await page.getByRole('button', { name: 'ログイン', exact: true }).click();
  await expect(page).toHaveURL(/\/user\/mypage$/);
  expect((await waitForMail(member.email)).subject).toContain('ログイン認証コード'); // only the first login's mail
});

test('a lastLogin cookie alone (no device the server trusts) falls back to sending a code', async ({ page, member, context }) => {
  await context.addCookies([{ name: 'lastLogin', value: 'true', url: `${E2E.appUrl}/` }]);
  await requestCode(page, member);
  await expect(page.getByRole('status')).toContainText('認証コードを送信しました');
  await waitForMail(member.email);
});
