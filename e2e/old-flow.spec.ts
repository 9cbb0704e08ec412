// The earlier generation in the browser, at phone size inside the parent frame, with the real
// link and code from the mail catcher: e-mail authentication → the mailed link → the old
// registration form (its own rules at their edges) → login on the old screen; bad links back to
// /email-auth; the old login's button states and alerts; the old logout.
import { randomBytes, randomUUID } from 'node:crypto';
import type { FrameLocator, Page } from '@playwright/test';
import fields from '../schemas/shared/fields.json' with { type: 'json' };
import oldForm from '../schemas/forms/old-register.schema.json' with { type: 'json' };
import messages from '../messages/ja.json' with { type: 'json' };
import { fillMessage } from '../src/shared/validation/message-params';
import { test, expect, waitForMail, mailsTo, codeIn, type CaughtMail } from './support/fixtures';
import { openFramed, PHONE, type Framed } from './support/framed';
import { E2E } from './support/stack-env';

const defs = fields.$defs;
const newAddress = () => `old-${randomUUID().slice(0, 8)}@example.com`;
const box = (app: FrameLocator, name: string) => app.getByRole('textbox', { name, exact: true });

/** The mailed link: the parent site's page with the old registration screen in its frame. */
function linkIn(mail: CaughtMail): string {
  const match = /(http:\/\/\S+\?path=\/user\/old\/register\?key=[A-Za-z0-9_-]+)/.exec(mail.text);
  if (!match) throw new Error(`No registration link in mail "${mail.subject}"`);
  return match[1];
}

/** The app path the link loads into the frame, as a URL of the app (to load into a frame directly). */
const appLink = (link: string) => `${E2E.appUrl}${new URL(link).searchParams.get('path')}`;

/** Opens the mailed link as a member does, at phone size: the parent site, the app in its frame. */
async function openLink(page: Page, link: string): Promise<Framed> {
  await page.setViewportSize(PHONE);
  await page.goto(link);
  const element = page.locator('#member-frame');
  const frame = (await (await element.elementHandle())!.contentFrame())!;
  await frame.waitForURL(/\/user\/(old\/register|email-auth)/);
  return { frame, app: page.frameLocator('#member-frame'), element };
}

/** E-mail authentication in the frame; returns the link from the mail. */
async function requestLink(page: Page, email: string): Promise<{ framed: Framed; link: string }> {
  const framed = await openFramed(page, '/email-auth');
  const { app } = framed;
  await expect(app.getByRole('heading', { name: 'メールアドレス認証' })).toBeVisible();
  await expect(box(app, 'メールアドレス')).toHaveAttribute('type', 'email');
  await expect(box(app, 'メールアドレス')).toHaveAttribute('placeholder', 'example@example.com');
  await box(app, 'メールアドレス').fill(email);
  await app.getByRole('button', { name: '会員登録用URLを送信' }).click();
  await expect(app.getByRole('alertdialog')).toHaveText(new RegExp(messages.emailAuth.sent));
  await app.getByRole('button', { name: 'OK' }).click();
  const mail = await waitForMail(email);
  expect(mail.subject).toContain('会員情報登録用URL');
  return { framed, link: linkIn(mail) };
}

/** Every field of the old form, valid (each old rule exactly at an edge that passes). */
async function fillOldForm(app: FrameLocator, password: string) {
  await box(app, 'パスワード').fill(password);
  await box(app, 'パスワード（確認用）').fill(password);
  await box(app, '姓').fill('田中');
  await box(app, '名').fill('一郎');
  await box(app, '姓（ローマ字）').fill('Tanaka');
  await box(app, '名（ローマ字）').fill('Ichiro');
  await app.getByLabel('生年月日').fill('1980-02-29');
  await app.getByRole('radio', { name: '男性' }).check();
  await app.getByRole('combobox', { name: '就業形態' }).selectOption({ label: '自営業・フリーランス' });
  await box(app, '郵便番号').fill('3800001');
  await box(app, '住所').fill('長野県長野市大字長野1-1');
  await box(app, '電話番号').fill('09012345678');
  await app.getByRole('checkbox', { name: 'テレワーク・ワーケーション' }).check();
  await box(app, '具体的な目的').fill('あ'.repeat(oldForm.properties.purpose_detail.minLength));
  await app.getByRole('combobox', { name: '希望する自治体' }).selectOption('202011');
  for (const name of ['帰省を目的とした申し込みではありません', '単身赴任を目的とした申し込みではありません', '介護を目的とした申し込みではありません']) {
    await app.getByRole('checkbox', { name }).check();
  }
}

