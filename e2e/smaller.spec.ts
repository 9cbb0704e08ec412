// Issue 21, point 8 ("Smaller"), at phone size in the parent frame: what the member is told and
// when. Texts come from messages/ and the schemas (support/texts.ts); axe checks each state.
import { test, expect, codeIn, typeCode, waitForMail } from './support/fixtures';
import { expectAccessible } from './support/axe';
import { loginInFrame, myPageLoaded, openFramed, type Framed } from './support/framed';
import { E2E } from './support/stack-env';
import { CODE_LENGTH, codeSent, labels, messages, pinBox, rulesOf, screenTitle, submitText, welcome } from './support/texts';
import { schemaSet } from '../tests/support/schema-messages';

const step1 = labels('register-email');
const newAddress = () => `smaller-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

/** Whether the page would ask "leave site?" now: a cancelable beforeunload, as the browser sends. */
const wouldWarn = (framed: Framed) =>
  framed.frame.evaluate(() => {
    const event = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(event);
    return event.defaultPrevented;
  });

async function fillAddress(framed: Framed, email: string) {
  await framed.app.getByRole('textbox', { name: step1.email, exact: true }).fill(email);
  await framed.app.getByRole('textbox', { name: step1.email_confirm, exact: true }).fill(email);
}

test('registration before any input: no leave warning, STEP2 and STEP3 visibly locked with the note, badges on one line, the terms note once', async ({ page }) => {
  const framed = await openFramed(page, '/register');
  const { app } = framed;
  await expect(app.getByRole('heading', { name: messages.register.step2 })).toBeVisible();
  // The preset defaults (gender, job, industry, mail preference) are in the form, yet nothing was typed.
  await expect.poll(() => framed.frame.evaluate(() => Object.keys(sessionStorage).length)).toBeGreaterThan(0);
  expect(await wouldWarn(framed)).toBe(false);

  // STEP2 and STEP3: a disabled group each, described by the note that says to verify first.
  for (const [title, note] of [[messages.register.step2, 'step2-locked'], [messages.register.step3, 'step3-locked']]) {
    const group = app.getByRole('group', { name: title });
    expect(await group.evaluate((el) => (el as HTMLFieldSetElement).disabled)).toBe(true);
    await expect(group).toHaveAccessibleDescription(messages.register.locked);
    await expect(app.locator(`#${note}`)).toHaveText(messages.register.locked);
  }
  await expect(app.getByRole('textbox', { name: labels('register-profile').password, exact: true })).toBeDisabled();
  await expect(app.getByRole('checkbox', { name: labels('register-terms').agree })).toBeDisabled();

  // The 必須 badge never breaks inside (one line box, its text on one line) beside any label at 390 px.
  const badges = await framed.frame.evaluate(() =>
    [...document.querySelectorAll('.badge')].map((badge) => {
      const range = document.createRange();
      range.selectNodeContents(badge);
      const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      return { text: badge.textContent, lines: lines.size, boxes: badge.getClientRects().length };
    }),
  );
  expect(badges.length).toBeGreaterThan(10);
  for (const badge of badges) expect(badge, `badge ${badge.text}`).toMatchObject({ lines: 1, boxes: 1 });
  await app.locator('section[aria-labelledby="step2-title"]').screenshot({ path: test.info().outputPath('step2-locked-390.png') });

  // The terms ask to be read once: the agreement's own help, no second note saying the same.
  const termsHelp = (schemaSet().forms['register-terms'].uiSchema.agree as Record<string, string>)['ui:help'];
  const step3 = app.locator('section[aria-labelledby="step3-title"]');
  await expect(step3.getByText(termsHelp)).toHaveCount(1);
  await expect(step3.locator('p.field__help, .field__help')).toHaveCount(1);
  await expectAccessible(page, 'registration before any input, STEP2 and STEP3 locked');

  // Typing is input: now the browser asks before leaving.
  await fillAddress(framed, newAddress());
  await expect.poll(() => wouldWarn(framed)).toBe(true);
});

test('a restored registration draft says the address must be verified again', async ({ page }) => {
  const framed = await openFramed(page, '/register');
  const email = newAddress();
  await fillAddress(framed, email);
  await expect(framed.app.getByText(messages.register.draftRestored)).toHaveCount(0);
  await framed.frame.goto(framed.frame.url());
  await expect(framed.app.getByRole('status').filter({ hasText: messages.register.draftRestored })).toBeVisible();
  await expect(framed.app.getByRole('textbox', { name: step1.email, exact: true })).toHaveValue(email);
  await expectAccessible(page, 'a restored registration draft');
});

