// The earlier generation in the browser, at phone size inside the parent frame, with the real
// link and code from the mail catcher: e-mail authentication → the mailed link → the old
// registration form (its own rules at their edges) → login on the old screen; bad links back to
// /email-auth; the old login's button states and alerts; the old logout.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Frame, FrameLocator, Locator, Page } from '@playwright/test';
import { test, expect, waitForMail, mailsTo, codeIn, wrongCode, type CaughtMail } from './support/fixtures';
import { frameSettled, openFramed, PHONE, type Framed } from './support/framed';
import { E2E } from './support/stack-env';
import { fillDate } from './support/register';
import { CODE_LENGTH, format, labels, mailSubject, messages, placeholder, rulesOf, screenTitle, submitText, welcome } from './support/texts';

const oldForm = rulesOf('old-register');
const authLabels = labels('email-auth');
const registerLabels = labels('old-register');
const loginLabels = labels('old-login');
const detailLength = { min: oldForm.limit('purpose_detail', 'minLength'), max: oldForm.limit('purpose_detail', 'maxLength') };
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

/** The document of the iframe `element`, once it has one (within 10 s). */
async function frameIn(element: Locator): Promise<Frame> {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 50))) {
    const frame = await (await element.elementHandle())?.contentFrame();
    if (frame) return frame;
  }
  throw new Error('The parent page\'s frame has no document');
}

/** Opens the mailed link as a member does, at phone size: the parent site, the app in its frame. */
async function openLink(page: Page, link: string): Promise<Framed> {
  await page.setViewportSize(PHONE);
  await page.goto(link);
  const element = page.locator('#member-frame');
  // The parent's script gives the frame its path after the page loads: until then the element
  // may have no document yet (CI once met that race).
  const frame = await frameIn(element);
  await frame.waitForURL(/\/user\/(old\/register|email-auth)/);
  return { frame, app: page.frameLocator('#member-frame'), element };
}

/** E-mail authentication in the frame; returns the link from the mail. */
async function requestLink(page: Page, email: string): Promise<{ framed: Framed; link: string }> {
  const framed = await openFramed(page, '/email-auth');
  const { app } = framed;
  await expect(app.getByRole('heading', { name: screenTitle('email-auth') })).toBeVisible();
  await expect(box(app, authLabels.email)).toHaveAttribute('type', 'email');
  await expect(box(app, authLabels.email)).toHaveAttribute('placeholder', placeholder('email-auth', 'email'));
  await box(app, authLabels.email).fill(email);
  await app.getByRole('button', { name: submitText('email-auth') }).click();
  await expect(app.getByRole('alertdialog')).toContainText(messages.emailAuth.sent);
  await app.getByRole('button', { name: messages.common.ok }).click();
  const mail = await waitForMail(email);
  expect(mail.subject).toBe(mailSubject('registerLink'));
  return { framed, link: linkIn(mail) };
}

/** Every field of the old form, valid (each old rule exactly at an edge that passes). */
async function fillOldForm(app: FrameLocator, password: string) {
  await box(app, registerLabels.password).fill(password);
  await box(app, registerLabels.password_confirm).fill(password);
  await box(app, registerLabels.last_name_kanji).fill('田中');
  await box(app, registerLabels.first_name_kanji).fill('一郎');
  await box(app, registerLabels.last_name_alphabet).fill('Tanaka');
  await box(app, registerLabels.first_name_alphabet).fill('Ichiro');
  await fillDate(app, registerLabels.birthday, '1980', '2', '29');
  await app.getByRole('radio', { name: '男性' }).check();
  await app.getByRole('combobox', { name: registerLabels.job }).selectOption({ label: '自営業・フリーランス' });
  await box(app, registerLabels.zip_current).fill('3800001');
  await box(app, registerLabels.address_current).fill('長野県長野市大字長野1-1');
  await box(app, registerLabels.phone).fill('09012345678');
  await app.getByRole('checkbox', { name: 'テレワーク・ワーケーション' }).check();
  await box(app, registerLabels.purpose_detail).fill('あ'.repeat(detailLength.min));
  await app.getByRole('combobox', { name: registerLabels.city }).selectOption('202011');
  for (const name of [registerLabels.condition_no_home, registerLabels.condition_not_single_transfer, registerLabels.condition_not_care]) {
    await app.getByRole('checkbox', { name }).check();
  }
}