test.describe('registration by e-mailed link (phone, in the parent frame)', () => {
  test('e-mail authentication refuses a malformed address with the site\'s e-mail message and sends nothing', async ({ page }) => {
    const { app } = await openFramed(page, '/email-auth');
    const address = `bad-${randomUUID().slice(0, 8)}@example`;
    await box(app, 'メールアドレス').fill(address);
    await app.getByRole('button', { name: '会員登録用URLを送信' }).click();
    await expect(app.getByText(defs.email.errorMessage.pattern)).toBeVisible();
    await box(app, 'メールアドレス').fill(`${address}.jp`);
    await expect(app.getByText(defs.email.errorMessage.pattern)).toHaveCount(0);
    expect(await mailsTo(address)).toEqual([]);
    await page.screenshot({ path: 'test-results/old-email-auth.png', fullPage: true });
  });

  test('a new visitor registers through the link, with every old rule at its edge, then logs in on the old screen', async ({ page, db }) => {
    const email = newAddress();
    const password = 'Shinshu-2026!';
    const { link } = await requestLink(page, email);
    // The link opens the parent site with the old registration screen in its frame.
    expect(link.startsWith(`${E2E.parentUrl}/?path=/user/old/register?key=`)).toBe(true);
    const { app, frame } = await openLink(page, link);
    expect(page.url()).toBe(link);
    await expect(page.getByRole('link', { name: '二地域居住応援プログラム' })).toBeVisible();
    await expect(app.getByRole('heading', { name: '会員情報登録' })).toBeVisible();
    await expect(app.getByText(`認証済みのメールアドレス：${email}`)).toBeVisible();
    await expect(box(app, 'メールアドレス')).toHaveValue(email);
    await expect(box(app, 'メールアドレス')).toHaveAttribute('readonly', '');
    await page.screenshot({ path: 'test-results/old-register-top.png' });

    await fillOldForm(app, password);
    // Each old rule one step past its edge shows its own message; at the edge it passes.
    const detail = oldForm.properties.purpose_detail;
    const edges: Array<[string, string, string, string]> = [
      ['郵便番号', '380-0001', defs.oldZip.errorMessage.pattern, '3800001'],
      ['電話番号', '0901234567', defs.oldPhone.errorMessage.pattern, '09012345678'],
      ['姓（ローマ字）', 'Van Dyke', defs.oldAlphabetName.errorMessage.pattern, 'Tanaka'],
      ['具体的な目的', 'あ'.repeat(detail.minLength - 1), fillMessage(detail.errorMessage.minLength, detail, 'minLength'), 'あ'.repeat(detail.minLength)],
      ['具体的な目的', 'あ'.repeat(detail.maxLength + 1), fillMessage(detail.errorMessage.maxLength, detail, 'maxLength'), 'あ'.repeat(detail.maxLength)],
    ];
    for (const [name, bad, message, good] of edges) {
      await box(app, name).fill(bad);
      await box(app, name).blur();
      await expect(app.getByText(message, { exact: true })).toBeVisible();
      await box(app, name).fill(good);
      await expect(app.getByText(message, { exact: true })).toHaveCount(0);
    }
    await box(app, '住所').fill('長野県長野市大字長野1-1');
    // The municipality and the three conditions are required.
    await app.getByRole('combobox', { name: '希望する自治体' }).selectOption('');
    await app.getByRole('checkbox', { name: '介護を目的とした申し込みではありません' }).uncheck();
    await app.getByRole('button', { name: '登録する' }).click();
    await expect(app.getByText(defs.municipality['x-required-message'])).toBeVisible();
    await expect(app.getByText(defs.consent.errorMessage.const)).toBeVisible();
    await page.screenshot({ path: 'test-results/old-register-errors.png', fullPage: true });
    await app.getByRole('combobox', { name: '希望する自治体' }).selectOption('202011');
    await app.getByRole('checkbox', { name: '介護を目的とした申し込みではありません' }).check();

    await app.getByRole('button', { name: '登録する' }).click();
    // The dialog: registered, the application received with its number, what happens next.
    const dialog = app.getByRole('alertdialog');
    await expect(dialog).toContainText(messages.oldRegister.registered);
    const saved = await db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
    const application = await db.selectFrom('applications').selectAll().where('user_id', '=', saved.id).executeTakeFirstOrThrow();
    await expect(dialog).toContainText(messages.register.received);
    await expect(dialog).toContainText(`受付番号：${application.register_number}`);
    await expect(dialog).toContainText(messages.register.nextSteps.split('\n')[0]!);
    await page.screenshot({ path: 'test-results/old-register-received.png' });
    await app.getByRole('button', { name: 'OK' }).click();
    // The login page, in the parent site's frame: the member never meets the bare app.
    await expect(app.getByRole('heading', { name: '会員ログイン' })).toBeVisible();
    expect(frame.url()).toBe(`${E2E.appUrl}/user/login`);
    expect(new URL(page.url()).origin).toBe(E2E.parentUrl);
    await page.screenshot({ path: 'test-results/old-register-login-in-parent.png', fullPage: true });
    expect((await waitForMail(email, 2)).text).toContain(`受付番号：${application.register_number}`);
    expect(saved).toMatchObject({ city: '202011', zip_current: '3800001', phone: '09012345678', last_name_alpha: 'Tanaka', status: 'active' });

    // The used link now leads back to e-mail authentication.
    await frame.goto(appLink(link));
    await expect(app.getByRole('heading', { name: 'メールアドレス認証' })).toBeVisible();

    // The new member logs in on the old screen with the mailed code.
    await frame.goto(`${E2E.appUrl}/user/old/login`);
    await box(app, 'メールアドレス').fill(email);
    await app.getByRole('button', { name: '認証コードを送信' }).click();
    await expect(app.getByRole('status')).toContainText(email);
    const code = codeIn(await waitForMail(email, 3));
    await box(app, 'パスワード').fill(password);
    await box(app, '認証コード').fill(code);
    await app.getByRole('button', { name: 'ログイン', exact: true }).click();
    await expect(app.getByText('ようこそ、田中 一郎 様')).toBeVisible();
    await page.screenshot({ path: 'test-results/old-login-done.png', fullPage: true });
  });

  test('an expired, a forged and a missing key each land on /email-auth', async ({ page, db }) => {
    const email = newAddress();
    const { framed, link } = await requestLink(page, email);
    const { app, frame } = framed;
    await db.updateTable('registration_links').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('email', '=', email).execute();
    for (const target of [appLink(link), `${E2E.appUrl}/user/old/register?key=${randomBytes(32).toString('base64url')}`, `${E2E.appUrl}/user/old/register`]) {
      await frame.goto(target);
      await expect(app.getByRole('heading', { name: 'メールアドレス認証' })).toBeVisible();
      expect(frame.url()).toBe(`${E2E.appUrl}/user/email-auth`);
    }
  });
});

