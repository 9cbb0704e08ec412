import type { Page } from '@playwright/test';
import { expect, waitForMail, codeIn, typeCode } from './fixtures';
import { codeSent, messages } from './texts';

export const field = (page: Page, name: string) => page.getByRole('textbox', { name, exact: true });

/** STEP1 as a visitor does it: address twice, the code from the mail. */
export async function verifyEmail(page: Page, email: string) {
  await page.goto('/user/register');
  await field(page, 'メールアドレス').fill(email);
  await field(page, 'メールアドレス（確認用）').fill(email);
  await page.getByRole('button', { name: '認証コードを送信' }).click();
  await expect(page.getByRole('status').filter({ hasText: codeSent(messages.register.codeSent, email) })).toBeVisible();
  await typeCode(page, codeIn(await waitForMail(email)));
  await page.getByRole('button', { name: '認証コードを登録' }).click();
  await expect(page.getByText(messages.register.verified)).toBeVisible();
}

export async function fillProfile(page: Page, password: string) {
  await field(page, 'パスワード').fill(password);
  await field(page, 'パスワード（確認用）').fill(password);
  await field(page, '姓').fill('佐藤');
  await field(page, '名').fill('太郎');
  await field(page, '姓（ローマ字）').fill('SATO');
  await field(page, '名（ローマ字）').fill('TARO');
  await page.getByLabel('生年月日').fill('1985-05-05');
  await page.getByRole('radio', { name: '男性' }).check();
  await page.getByRole('combobox', { name: '就業形態' }).selectOption({ label: '自営業・フリーランス' });
  await field(page, '郵便番号').fill('100-0001');
  await expect(field(page, '住所')).toHaveValue('東京都千代田区千代田');
  await field(page, '住所').fill('東京都千代田区千代田1-1');
  await field(page, '電話番号').fill('090-1234-5678');
  await page.getByRole('checkbox', { name: 'テレワーク・ワーケーション' }).check();
  await field(page, '具体的な目的').fill('平日は東京で働き、週末は長野で畑を借りて野菜づくりをしたいと考えています。');
  await page.getByRole('checkbox', { name: /帰省・単身赴任・介護を目的とした申し込みではありません/ }).check();
}
