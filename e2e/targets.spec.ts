// Issue 21, point 10, and issue 35, point 8, at phone size in the parent's frame: every visible
// interactive element (links, selects and text boxes included) offers a target 44 px high or more
// (a checkbox or radio with its label: the label is what takes the tap), nothing is wider than the
// phone, no aria-describedby names an id that is not in the document, and axe finds nothing.
import { randomUUID } from 'node:crypto';
import type { Frame, Page } from '@playwright/test';
import { test, expect, codeIn, waitForMail } from './support/fixtures';
import { expectAccessible } from './support/axe';
import { loginInFrame, myPageLoaded, openFramed, PHONE, type Framed } from './support/framed';
import { recordCheck } from './support/scripted-checks';

const TARGET = 44;

/** Visible interactive elements (links, buttons, selects, text boxes, checkboxes and radios, and
 *  anything else in the tab order) whose target is less than 44 px high, and how high it is. A
 *  checkbox's or radio's target is its label, which takes the tap. The one exception (WCAG 2.5.8's
 *  own, ADR 035): a link inside a sentence, whose height is the line's. */
function smallTargets(frame: Frame) {
  return frame.evaluate((min) => {
    const visible = (el: Element) => {
      const rect = el.getBoundingClientRect();
      return rect.width > 0 && rect.height > 0 && getComputedStyle(el).visibility !== 'hidden';
    };
    const inSentence = (el: Element) =>
      el.matches('a') && getComputedStyle(el).display === 'inline' && (el.parentElement?.textContent ?? '').trim().length > (el.textContent ?? '').trim().length;
    const controls = Array.from(
      document.querySelectorAll('a[href], button, .button, [role="button"], select, textarea, input:not([type="hidden"]), summary, [tabindex]:not([tabindex="-1"])'),
    );
    return controls
      .filter((el) => visible(el) && !inSentence(el))
      .map((el) => {
        const box = (el.matches('input[type="checkbox"], input[type="radio"]') ? el.closest('label') : null) ?? el;
        const height = box.getBoundingClientRect().height;
        return { what: `${el.tagName.toLowerCase()}${el.getAttribute('type') ? `[${el.getAttribute('type')}]` : ''} "${(box.textContent ?? '').trim().slice(0, 30)}"`, height };
      })
      .filter((t) => t.height < min - 0.5);
  }, TARGET);
}

/** How many targets there are (so a page with none does not pass unseen). */
const countTargets = (frame: Frame) => frame.evaluate(() => document.querySelectorAll('a[href], button, select, input[type="checkbox"], input[type="radio"]').length);

/** aria-describedby (and aria-labelledby) references, in the frame and on the parent page, to
 *  ids that are not in the document. */
async function danglingReferences(page: Page, frame: Frame) {
  const scan = () =>
    Array.from(document.querySelectorAll('[aria-describedby], [aria-labelledby]')).flatMap((el) =>
      ['aria-describedby', 'aria-labelledby'].flatMap((attribute) =>
        (el.getAttribute(attribute) ?? '')
          .split(/\s+/)
          .filter((id) => id && !document.getElementById(id))
          .map((id) => `${el.id || el.tagName} ${attribute} → ${id}`),
      ),
    );
  return [...(await page.evaluate(scan)), ...(await frame.evaluate(scan))];
}

async function expectTargetsAndReferences(page: Page, framed: Framed, state: string) {
  expect(await countTargets(framed.frame), `targets at ${state}`).toBeGreaterThan(0);
  expect(await smallTargets(framed.frame), `targets under ${TARGET} px at ${state}`).toEqual([]);
  expect(await danglingReferences(page, framed.frame), `dangling references at ${state}`).toEqual([]);
  // Nothing pushes the page sideways on a 390 px phone.
  const widths = await framed.frame.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
  expect(widths[0], `no horizontal scroll at ${state}`).toBeLessThanOrEqual(widths[1]);
  expect(PHONE.width).toBe(390);
  recordCheck('targets', `${state} (phone, in the frame)`);
}