test.describe('a refused connection', () => {
  // Chromium reports the aborted request itself as a console error.
  test.use({ expectedConsoleErrors: /net::ERR_CONNECTION_FAILED/ });

  test('a failed link request is logged and the member sees that nothing was sent', async ({ page }) => {
  const { app } = await openFramed(page, '/email-auth');
  const logged: string[] = [];
  page.on('console', (message) => logged.push(message.text()));
  await page.route('**/v1/email/register', (route) => route.abort('connectionfailed'));
  await box(app, 'メールアドレス').fill(newAddress());
  await app.getByRole('button', { name: '会員登録用URLを送信' }).click();
  await expect(app.getByRole('alert')).toHaveText(messages.emailAuth.sendFailed.replace('{detail}', messages.emailAuth.sendFailedUnknown));
  expect(logged.some((line) => line.includes('registration link request failed'))).toBe(true);
  await expect(app.getByRole('alertdialog')).toHaveCount(0);
  });
});

test('master lists that fail or are not lists become empty lists, and the member is told', async ({ page }) => {
  const { framed, link } = await requestLink(page, newAddress());
  await page.route('**/v1/master/denshijiti', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: '{"not":"a list"}' }));
  await page.route('**/v1/master/options?master_name=job', (route) => route.fulfill({ status: 500, body: '' }));
  await framed.frame.goto(appLink(link));
  const { app } = framed;
  await expect(app.getByText(messages.oldRegister.mastersEmpty)).toBeVisible();
  for (const name of ['希望する自治体', '就業形態']) {
    await expect(app.getByRole('combobox', { name }).locator('option')).toHaveCount(1);
  }
  await expect(app.getByRole('combobox', { name: '職種' }).locator('option')).not.toHaveCount(1);
});

