// Issue 21 point 4 at phone size in the parent frame, on the stack whose sessions last
// SHORT.sessionSeconds: the warning before the end, extending it on the server, and a session
// that runs out during an edit, whose input comes back after logging in again.
import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { test, expect } from './support/fixtures';
import { SHORT } from './support/stack-env';
import { loginInFrame, openFramed, type Framed } from './support/framed';
import { expectAccessible } from './support/axe';
import { format, labels, messages, screenTitle, submitText, welcome } from './support/texts';
import { openDb } from '../src/server/db/connect';
import { createMember } from '../src/server/seed';

const text = messages.session;
const profile = labels('edit-profile');
/** The warning's lead on this stack: a fifth of SESSION_SECONDS (under 5 minutes). */
const LEAD_MS = (SHORT.sessionSeconds * 1000) / 5;
const DETAIL = '週末ごとに長野県の古民家に滞在して、地域の方と一緒に米づくりや祭りの準備に取り組みたいと考えています。';

async function shortMember() {
  const db = openDb({ dataDir: SHORT.dataDir });
  const member = { email: `warn-${randomUUID().slice(0, 8)}@example.com`, password: 'Sample-Pass1!' };
  await createMember(db, member.email, member.password);
  await db.destroy();
  return member;
}

/** Logs in inside the parent frame of the short stack and opens the edit screen. */
async function editInFrame(page: Page, member: { email: string; password: string }): Promise<Framed> {
  const framed = await openFramed(page, '/login', SHORT);
  await loginInFrame(page, framed, member, 1, SHORT);
  await expect(framed.app.getByText(welcome())).toBeVisible();
  await framed.frame.goto(`${SHORT.appUrl}/user/edit`);
  await expect(framed.app.getByRole('heading', { name: screenTitle('edit'), level: 1 })).toBeVisible();
  return framed;
}

/** The idle end this device holds (the ak_login_exp cookie), in epoch ms. */
async function idleEnd(framed: Framed): Promise<number> {
  return framed.frame.evaluate(() => Number(/(?:^|; )ak_login_exp=(\d+)/.exec(document.cookie)?.[1] ?? 0) * 1000);
}

test.setTimeout(200_000);