test('a second code to the same address says the earlier one no longer works, and it does not', async ({ page }) => {
  const framed = await openFramed(page, '/register');
  const { app } = framed;
  const email = newAddress();
  await fillAddress(framed, email);
  await app.getByRole('button', { name: submitText('register-email') }).click();
  const notice = app.getByRole('status').filter({ hasText: codeSent(messages.register.codeSent, email) });
  await expect(notice).toBeVisible();
  await expect(notice).not.toContainText(messages.codes.replaced);
  const first = codeIn(await waitForMail(email));

  // Starting again (the address is entered afresh) and sending to the same address.
  await app.getByRole('button', { name: messages.register.redo }).click();
  await fillAddress(framed, email);
  await app.getByRole('button', { name: submitText('register-email') }).click();
  // The spec's notice stays; the note stands beside it.
  await expect(notice).toContainText(messages.codes.replaced);
  const second = codeIn(await waitForMail(email, 2));
  await expectAccessible(page, 'a replacing code sent');

  if (first !== second) {
    await typeCode(app, first);
    await app.getByRole('button', { name: submitText('register-code') }).click();
    await expect(app.locator('.field__errors').getByText(messages.verification.invalid)).toBeVisible();
  }
  await app.getByLabel(pinBox(1)).click();
  await page.keyboard.press('Control+A');
  for (let i = 0; i < CODE_LENGTH; i++) await page.keyboard.press('Backspace');
  await page.keyboard.type(second);
  await app.getByRole('button', { name: submitText('register-code') }).click();
  await expect(app.getByText(messages.register.verified)).toBeVisible();
});

test('a registration link that no longer works explains itself on e-mail authentication', async ({ page }) => {
  const framed = await openFramed(page, '/old/register?key=spent-or-expired-key');
  await expect.poll(() => new URL(framed.frame.url()).pathname).toBe('/user/email-auth');
  await expect(framed.app.getByRole('status').filter({ hasText: messages.emailAuth.linkInvalid })).toBeVisible();
  await expect(framed.app.getByRole('heading', { name: screenTitle('email-auth') })).toBeVisible();
  await expectAccessible(page, 'e-mail authentication after a dead link');
  // Opened on its own, the screen has nothing to explain.
  await framed.frame.goto(`${E2E.appUrl}/user/login`);
  await framed.app.getByRole('heading', { name: screenTitle('login') }).waitFor();
  await framed.frame.goto(`${E2E.appUrl}/user/email-auth`);
  await expect(framed.app.getByRole('heading', { name: screenTitle('email-auth') })).toBeVisible();
  await expect(framed.app.getByText(messages.emailAuth.linkInvalid)).toHaveCount(0);
});

test('e-mail change with the current address says why the button waits, while the member is in the field', async ({ page, member }) => {
  const framed = await openFramed(page);
  await loginInFrame(page, framed, member);
  await expect(framed.app.getByText(welcome())).toBeVisible();
  await framed.frame.goto(`${E2E.appUrl}/user/email/change`);
  const field = framed.app.getByRole('textbox', { name: labels('email-change').email, exact: true });
  await field.click();
  await page.keyboard.type(member.email);
  const same = rulesOf('email-change').message('email', 'differentFrom');
  await expect(framed.app.getByText(same)).toBeVisible();
  await expect(field).toBeFocused();
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(framed.app.getByRole('button', { name: submitText('email-change') })).toBeDisabled();
  await expectAccessible(page, 'e-mail change with the current address');
  await page.keyboard.type('x');
  await expect(framed.app.getByText(same)).toHaveCount(0);
});

test('withdrawal shows withdraw_complete behind its dialog; OK goes to the site top', async ({ page, member }) => {
  const framed = await openFramed(page);
  await loginInFrame(page, framed, member);
  await myPageLoaded(framed);
  await framed.app.getByRole('link', { name: messages.mypage.withdraw }).click();
  await framed.app.getByRole('textbox', { name: labels('withdraw').password }).fill(member.password);
  await framed.app.getByRole('button', { name: submitText('withdraw') }).click();
  const dialog = framed.app.getByRole('alertdialog');
  await expect(dialog).toContainText(messages.withdraw.doneTitle);
  await expect.poll(() => new URL(framed.frame.url()).pathname).toBe('/user/withdraw_complete');
  await expect(framed.app.getByRole('heading', { name: screenTitle('withdraw_complete') })).toBeVisible();
  await expect(framed.app.getByText(messages.withdraw.completeBody)).toBeVisible();
  await expect(framed.app.getByRole('button', { name: messages.common.ok })).toBeFocused();
  await expectAccessible(page, 'withdrawal done, its dialog over withdraw_complete');
  await framed.app.getByRole('button', { name: messages.common.ok }).click();
  await expect(page).toHaveURL(`${E2E.parentUrl}/`);
  // Opened again without a session (not by withdrawal), the login guard applies.
  const again = await openFramed(page, '/withdraw_complete');
  await expect(again.app.getByRole('heading', { name: screenTitle('login') })).toBeVisible();
});

test('/user/logout without a session takes the parent page to the site top', async ({ page }) => {
  const framed = await openFramed(page, '/login');
  await page.evaluate(() => ((window as unknown as { beforeLogout: boolean }).beforeLogout = true));
  await framed.frame.goto(`${E2E.appUrl}/user/logout`);
  // The parent page itself navigated (a new document), not only the frame.
  await page.waitForEvent('load');
  await expect(page).toHaveURL(`${E2E.parentUrl}/`);
  expect(await page.evaluate(() => (window as unknown as { beforeLogout?: boolean }).beforeLogout ?? false)).toBe(false);
  // Outside the frame too.
  await page.goto(`${E2E.appUrl}/user/logout`);
  await expect(page).toHaveURL(`${E2E.parentUrl}/`);
});
