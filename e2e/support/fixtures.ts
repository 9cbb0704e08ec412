// Test fixtures that act on the stack as an operator or a mailbox would: create a member in
// the database the stack uses, and read the mail the app sent from the mail catcher's API.
import { test as base, expect, type FrameLocator, type Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { openDb, type Db } from '../../src/server/db/connect';
import { createMember } from '../../src/server/seed';
import { E2E } from './stack-env';
import { expectAccessible } from './axe';
import { CODE_LENGTH, labels, messages, pinBox, submitText } from './texts';
import { recordSpeech, speechFailures, SWALLOW_MS } from './speech';
import { speechEvents, speechSink, writeRecord } from './a11y-record';

/** What splits a said sentence into the parts shown apart (a summary line's label and message). */
const SAID_SEPARATORS = messages.form.errorSummaryItem.split(/\{\w+\}/).filter(Boolean);
/** The criteria the speech checks stand for: status messages, and errors identified. */
const SPEECH_CRITERIA = ['3.3.1', '4.1.3'];

export interface CaughtMail {
  id: string;
  subject: string;
  text: string;
  html: string;
  to: Array<{ address: string }>;
  date: string;
}

export async function mailsTo(address: string, mailUrl = E2E.mailUrl): Promise<CaughtMail[]> {
  const response = await fetch(`${mailUrl}/email`);
  const all = (await response.json()) as CaughtMail[];
  return all.filter((m) => m.to.some((t) => t.address.toLowerCase() === address.toLowerCase()));
}

/** Waits for the n-th mail to `address` (1-based) and returns it. */
export async function waitForMail(address: string, count = 1, mailUrl = E2E.mailUrl): Promise<CaughtMail> {
  let mails: CaughtMail[] = [];
  await expect
    .poll(async () => (mails = await mailsTo(address, mailUrl)).length, { timeout: 15_000, message: `mail #${count} to ${address}` })
    .toBeGreaterThanOrEqual(count);
  return mails[count - 1];
}

/** Waits for a mail to `address` with `subject` and returns the latest such: for a mail whose
 *  place among the others is not fixed (a notice combined per Japan day is sent again after
 *  midnight JST, 15:00 UTC). */
export async function waitForMailTitled(address: string, subject: string, mailUrl = E2E.mailUrl): Promise<CaughtMail> {
  let found: CaughtMail | undefined;
  await expect
    .poll(async () => (found = (await mailsTo(address, mailUrl)).filter((m) => m.subject === subject).at(-1)) !== undefined, { timeout: 15_000, message: `a mail 「${subject}」 to ${address}` })
    .toBe(true);
  return found!;
}

/** The code in a mail: a line of CODE_LENGTH digits (the length the schemas give the code). */
export function codeIn(mail: CaughtMail): string {
  const match = new RegExp(`^\\s*(\\d{${CODE_LENGTH}})\\s*$`, 'm').exec(mail.text);
  if (!match) throw new Error(`No ${CODE_LENGTH}-digit code in mail "${mail.subject}"`);
  return match[1];
}

/** A well-formed code (CODE_LENGTH digits) that is not `right`. */
export function wrongCode(right = ''): string {
  const ones = '1'.repeat(CODE_LENGTH);
  return right === ones ? '2'.repeat(CODE_LENGTH) : ones;
}

export interface Member {
  email: string;
  password: string;
  id: string;
}

/** Chromium's own line for every 4xx/5xx answer: the API answers 400/401 in normal use. */
const NETWORK_LINE = /^Failed to load resource: the server responded with a status of \d+/;

export const test = base.extend<{ db: Db; member: Member; expectedConsoleErrors: RegExp }>({
  /** Console errors a test provokes on purpose (e.g. a screen chunk that fails to load). */
  expectedConsoleErrors: [/(?!)/, { option: true }],
  // Any console.error or uncaught error in the page (or its frames) fails the test.
  page: async ({ page, expectedConsoleErrors }, use, testInfo) => {
    // What the page's live regions say, in every frame, from the first script on (speech.ts).
    await recordSpeech(page.context(), SAID_SEPARATORS, speechSink(testInfo));
    const errors: string[] = [];
    const unexpected = (text: string) => !NETWORK_LINE.test(text) && !expectedConsoleErrors.test(text);
    page.on('console', (message) => {
      if (message.type() === 'error' && unexpected(message.text())) errors.push(message.text());
    });
    page.on('pageerror', (error) => {
      if (unexpected(error.message)) errors.push(error.message);
    });
    await use(page);
    let speech: string[] = [];
    try {
      expect(errors, 'console.error or an uncaught error in the browser').toEqual([]);
      // Whatever state a test ends in must be accessible too (tests check the states on the way).
      if (testInfo.status === 'passed' && !page.isClosed() && page.url().startsWith('http')) await expectAccessible(page, `the end of "${testInfo.title}"`);
      // Heard as seen: nothing said that was not shown, every status shown was said.
      // A focus move may still cut the last words off: wait out their window, if it is still open.
      const lastSaid = Math.max(0, ...speechEvents(testInfo).map((e) => (e.kind === 'said' ? e.at : 0)));
      // (The page's clock may be a test's fake one, far from ours: never more than the window.)
      const open = Math.min(SWALLOW_MS, SWALLOW_MS - (Date.now() - lastSaid));
      // (Waited here, not in the page: a test may have installed a fake clock there.)
      if (open > 0) await new Promise((resolve) => setTimeout(resolve, open));
      speech = speechFailures(speechEvents(testInfo));
      if (testInfo.status === 'passed') expect(speech, 'what the live regions said against what was shown').toEqual([]);
    } finally {
      writeRecord(testInfo, { failures: speech, criteria: SPEECH_CRITERIA });
    }
  },
  db: async ({}, use) => {
    const db = openDb({ dataDir: E2E.dataDir });
    await use(db);
    await db.destroy();
  },
  member: async ({ db }, use) => {
    const email = `member-${randomUUID().slice(0, 8)}@example.com`;
    const password = 'Sample-Pass1!';
    const id = await createMember(db, email, password);
    await use({ email, password, id });
  },
});

export { expect };

/** Logs a member in through the login page with the mailed code (the n-th mail to them). */
export async function loginAs(page: Page, member: { email: string; password: string }, { mailCount = 1, stack = E2E } = {}) {
  const login = labels('login');
  await page.goto(`${stack.appUrl}/user/login`);
  await page.getByRole('textbox', { name: login.email }).fill(member.email);
  await page.getByRole('textbox', { name: login.password }).fill(member.password);
  await page.getByRole('button', { name: submitText('login'), exact: true }).click();
  await typeCode(page, codeIn(await waitForMail(member.email, mailCount, stack.mailUrl)));
  await page.getByRole('button', { name: submitText('login-code') }).click();
  await expect(page).toHaveURL(/\/user\/mypage$/);
}

/** Types a code into the code boxes, from the first (each key moves to the next box). The first
 *  box is focused, not tapped: headless Chromium sometimes drops a tap on the framed app (the
 *  parent gets it, the frame loses focus, and the keys go nowhere; never in a window), and a test
 *  whose subject is not the tap should not fail on that. */
export async function typeCode(scope: Page | FrameLocator, code: string) {
  await scope.getByLabel(pinBox(1)).pressSequentially(code);
}