test('the warning comes before the end with the time left; extending it on the server keeps the member working', async ({ page }) => {
  const member = await shortMember();
  const framed = await editInFrame(page, member);
  const { app } = framed;
  const firstEnd = await idleEnd(framed);
  expect(firstEnd).toBeGreaterThan(Date.now());

  const warning = app.getByRole('alertdialog', { name: text.warningTitle });
  // Not early: a moment before the lead, no dialog yet.
  await page.waitForTimeout(Math.max(0, firstEnd - LEAD_MS - Date.now() - 1500));
  await expect(warning).toHaveCount(0);
  await expect(warning).toBeVisible({ timeout: LEAD_MS + 3000 });
  await expect(warning).toContainText(format(text.warningBody, { extend: text.extend }));
  await expect(warning.getByRole('timer')).toContainText(text.remaining.replace('{time}', ''));
  // Focus is held in the dialog, on its first button; Tab cycles between its two buttons.
  const extend = warning.getByRole('button', { name: text.extend });
  await expect(extend).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(warning.getByRole('button', { name: text.logout })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(extend).toBeFocused();

  const extendCall = page.waitForResponse((response) => response.url().endsWith('/v1/user/session/extend'));
  await extend.click();
  expect((await extendCall).status()).toBe(200);
  await expect(warning).toHaveCount(0);
  expect(await idleEnd(framed)).toBeGreaterThan(firstEnd + 2000);

  // Past the first end, the member goes on: the server still knows the session.
  await page.waitForTimeout(Math.max(0, firstEnd - Date.now() + 1000));
  await expect(app.getByRole('alertdialog')).toHaveCount(0);
  await app.getByRole('textbox', { name: profile.purpose_detail, exact: true }).fill(DETAIL);
  await app.getByRole('button', { name: submitText('edit-profile') }).click();
  await expect(app.getByRole('alertdialog')).toContainText(messages.edit.done);
  await app.getByRole('button', { name: messages.common.ok }).click();
  await expect.poll(() => new URL(framed.frame.url()).pathname).toBe('/user/mypage');

  // The next warning, checked with axe; its logout button logs out (and leaves for the site top).
  await expect(warning).toBeVisible({ timeout: SHORT.sessionSeconds * 1000 });
  await expectAccessible(page, 'the session warning in the frame');
  await warning.getByRole('button', { name: text.logout }).click();
  // The logout screen ends the session, then the parent shows its top (the app's login page).
  await expect(app.getByRole('heading', { name: screenTitle('login'), level: 1 })).toBeVisible();
  const appFrame = () => page.frames().find((f) => f.url().startsWith(`${SHORT.appUrl}/user/`));
  await expect.poll(async () => appFrame()?.evaluate(() => localStorage.getItem('token'))).toBeNull();
});

test('the session runs out during an edit: the dialog says why, login brings the member back to the edit with what they typed, and says so', async ({ page }) => {
  const member = await shortMember();
  const framed = await editInFrame(page, member);
  const { app } = framed;
  const detail = app.getByRole('textbox', { name: profile.purpose_detail, exact: true });
  await detail.fill(DETAIL);

  await expect(app.getByRole('alertdialog', { name: text.warningTitle })).toBeVisible({ timeout: SHORT.sessionSeconds * 1000 });
  const ended = app.getByRole('alertdialog', { name: text.expiredTitle });
  await expect(ended).toBeVisible({ timeout: LEAD_MS + 3000 });
  await expect(ended).toContainText(text.expiredIdleBody);
  await expect(ended.getByRole('button', { name: text.toLogin })).toBeFocused();
  // Nothing behind it can be reached, and Escape does not close it (closing would leave a dead page).
  await page.keyboard.press('Escape');
  await expect(ended).toBeVisible();
  expect(await framed.frame.evaluate(() => localStorage.getItem('token'))).toBeNull();
  await expectAccessible(page, 'the session-ended dialog in the frame');

  await ended.getByRole('button', { name: text.toLogin }).click();
  await expect(app.getByRole('heading', { name: screenTitle('login'), level: 1 })).toBeVisible();
  await expect(app.getByRole('status').filter({ hasText: text.expiredIdleBody })).toBeVisible();
  await loginInFrame(page, framed, member, 2, SHORT);

  // Back at the edit with what was typed, not the saved value, and a note saying so.
  await expect.poll(() => new URL(framed.frame.url()).pathname).toBe('/user/edit');
  await expect(app.getByRole('status').filter({ hasText: text.draftRestored })).toBeVisible();
  await expect(detail).toHaveValue(DETAIL);
  const stored = await framed.frame.evaluate(() => JSON.stringify(Object.entries(sessionStorage)));
  expect(stored).toContain('member-site:draft:edit');
  expect(stored).not.toContain(member.password);
  await expectAccessible(page, 'the edit with its restored draft');

  // Saving clears the draft: the next visit shows the saved values, without the note.
  await app.getByRole('button', { name: submitText('edit-profile') }).click();
  await expect(app.getByRole('alertdialog')).toContainText(messages.edit.done);
  await app.getByRole('button', { name: messages.common.ok }).click();
  await expect.poll(() => new URL(framed.frame.url()).pathname).toBe('/user/mypage');
  expect(await framed.frame.evaluate(() => sessionStorage.getItem('member-site:draft:edit'))).toBeNull();
  await framed.frame.goto(`${SHORT.appUrl}/user/edit`);
  await expect(detail).toHaveValue(DETAIL);
  await expect(app.getByText(text.draftRestored)).toHaveCount(0);
});
