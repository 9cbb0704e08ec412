// Defect 1 of issue 10: a session the server has ended, with the token still stored, must end
// once on this device and take the member to login (not loop on my page asking again and again).
import type { Page } from '@playwright/test';
import { test, expect } from './support/fixtures';
import { E2E } from './support/stack-env';
import { frameHeight, loginInFrame, myPageLoaded, openFramed } from './support/framed';
import { messages, screenTitle, welcome } from './support/texts';

/** Counts the member API calls (GET/POST/PUT under /v1/user/) the page makes from now on. */
function countMemberCalls(page: Page) {
  const seen: string[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith(`${E2E.appUrl}/v1/user/`)) seen.push(`${request.method()} ${new URL(request.url()).pathname}`);
  });
  return seen;
}

/** Ends the member's session on the server (as logout in another tab does), keeping the token here. */
async function endSessionElsewhere(token: string) {
  const response = await fetch(`${E2E.appUrl}/v1/user/logout`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
  expect(response.status).toBeLessThan(300);
}

for (const path of ['/mypage', '/info', '/edit', '/email/change']) {
  test(`a session ended elsewhere: ${path} goes to login once with a notice, then back to ${path}`, async ({ page, member }) => {
    const framed = await openFramed(page);
    await loginInFrame(page, framed, member);
    await expect(framed.app.getByText(welcome())).toBeVisible();
    const token = await framed.frame.evaluate(() => localStorage.getItem('token'));
    await endSessionElsewhere(token!);

    const calls = countMemberCalls(page);
    await framed.frame.goto(`${E2E.appUrl}/user${path}`);
    await expect(framed.app.getByRole('status').filter({ hasText: messages.login.sessionEnded })).toBeVisible();
    await expect(framed.app.getByRole('heading', { name: screenTitle('login') })).toBeVisible();
    expect(framed.frame.url()).toMatch(/\/user\/login$/);
    // One call per thing the screen loads, and none after: no render loop, no retries.
    await page.waitForTimeout(1500);
    expect(calls.length, calls.join('\n')).toBeLessThanOrEqual(3);
    expect(await framed.frame.evaluate(() => localStorage.getItem('token'))).toBeNull();
    const cookies = await page.context().cookies(E2E.appUrl);
    expect(cookies.find((c) => c.name === 'ak_logged_in')).toBeUndefined();
    expect(cookies.find((c) => c.name === 'ak_login_exp')).toBeUndefined();
    expect(await frameHeight(framed)).toBeLessThan(1400);

    // Logging in again returns the member where they were going.
    await loginInFrame(page, framed, member, 2);
    await expect.poll(() => new URL(framed.frame.url()).pathname).toBe(`/user${path}`);
  });
}

test('logout with a session that already ended goes to the site top without a storm of calls', async ({ page, member }) => {
  const framed = await openFramed(page);
  await loginInFrame(page, framed, member);
  await myPageLoaded(framed);
  await endSessionElsewhere((await framed.frame.evaluate(() => localStorage.getItem('token')))!);
  const calls = countMemberCalls(page);
  await framed.app.getByRole('link', { name: messages.mypage.logout }).click();
  await expect(page).toHaveURL(`${E2E.parentUrl}/`);
  await expect(framed.app.getByRole('heading', { name: screenTitle('login') })).toBeVisible();
  expect(calls.filter((c) => c !== 'POST /v1/user/logout'), calls.join('\n')).toEqual([]);
});