test('/register with STEP1 done: every button, checkbox and radio is a 44 px target; nothing dangles; axe passes', async ({ page }) => {
  const framed = await openFramed(page, '/register');
  const { app } = framed;
  const email = `visitor-${randomUUID().slice(0, 8)}@example.com`;
  const address = app.getByRole('textbox', { name: 'メールアドレス', exact: true });
  await expect(address).toBeVisible();
  await expectTargetsAndReferences(page, framed, '/register untouched');

  // An error shown: the field is described by it, and by nothing absent.
  await address.fill('not-an-address');
  await address.blur();
  await expect(address).toHaveAttribute('aria-invalid', 'true');
  await expectTargetsAndReferences(page, framed, '/register with an error in STEP1');

  // STEP1 as verifyEmail does it (e2e/support/register.ts), inside the frame.
  await address.fill(email);
  await app.getByRole('textbox', { name: 'メールアドレス（確認用）', exact: true }).fill(email);
  await app.getByRole('button', { name: '認証コードを送信' }).click();
  await expect(app.getByRole('status').filter({ hasText: '認証コードを送信しました' })).toBeVisible();
  await expectTargetsAndReferences(page, framed, '/register code step');
  const code = codeIn(await waitForMail(email));
  await app.getByLabel('1桁目').click();
  await page.keyboard.type(code);
  await app.getByRole('button', { name: '認証コードを登録' }).click();
  await expect(app.getByText('メールアドレスの認証が完了しました。STEP2〜STEP4を入力してください。')).toBeVisible();

  // STEP2–4 open: the gender radios, the purpose checkboxes, the consent boxes.
  await expect(app.getByRole('radiogroup', { name: '性別' })).toBeVisible();
  await expect(app.getByRole('radio', { name: '男性' })).toBeVisible();
  await expectTargetsAndReferences(page, framed, '/register with STEP2–4 open');

  // Errors shown in the profile (a field left empty, a bad password): still nothing dangles.
  const password = app.getByRole('textbox', { name: 'パスワード', exact: true });
  await password.fill('short');
  await password.blur();
  await expect(password).toHaveAttribute('aria-invalid', 'true');
  await app.getByRole('radio', { name: '男性' }).focus();
  await app.getByRole('textbox', { name: '姓', exact: true }).focus();
  await app.getByRole('textbox', { name: '名', exact: true }).focus();
  await expectTargetsAndReferences(page, framed, '/register with profile errors');
  await expectAccessible(page, '/register with STEP2–4 open and errors shown');
});

test('/login: every button and checkbox is a 44 px target; nothing dangles, errors shown or not; axe passes', async ({ page }) => {
  const framed = await openFramed(page, '/login');
  const { app } = framed;
  await expect(app.getByRole('button', { name: 'ログイン', exact: true })).toBeVisible();
  await expectTargetsAndReferences(page, framed, '/login untouched');
  await app.getByRole('button', { name: 'ログイン', exact: true }).click();
  await expect(app.getByRole('textbox', { name: 'メールアドレス' })).toHaveAttribute('aria-invalid', 'true');
  await expectTargetsAndReferences(page, framed, '/login with every error shown');
  await expectAccessible(page, '/login with every error shown');
});

test("/mypage: the menu's links and every other target are 44 px high; axe passes", async ({ page, member }) => {
  const framed = await openFramed(page, '/login');
  await loginInFrame(page, framed, member);
  await myPageLoaded(framed);
  await expectTargetsAndReferences(page, framed, '/mypage');
  // The menu's links stand apart, so a shaking finger does not take the next one.
  const gaps = await framed.frame.evaluate(() => {
    const links = Array.from(document.querySelectorAll('.menu a')).map((a) => a.getBoundingClientRect());
    return links.slice(1).map((rect, i) => rect.top - links[i]!.bottom);
  });
  expect(gaps.length).toBeGreaterThan(5);
  for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(4);
});
