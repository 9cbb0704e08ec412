import { test, expect, waitForMail, codeIn, typeCode } from './support/fixtures';
import { E2E } from './support/stack-env';
import { openFramed } from './support/framed';
import { expectAccessible } from './support/axe';
import { format, labels, messages, rulesOf, screenTitle, submitText, welcome } from './support/texts';
import { recordCheck } from './support/scripted-checks';

// The member reads the screen's title; the id appears only in the log (the error React reports).
const pageTitle = (path: string) => format(messages.app.titleFormat, { title: screenTitle(path), site: messages.site.name });
const chunkFailed = format(messages.app.chunkFailed, { title: screenTitle('password_reminder') });

test('the parent site shows the app in its iframe, sized from the height messages, takes its screen\'s title, and login works inside it', async ({ page, member }) => {
  // Neither the parent's page nor the app in its frame logs an error (a missing favicon did).
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`${message.text()} (${message.location().url})`);
  });
  await page.goto(E2E.parentUrl + '/');
  const frame = page.frameLocator('#member-frame');
  await expect(frame.getByRole('heading', { name: screenTitle('mypage') }).or(frame.getByRole('heading', { name: screenTitle('login') }))).toBeVisible();
  await expect(frame.getByRole('heading', { name: screenTitle('login') })).toBeVisible();
  const height = async () => page.locator('#member-frame').evaluate((el) => parseInt((el as HTMLElement).style.height, 10));
  await expect.poll(height).toBeGreaterThanOrEqual(800);
  // The parent page's title is the screen's, as the app reports it (it starts as the site's name).
  await expect(page).toHaveTitle(pageTitle('login'));
  recordCheck('page-title', 'the parent page on /login');
  // A title message from any other origin (here the parent page itself) is ignored.
  const afterForeign = await page.evaluate(
    () =>
      new Promise<string>((resolve) => {
        // Listeners run in the order they were added: parent.js's has handled the message by now.
        window.addEventListener('message', (event) => event.data?.title === 'forged' && resolve(document.title));
        window.postMessage({ type: 'member-site:title', title: 'forged' }, '*');
      }),
  );
  expect(afterForeign).toBe(pageTitle('login'));

  await frame.getByLabel(labels('login').email).fill(member.email);
  await frame.getByLabel(labels('login').password).fill(member.password);
  await frame.getByRole('button', { name: submitText('login'), exact: true }).click();
  await typeCode(frame, codeIn(await waitForMail(member.email)));
  await frame.getByRole('button', { name: submitText('login-code') }).click();
  await expect(frame.getByText(welcome('山田 花子'))).toBeVisible();
  await expect(page).toHaveTitle(pageTitle('mypage'));
  recordCheck('page-title', 'the parent page on /mypage');

  await frame.getByRole('link', { name: messages.mypage.logout }).click();
  await expect(page).toHaveURL(E2E.parentUrl + '/');
  await expect(frame.getByRole('heading', { name: screenTitle('login') })).toBeVisible();
  await expect(page).toHaveTitle(pageTitle('login'));
  expect(errors).toEqual([]);
});

test('the app answers with the strict CSP and runs under it without violations', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') violations.push(message.text());
  });
  const response = await page.goto('/user/login');
  const csp = response!.headers()['content-security-policy'];
  expect(csp).toContain("script-src 'self'");
  expect(csp).not.toContain('unsafe-eval');
  expect(csp).toContain(`frame-ancestors 'self' ${E2E.parentUrl}`);
  expect(csp).toContain("object-src 'none'");
  expect(csp).toContain("base-uri 'none'");
  await page.getByRole('button', { name: submitText('login'), exact: true }).click();
  await expect(page.locator('.field__errors').getByText(rulesOf('login').required('email'))).toBeVisible();
  expect(violations).toEqual([]);
});

test('an unknown path goes to the root, which for a visitor is the login page', async ({ page }) => {
  await page.goto('/user/no/such/page');
  await expect(page).toHaveURL(/\/user\/login$/);
});

test.describe('a failing chunk', () => {
  // The aborted request and the error the boundary catches are what this test is about.
  test.use({ expectedConsoleErrors: /net::ERR_FAILED|ERR_ABORTED|Screen chunk "password-reminder" failed to load/ });
  test('a screen chunk that fails to load shows an error naming the screen by its title, not its id', async ({ page }) => {
    await page.route(/\/user\/assets\/password-reminder-.*\.js$/, (route) => route.abort());
    const framed = await openFramed(page, '/login');
    await framed.app.getByRole('link', { name: messages.login.forgotPassword }).click();
    const alert = framed.app.getByRole('alert');
    await expect(alert).toContainText(chunkFailed);
    await expect(alert).not.toContainText('password-reminder');
    await expectAccessible(page, 'a screen chunk that failed');
  });
});
