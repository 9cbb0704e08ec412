// The app as members meet it: a phone-sized window on the parent site, the app in its iframe.
import type { Frame, FrameLocator, Locator, Page } from '@playwright/test';
import { expect, codeIn, typeCode, waitForMail } from './fixtures';
import { E2E, type Stack } from './stack-env';
import { labels, pinBox, submitText, welcome } from './texts';

export const PHONE = { width: 390, height: 844 };

export interface Framed {
  /** The iframe's document (navigate it with `frame.goto`). */
  frame: Frame;
  /** Locators inside the iframe. */
  app: FrameLocator;
  /** The iframe element on the parent page. */
  element: Locator;
}

/** Opens the parent site at phone size; with `path`, loads that app path into its frame. */
export async function openFramed(page: Page, path?: string, stack: Stack = E2E): Promise<Framed> {
  await page.setViewportSize(PHONE);
  await page.goto(stack.parentUrl + '/');
  const element = page.locator('#member-frame');
  const handle = await element.elementHandle();
  const frame = (await handle!.contentFrame())!;
  await frame.waitForURL(/\/user\/\w+/);
  if (path) await frame.goto(`${stack.appUrl}/user${path}`);
  return { frame, app: page.frameLocator('#member-frame'), element };
}

/** The iframe's height as the parent set it from the app's messages. */
export const frameHeight = (framed: Framed) => framed.element.evaluate((el) => parseInt((el as HTMLElement).style.height, 10));

/** Where a locator inside the frame is on the parent's viewport: its top and bottom in px. */
export async function placeInParent(page: Page, inner: Locator) {
  // boundingBox() of an element in a frame is relative to the main page's viewport.
  const box = await inner.boundingBox();
  if (!box) throw new Error('not laid out');
  return { top: box.y, bottom: box.y + box.height, viewport: page.viewportSize()!.height };
}

/** Passes when the whole of `inner` (a locator in the frame) is inside the parent's viewport. */
export async function expectInParentView(page: Page, inner: Locator) {
  await expect
    .poll(async () => {
      const place = await placeInParent(page, inner);
      return place.top >= 0 && place.bottom <= place.viewport;
    }, { message: 'element within the parent page viewport' })
    .toBe(true);
}

/** Waits until the frame's height follows its content (after a change, the report takes ~60 ms). */
export async function frameSettled(framed: Framed) {
  await expect
    .poll(async () => {
      const content = await framed.frame.evaluate(() => Math.ceil(document.getElementById('root')!.getBoundingClientRect().height));
      return (await frameHeight(framed)) === Math.max(800, content);
    })
    .toBe(true);
}

/** My page as a member sees it once it has loaded: the welcome, its lists in (no loading line)
 *  and the frame at its height. A link aimed at before that moves as the lists arrive (CI runs
 *  clicked 退会について and ログアウト 40 ms after the welcome showed, and missed). */
export async function myPageLoaded(framed: Framed) {
  await expect(framed.app.getByText(welcome())).toBeVisible();
  await expect(framed.app.locator('.loading')).toHaveCount(0);
  await frameSettled(framed);
}

/** Scrolls the parent page to its bottom, as a member who read down a long page (once the
 *  frame has its height: a frame still shrinking would move what the next click aims at). */
export async function scrollParentToBottom(page: Page, framed: Framed) {
  await frameSettled(framed);
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
}

/** Logs in inside the frame with the mailed code (the n-th mail to the member). */
export async function loginInFrame(page: Page, framed: Framed, member: { email: string; password: string }, mailCount = 1, stack: Stack = E2E) {
  const { app } = framed;
  const login = labels('login');
  await app.getByRole('textbox', { name: login.email }).fill(member.email);
  await app.getByRole('textbox', { name: login.password }).fill(member.password);
  await app.getByRole('button', { name: submitText('login'), exact: true }).click();
  // A device that logged in before may be trusted: then there is no code step.
  const codeBox = app.getByLabel(pinBox(1));
  await expect.poll(async () => (await codeBox.isVisible()) || !/\/user\/login/.test(framed.frame.url())).toBe(true);
  if (!(await codeBox.isVisible())) return;
  const code = codeIn(await waitForMail(member.email, mailCount, stack.mailUrl));
  // Typed and sent from the keyboard (Enter in the last box sends the code's form), not by taps:
  // headless Chromium sometimes drops a tap on the framed app, and this is every test's way in.
  await typeCode(app, code);
  await page.keyboard.press('Enter');
}