test.describe('registration by e-mailed link (phone, in the parent frame)', () => {
  test('e-mail authentication refuses a malformed address with the site\'s e-mail message and sends nothing', async ({ page }) => {
    const { app } = await openFramed(page, '/email-auth');
    const address = `bad-${randomUUID().slice(0, 8)}@example`;
    await box(app, authLabels.email).fill(address);
    await app.getByRole('button', { name: submitText('email-auth') }).click();
    const malformed = rulesOf('email-auth').message('email', 'pattern');
    await expect(app.locator('.field__errors').getByText(malformed)).toBeVisible();
    await box(app, authLabels.email).fill(`${address}.jp`);
    await expect(app.locator('.field__errors').getByText(malformed)).toHaveCount(0);
    expect(await mailsTo(address)).toEqual([]);
    await page.screenshot({ path: 'test-results/old-email-auth.png', fullPage: true });
  });

  test('a new visitor registers through the link, with every old rule at its edge, then logs in on the old screen', async ({ page, db }) => {
    const email = newAddress();
    const password = 'Shinshu-2026!';
    const { link } = await requestLink(page, email);
    // The link opens the parent site with the old registration screen in its frame.
    expect(link.startsWith(`${E2E.parentUrl}/?path=/user/old/register?key=`)).toBe(true);
    const framed = await openLink(page, link);
    const { app, frame } = framed;
    expect(page.url()).toBe(link);
    await expect(app.getByRole('heading', { name: screenTitle('old/register') })).toBeVisible();
    await expect(app.getByText(format(messages.oldRegister.verifiedAddress, { email }))).toBeVisible();
    await expect(box(app, registerLabels.email)).toHaveValue(email);
    await expect(box(app, registerLabels.email)).toHaveAttribute('readonly', '');
    await page.screenshot({ path: 'test-results/old-register-top.png' });

    await fillOldForm(app, password);
    // Each old rule one step past its edge shows its own message; at the edge it passes.
    const edges: Array<[string, string, string, string]> = [
      [registerLabels.zip_current, '380-00011', oldForm.message('zip_current', 'pattern'), '380-0001'], // hyphens are taken (issue 21)
      [registerLabels.phone, '0901234567', oldForm.message('phone', 'pattern'), '09012345678'],
      // Letters only (the old flow's rule), yet a hyphenated name is taken without its hyphen.
      [registerLabels.last_name_alphabet, 'Tanaka2', oldForm.message('last_name_alphabet', 'pattern'), 'Smith-Jones'],
      [registerLabels.purpose_detail, 'あ'.repeat(detailLength.min - 1), oldForm.message('purpose_detail', 'minLength'), 'あ'.repeat(detailLength.min)],
      [registerLabels.purpose_detail, 'あ'.repeat(detailLength.max + 1), oldForm.message('purpose_detail', 'maxLength'), 'あ'.repeat(detailLength.max)],
    ];
    for (const [name, bad, message, good] of edges) {
      await box(app, name).fill(bad);
      await box(app, name).blur();
      await expect(app.locator('.field__errors').getByText(message, { exact: true })).toBeVisible();
      await box(app, name).fill(good);
      await expect(app.locator('.field__errors').getByText(message, { exact: true })).toHaveCount(0);
    }
    await expect(app.getByText(format(messages.form.storedAs, { value: 'SMITHJONES' }))).toBeVisible();
    await box(app, registerLabels.address_current).fill('長野県長野市大字長野1-1');
    // The municipality and the three conditions are required.
    await app.getByRole('combobox', { name: registerLabels.city }).selectOption('');
    await app.getByRole('checkbox', { name: registerLabels.condition_not_care }).uncheck();
    await app.getByRole('button', { name: submitText('old-register') }).click();
    await expect(app.locator('.field__errors').getByText(oldForm.required('city'))).toBeVisible();
    await expect(app.locator('.field__errors').getByText(oldForm.message('condition_not_care', 'const'))).toBeVisible();
    await page.screenshot({ path: 'test-results/old-register-errors.png', fullPage: true });
    await app.getByRole('combobox', { name: registerLabels.city }).selectOption('202011');
    // The city's error goes, the page gets shorter and the parent shrinks the frame a moment later,
    // which moves what is near the foot: aim once it has (a CI run clicked before, and missed).
    await frameSettled(framed);
    await app.getByRole('checkbox', { name: registerLabels.condition_not_care }).check();
    // The last error went with it, and the summary at the top with that: the frame shrinks again.
    await frameSettled(framed);
    await app.getByRole('button', { name: submitText('old-register') }).click();
    // The dialog: registered, the application received with its number, what happens next.
    const dialog = app.getByRole('alertdialog');
    await expect(dialog).toContainText(messages.oldRegister.registered);
    const saved = await db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
    const application = await db.selectFrom('applications').selectAll().where('user_id', '=', saved.id).executeTakeFirstOrThrow();
    const number = format(messages.register.registerNumber, { registerNumber: application.register_number });
    await expect(dialog).toContainText(messages.register.received);
    await expect(dialog).toContainText(number);
    await expect(dialog).toContainText(messages.register.nextSteps.split('\n')[0]!);
    await page.screenshot({ path: 'test-results/old-register-received.png' });
    await app.getByRole('button', { name: messages.common.ok }).click();
    // The login page, in the parent site's frame: the member never meets the bare app.
    await expect(app.getByRole('heading', { name: screenTitle('login') })).toBeVisible();
    expect(frame.url()).toBe(`${E2E.appUrl}/user/login`);
    expect(new URL(page.url()).origin).toBe(E2E.parentUrl);
    await page.screenshot({ path: 'test-results/old-register-login-in-parent.png', fullPage: true });
    expect((await waitForMail(email, 2)).text).toContain(number);
    expect(saved).toMatchObject({ city: '202011', zip_current: '3800001', phone: '09012345678', last_name_alpha: 'SMITHJONES', first_name_alpha: 'ICHIRO', status: 'active' });

    // The used link now leads back to e-mail authentication.
    await frame.goto(appLink(link));
    await expect(app.getByRole('heading', { name: screenTitle('email-auth') })).toBeVisible();

    // The new member logs in on the old screen with the mailed code.
    await frame.goto(`${E2E.appUrl}/user/old/login`);
    await box(app, loginLabels.email).fill(email);
    await app.getByRole('button', { name: messages.oldLogin.sendCode }).click();
    await expect(app.getByRole('status').filter({ hasText: format(messages.oldLogin.codeSent, { email }) })).toBeVisible();
    const code = codeIn(await waitForMail(email, 3));
    await box(app, loginLabels.password).fill(password);
    await box(app, loginLabels.code).fill(code);
    await app.getByRole('button', { name: messages.oldLogin.login, exact: true }).click();
    await expect(app.getByText(welcome('田中 一郎'))).toBeVisible();
    await page.screenshot({ path: 'test-results/old-login-done.png', fullPage: true });
  });

  test('an expired, a forged and a missing key each land on /email-auth', async ({ page, db }) => {
    const email = newAddress();
    const { framed, link } = await requestLink(page, email);
    const { app, frame } = framed;
    await db.updateTable('registration_links').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('email', '=', email).execute();
    for (const target of [appLink(link), `${E2E.appUrl}/user/old/register?key=${randomBytes(32).toString('base64url')}`, `${E2E.appUrl}/user/old/register`]) {
      await frame.goto(target);
      await expect(app.getByRole('heading', { name: screenTitle('email-auth') })).toBeVisible();
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
  await box(app, authLabels.email).fill(newAddress());
  await app.getByRole('button', { name: submitText('email-auth') }).click();
  await expect(app.getByRole('alert')).toHaveText(format(messages.emailAuth.sendFailed, { detail: messages.emailAuth.sendFailedUnknown }));
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
  for (const name of [registerLabels.city, registerLabels.job]) {
    await expect(app.getByRole('combobox', { name }).locator('option')).toHaveCount(1);
  }
  await expect(app.getByRole('combobox', { name: registerLabels.industry }).locator('option')).not.toHaveCount(1);
});

test.describe('old login and logout (phone, in the parent frame)', () => {
  // The communication-error alert is provoked by refusing the connection, which Chromium logs.
  test.use({ expectedConsoleErrors: /net::ERR_CONNECTION_FAILED/ });
  test('send-code waits for an e-mail, login for all three fields; success goes to /', async ({ page, member }) => {
    const { app } = await openFramed(page, '/old/login');
    const send = app.getByRole('button', { name: messages.oldLogin.sendCode });
    const login = app.getByRole('button', { name: messages.oldLogin.login, exact: true });
    await expect(send).toBeDisabled();
    await expect(login).toBeDisabled();
    await box(app, loginLabels.email).fill(member.email);
    await expect(send).toBeEnabled();
    await expect(login).toBeDisabled();
    await box(app, loginLabels.email).fill('');
    await expect(send).toBeDisabled();
    await box(app, loginLabels.email).fill(member.email);
    await send.click();
    await expect(app.getByRole('status').filter({ hasText: format(messages.oldLogin.codeSent, { email: member.email }) })).toBeVisible();
    const code = codeIn(await waitForMail(member.email));
    await box(app, loginLabels.password).fill(member.password);
    await expect(login).toBeDisabled();
    await box(app, loginLabels.code).fill(code.slice(0, CODE_LENGTH - 1));
    await expect(login).toBeEnabled(); // filled, though not yet all its digits: the form then says so
    await box(app, loginLabels.code).fill(code);
    await expect(login).toBeEnabled();
    await page.screenshot({ path: 'test-results/old-login-ready.png' });
    await login.click();
    await expect(app.getByText(welcome('山田 花子'))).toBeVisible();
  });

  test('its alerts: a refused login, no token in the answer, a communication error', async ({ page, member }) => {
    const framed = await openFramed(page, '/old/login');
    const { app } = framed;
    await box(app, loginLabels.email).fill(member.email);
    await box(app, loginLabels.password).fill('Wrong-Pass-1!');
    await box(app, loginLabels.code).fill(wrongCode());
    const login = app.getByRole('button', { name: messages.oldLogin.login, exact: true });
    await login.click();
    await expect(app.getByRole('alertdialog')).toContainText(messages.oldLogin.rejected);
    await app.getByRole('button', { name: messages.common.ok }).click();

    await page.route('**/v1/user/login', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: '{}' }));
    await login.click();
    await expect(app.getByRole('alertdialog')).toContainText(messages.oldLogin.noToken);
    await app.getByRole('button', { name: messages.common.ok }).click();

    await page.unroute('**/v1/user/login');
    await page.route('**/v1/user/login', (route) => route.abort('connectionfailed'));
    await login.click();
    await expect(app.getByRole('alertdialog')).toContainText(messages.oldLogin.network);
  });

  test('old logout ends the server session, removes token and cookies, then shows /login', async ({ page, member, db }) => {
    const { app, frame } = await openFramed(page, '/old/login');
    await box(app, loginLabels.email).fill(member.email);
    await app.getByRole('button', { name: messages.oldLogin.sendCode }).click();
    await box(app, loginLabels.password).fill(member.password);
    await box(app, loginLabels.code).fill(codeIn(await waitForMail(member.email)));
    await app.getByRole('button', { name: messages.oldLogin.login, exact: true }).click();
    await expect(app.getByText(welcome('山田 花子'))).toBeVisible();
    expect(await frame.evaluate(() => localStorage.getItem('token'))).toBeTruthy();

    await frame.goto(`${E2E.appUrl}/user/old/logout`);
    await expect(app.getByRole('heading', { name: screenTitle('login') })).toBeVisible();
    expect(frame.url()).toBe(`${E2E.appUrl}/user/login`);
    expect(await frame.evaluate(() => localStorage.getItem('token'))).toBeNull();
    expect(await frame.evaluate(() => document.cookie)).not.toMatch(/ak_logged_in|ak_login_exp/);
    const live = await db.selectFrom('sessions').select('token_hash').where('user_id', '=', member.id).where('revoked_at', 'is', null).execute();
    expect(live).toEqual([]);
  });
});
