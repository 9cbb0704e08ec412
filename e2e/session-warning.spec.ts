// Issue 21 point 4 and issue 35 point 7 at phone size in the parent frame, on the stack whose
// sessions last SHORT.sessionSeconds: the warning 20 s before the end (WCAG 2.2.1's least, more
// than the fifth of a short session), extending it on the server, typing that extends the
// session quietly (docs/decisions/037), and a session that runs out during an edit, whose input
// comes back after logging in again.
// Time passes by travel, not by waiting: the page's clock (Playwright's page.clock, which drives
// the app's timer and Date.now in the frame) moves on, and the member's sessions in the short
// stack's database are moved back by as much, so the device and the server agree that the time
// went by. What the server says about a session depends on nothing else.
import { randomUUID } from 'node:crypto';
import type { Page, Request } from '@playwright/test';
import { test, expect } from './support/fixtures';
import { SHORT } from './support/stack-env';
import { loginInFrame, openFramed, type Framed } from './support/framed';
import { expectAccessible } from './support/axe';
import { escapeRegExp, format, labels, messages, screenTitle, submitText, textPattern, welcome } from './support/texts';
import { openDb } from '../src/server/db/connect';
import { createMember } from '../src/server/seed';
import demoProfile from '../src/server/demo-profile.json' with { type: 'json' };
import { recordCheck } from './support/scripted-checks';

const text = messages.session;
const profile = labels('edit-profile');
/** The warning's lead on this stack: 20 s (a fifth of SESSION_SECONDS would be 12 s). */
const LEAD_MS = 20_000;
const DETAIL = '週末ごとに長野県の古民家に滞在して、地域の方と一緒に米づくりや祭りの準備に取り組みたいと考えています。';
const EXTEND_PATH = '/v1/user/session/extend';

type Member = { id: string; email: string; password: string };

async function shortMember(): Promise<Member> {
  const db = openDb({ dataDir: SHORT.dataDir });
  const email = `warn-${randomUUID().slice(0, 8)}@example.com`;
  const password = 'Sample-Pass1!';
  const id = await createMember(db, email, password);
  await db.destroy();
  return { id, email, password };
}

/** The member's sessions as if `ms` had passed: every time they hold moved back by `ms`. */
async function ageSessions(member: Member, ms: number) {
  const back = (at: string) => new Date(Date.parse(at) - ms).toISOString();
  const db = openDb({ dataDir: SHORT.dataDir });
  try {
    const sessions = await db.selectFrom('sessions').select(['token_hash', 'created_at', 'expires_at', 'ends_at']).where('user_id', '=', member.id).execute();
    for (const session of sessions) {
      await db
        .updateTable('sessions')
        .set({ created_at: back(session.created_at), expires_at: back(session.expires_at), ends_at: session.ends_at && back(session.ends_at) })
        .where('token_hash', '=', session.token_hash)
        .execute();
    }
  } finally {
    await db.destroy();
  }
}

/** Installs the page's clock. `travel` lets `ms` pass for the app and the server alike, once no
 *  API call is on its way (its answer, which moves the session's timer, would be read on the
 *  other side of the jump); `extendCalls` counts the extend calls the page made. */
async function timeMachine(page: Page, member: Member) {
  await page.clock.install();
  const inFlight = new Set<Request>();
  let calls = 0;
  page.on('request', (request) => {
    if (!request.url().includes('/v1/')) return;
    if (request.url().endsWith(EXTEND_PATH)) calls++;
    inFlight.add(request);
  });
  page.on('requestfinished', (request) => inFlight.delete(request));
  page.on('requestfailed', (request) => inFlight.delete(request));
  const travel = async (ms: number) => {
    await expect.poll(() => inFlight.size).toBe(0);
    await ageSessions(member, ms);
    await page.clock.fastForward(Math.max(0, Math.round(ms)));
  };
  return { travel, extendCalls: () => calls };
}

/** Logs in inside the parent frame of the short stack and opens the edit screen, with the
 *  member's data loaded. */
async function editInFrame(page: Page, member: Member): Promise<Framed> {
  const framed = await openFramed(page, '/login', SHORT);
  await loginInFrame(page, framed, member, 1, SHORT);
  await expect(framed.app.getByText(welcome())).toBeVisible();
  await framed.frame.goto(`${SHORT.appUrl}/user/edit`);
  await expect(framed.app.getByRole('heading', { name: screenTitle('edit'), level: 1 })).toBeVisible();
  await expect(framed.app.getByRole('textbox', { name: profile.last_name_kanji, exact: true })).toHaveValue(demoProfile.last_name_kanji);
  return framed;
}

/** The idle end this device holds (the ak_login_exp cookie), in epoch ms of the page's clock. */
async function idleEnd(framed: Framed): Promise<number> {
  return framed.frame.evaluate(() => Number(/(?:^|; )ak_login_exp=(\d+)/.exec(document.cookie)?.[1] ?? 0) * 1000);
}

/** The page's clock, in epoch ms. */
const pageNow = (framed: Framed) => framed.frame.evaluate(() => Date.now());

