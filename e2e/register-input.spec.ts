// Defects 3 and 4 of issue 10 on registration STEP2, at phone size in the parent frame: a click
// just below a field that gets its error on leaving still lands; a 9th purpose stays ticked.
import { test, expect } from './support/fixtures';
import { codeIn, typeCode, waitForMail } from './support/fixtures';
import { frameSettled, openFramed, type Framed } from './support/framed';
import options from '../schemas/masters/options.json' with { type: 'json' };
import { labels, messages, rulesOf, submitText } from './support/texts';

const profile = rulesOf('register-profile');
const step1 = labels('register-email');
const step2 = labels('register-profile');

const newAddress = () => `new-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

async function verifyInFrame(framed: Framed) {
  const { app } = framed;
  const email = newAddress();
  await app.getByRole('textbox', { name: step1.email, exact: true }).fill(email);
  await app.getByRole('textbox', { name: step1.email_confirm, exact: true }).fill(email);
  await app.getByRole('button', { name: submitText('register-email') }).click();
  const code = codeIn(await waitForMail(email));
  await typeCode(app, code);
  await app.getByRole('button', { name: submitText('register-code') }).click();
  await expect(app.getByText(messages.register.verified)).toBeVisible();
  // STEP2 opens and the member goes on at its first field.
  await expect(app.getByRole('textbox', { name: step2.password, exact: true })).toBeFocused();
}

test('clicking a radio right after leaving an empty required field ticks that radio', async ({ page }) => {
  const framed = await openFramed(page, '/register');
  await verifyInFrame(framed);
  const { app } = framed;
  await app.getByRole('textbox', { name: step2.last_name_kanji, exact: true }).fill('佐藤');
  // Leaving the password put its error line above 名: let that line and the frame's new height
  // land before aiming at 名 (a late shift made the click miss 名, so it was never left).
  await expect(app.locator('.field__errors').getByText(profile.required('password'), { exact: true })).toBeVisible();
  await frameSettled(framed);
  await app.getByRole('textbox', { name: step2.first_name_kanji, exact: true }).click();
  await expect(app.getByRole('textbox', { name: step2.first_name_kanji, exact: true })).toBeFocused();
  // Straight from the empty 名 to a choice further down, with the mouse.
  await app.getByRole('textbox', { name: step2.first_name_alphabet, exact: true }).click();
  await app.getByRole('textbox', { name: step2.last_name_alphabet, exact: true }).click();
  await app.getByRole('radio', { name: '女性' }).click();
  await expect(app.getByRole('radio', { name: '女性' })).toBeChecked();
  await expect(app.locator('.field__errors').getByText(profile.required('first_name_kanji'), { exact: true })).toBeVisible();
});

test('a 9th purpose stays ticked with the 1〜8 message; その他 keeps its text', async ({ page }) => {
  const framed = await openFramed(page, '/register');
  await verifyInFrame(framed);
  const { app } = framed;
  const max = profile.limit('purpose', 'maxItems');
  const others = options.purpose.filter((o) => o.value !== '99');
  for (const option of others.slice(0, max - 1)) await app.getByRole('checkbox', { name: option.label, exact: true }).check();
  await app.getByRole('checkbox', { name: 'その他', exact: true }).check();
  await app.getByRole('textbox', { name: step2.purpose_other }).fill('雪国の暮らしを体験したい');
  const ninth = others[max - 1];
  await app.getByRole('checkbox', { name: ninth.label, exact: true }).click();
  await expect(app.getByRole('checkbox', { name: ninth.label, exact: true })).toBeChecked();
  await expect(app.getByRole('checkbox', { name: 'その他', exact: true })).toBeChecked();
  await expect(app.getByRole('textbox', { name: step2.purpose_other })).toHaveValue('雪国の暮らしを体験したい');
  await expect(app.locator('[data-field="root_purpose"] .field__errors')).toContainText(profile.message('purpose', 'maxItems'));
});

test('a reload keeps the address and STEP2 (never the password or the code) and warns before leaving', async ({ page }) => {
  const framed = await openFramed(page, '/register');
  await verifyInFrame(framed);
  const { app } = framed;
  const email = await app.getByRole('textbox', { name: step1.email, exact: true }).inputValue();
  await app.getByRole('textbox', { name: step2.password, exact: true }).fill('Sample-Pass1!');
  await app.getByRole('textbox', { name: step2.last_name_kanji, exact: true }).fill('佐藤');
  await app.getByRole('radio', { name: '女性' }).check();
  await app.getByRole('checkbox', { name: options.purpose[0].label, exact: true }).check();
  // Leaving now would lose input: the page asks the browser to confirm.
  const warned = await framed.frame.evaluate(() => {
    const event = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(event);
    return event.defaultPrevented;
  });
  expect(warned).toBe(true);
  const stored = await framed.frame.evaluate(() => JSON.stringify(sessionStorage));
  expect(stored).not.toContain('Sample-Pass1!');
  expect(stored).not.toMatch(/"code"|verification_code/);

  page.on('dialog', (dialog) => void dialog.accept());
  await framed.frame.goto(framed.frame.url());
  await expect(app.getByRole('textbox', { name: step1.email, exact: true })).toHaveValue(email);
  await expect(app.getByRole('textbox', { name: step1.email_confirm, exact: true })).toHaveValue(email);
  await expect(app.getByRole('textbox', { name: step2.last_name_kanji, exact: true })).toHaveValue('佐藤');
  await expect(app.getByRole('radio', { name: '女性' })).toBeChecked();
  await expect(app.getByRole('checkbox', { name: options.purpose[0].label, exact: true })).toBeChecked();
  await expect(app.getByRole('textbox', { name: step2.password, exact: true })).toHaveValue('');
});