test.describe('old login and logout (phone, in the parent frame)', () => {
  // The communication-error alert is provoked by refusing the connection, which Chromium logs.
  test.use({ expectedConsoleErrors: /net::ERR_CONNECTION_FAILED/ });
  test('send-code waits for an e-mail, login for all three fields; success goes to /', async ({ page, member }) => {
    const { app } = await openFramed(page, '/old/login');
    const send = app.getByRole('button', { name: '認証コードを送信' });
    const login = app.getByRole('button', { name: 'ログイン', exact: true });
    await expect(send).toBeDisabled();
    await expect(login).toBeDisabled();
    await box(app, 'メールアドレス').fill(member.email);
    await expect(send).toBeEnabled();
    await expect(login).toBeDisabled();
    await box(app, 'メールアドレス').fill('');
    await expect(send).toBeDisabled();
    await box(app, 'メールアドレス').fill(member.email);
    await send.click();
    await expect(app.getByRole('status')).toContainText(member.email);
    const code = codeIn(await waitForMail(member.email));
    await box(app, 'パスワード').fill(member.password);
    await expect(login).toBeDisabled();
    await box(app, '認証コード').fill(code.slice(0, 4));
    await expect(login).toBeEnabled(); // filled, though not yet 5 digits: the form then says so
    await box(app, '認証コード').fill(code);
    await expect(login).toBeEnabled();
    await page.screenshot({ path: 'test-results/old-login-ready.png' });
    await login.click();
    await expect(app.getByText('ようこそ、山田 花子 様')).toBeVisible();
  });

  test('its alerts: a refused login, no token in the answer, a communication error', async ({ page, member }) => {
    const framed = await openFramed(page, '/old/login');
    const { app } = framed;
    await box(app, 'メールアドレス').fill(member.email);
    await box(app, 'パスワード').fill('Wrong-Pass-1!');
    await box(app, '認証コード').fill('12345');
    const login = app.getByRole('button', { name: 'ログイン', exact: true });
    await login.click();
    await expect(app.getByRole('alertdialog')).toContainText('ログインに失敗しました。');
    await app.getByRole('button', { name: 'OK' }).click();

    await page.route('**/v1/user/login', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: '{}' }));
    await login.click();
    await expect(app.getByRole('alertdialog')).toHaveText(new RegExp(messages.oldLogin.noToken.replace(/[()（）]/g, '.')));
    await app.getByRole('button', { name: 'OK' }).click();

    await page.unroute('**/v1/user/login');
    await page.route('**/v1/user/login', (route) => route.abort('connectionfailed'));
    await login.click();
    await expect(app.getByRole('alertdialog')).toHaveText(new RegExp(messages.oldLogin.network.replace(/[()（）]/g, '.')));
  });

  test('old logout ends the server session, removes token and cookies, then shows /login', async ({ page, member, db }) => {
    const { app, frame } = await openFramed(page, '/old/login');
    await box(app, 'メールアドレス').fill(member.email);
    await app.getByRole('button', { name: '認証コードを送信' }).click();
    await box(app, 'パスワード').fill(member.password);
    await box(app, '認証コード').fill(codeIn(await waitForMail(member.email)));
    await app.getByRole('button', { name: 'ログイン', exact: true }).click();
    await expect(app.getByText('ようこそ、山田 花子 様')).toBeVisible();
    expect(await frame.evaluate(() => localStorage.getItem('token'))).toBeTruthy();

    await frame.goto(`${E2E.appUrl}/user/old/logout`);
    await expect(app.getByRole('heading', { name: '会員ログイン' })).toBeVisible();
    expect(frame.url()).toBe(`${E2E.appUrl}/user/login`);
    expect(await frame.evaluate(() => localStorage.getItem('token'))).toBeNull();
    expect(await frame.evaluate(() => document.cookie)).not.toMatch(/ak_logged_in|ak_login_exp/);
    const live = await db.selectFrom('sessions').select('token_hash').where('user_id', '=', member.id).where('revoked_at', 'is', null).execute();
    expect(live).toEqual([]);
  });
});