/** Two of the frame's animation frames: whatever the app's timer set in motion has rendered. */
const rendered = (framed: Framed) =>
  framed.frame.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));

test('the warning comes 20 s before the end with the time left in its description; extending it on the server keeps the member working', async ({ page }) => {
  const member = await shortMember();
  const { travel, extendCalls } = await timeMachine(page, member);
  const framed = await editInFrame(page, member);
  const { app } = framed;
  const firstEnd = await idleEnd(framed);
  expect(firstEnd).toBeGreaterThan(await pageNow(framed));

  const warning = app.getByRole('alertdialog', { name: text.warningTitle });
  // Not early: a moment before the lead, no dialog yet (the app's timer has run and rendered).
  await travel(firstEnd - LEAD_MS - (await pageNow(framed)) - 1500);
  await rendered(framed);
  await expect(warning).toHaveCount(0);
  await travel(2500);
  await expect(warning).toBeVisible();
  // Its description is the text and the time left, as a screen reader reads it when it opens.
  await expect(warning).toHaveAccessibleDescription(
    new RegExp(`^${escapeRegExp(format(text.warningBody, { extend: text.extend }))}\\s*${textPattern(text.remaining, { time: textPattern(text.seconds, { seconds: '1\\d|20' }).source }).source}$`),
  );
  // Focus is held in the dialog, on its first button; Tab cycles between its two buttons (keys in
  // the warning do not extend the session: only its buttons and Escape do).
  const extend = warning.getByRole('button', { name: text.extend });
  await expect(extend).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(warning.getByRole('button', { name: text.logout })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(extend).toBeFocused();
  await travel(1000);
  await rendered(framed);
  expect(extendCalls()).toBe(0);

  const extendCall = page.waitForResponse((response) => response.url().endsWith(EXTEND_PATH));
  await extend.click();
  expect((await extendCall).status()).toBe(200);
  await expect(warning).toHaveCount(0);
  recordCheck('session-warning', 'the session warning in the frame: 20 s ahead, extended');
  await expect.poll(() => idleEnd(framed)).toBeGreaterThan(firstEnd + 2000);

  // Past the first end, the member goes on: the server still knows the session.
  await travel(firstEnd - (await pageNow(framed)) + 1000);
  await rendered(framed);
  await expect(app.getByRole('alertdialog')).toHaveCount(0);
  await app.getByRole('textbox', { name: profile.purpose_detail, exact: true }).fill(DETAIL);
  await app.getByRole('button', { name: submitText('edit-profile') }).click();
  await expect(app.getByRole('alertdialog')).toContainText(messages.edit.done);
  await app.getByRole('button', { name: messages.common.ok }).click();
  await expect.poll(() => new URL(framed.frame.url()).pathname).toBe('/user/mypage');

  // The next warning, checked with axe; its logout button logs out (and leaves for the site top).
  await travel((await idleEnd(framed)) - LEAD_MS - (await pageNow(framed)) + 1000);
  await expect(warning).toBeVisible();
  await expectAccessible(page, 'the session warning in the frame');
  await warning.getByRole('button', { name: text.logout }).click();
  // The logout screen ends the session, then the parent shows its top (the app's login page).
  await expect(app.getByRole('heading', { name: screenTitle('login'), level: 1 })).toBeVisible();
  const appFrame = () => page.frames().find((f) => f.url().startsWith(`${SHORT.appUrl}/user/`));
  await expect.poll(async () => appFrame()?.evaluate(() => localStorage.getItem('token'))).toBeNull();
});

test('typing extends the session quietly; when the member stops, it runs out during the edit: the dialog says why, login brings the member back to the edit with what they typed, and says so', async ({ page }) => {
  const member = await shortMember();
  const { travel } = await timeMachine(page, member);
  const framed = await editInFrame(page, member);
  const { app } = framed;
  const detail = app.getByRole('textbox', { name: profile.purpose_detail, exact: true });

  // A while after the screen's last request the member types: a key sends no request, so the
  // device tells the server (docs/decisions/037), and the idle end moves with the typing.
  await travel(10_000);
  const before = await idleEnd(framed);
  const quiet = page.waitForResponse((response) => response.url().endsWith(EXTEND_PATH));
  await detail.fill(DETAIL);
  expect((await quiet).status()).toBe(200);
  await expect.poll(() => idleEnd(framed)).toBeGreaterThan(before + 5000);
  await expect(app.getByRole('alertdialog')).toHaveCount(0);

  // Then nothing: the warning, and at the end the notice that says why.
  await travel((await idleEnd(framed)) - LEAD_MS - (await pageNow(framed)) + 1000);
  await expect(app.getByRole('alertdialog', { name: text.warningTitle })).toBeVisible();
  const ended = app.getByRole('alertdialog', { name: text.expiredTitle });
  await travel(LEAD_MS);
  await expect(ended).toBeVisible();
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
  recordCheck('kept-input', 'the edit after a session ran out and the member logged in again');
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
