// Issue 21 point 6 at phone size in the parent frame: a postal code Japan Post gives for several
// towns lets the member choose (buttons for a few, a labelled select for many), on registration
// STEP2 and on edit; a code with no match says so beside the field; a whole-village code
// (「利島村一円」) fills prefecture and village only. axe in each of these states.
import { test, expect, codeIn, typeCode, waitForMail } from './support/fixtures';
import { expectAccessible } from './support/axe';
import { loginInFrame, openFramed, type Framed } from './support/framed';
import { E2E } from './support/stack-env';
import towns from '../src/engine/postal-towns.generated.json' with { type: 'json' };
import { labels, messages, submitText } from './support/texts';

const step1 = labels('register-email');
const step2 = labels('register-profile');
const edit = labels('edit-profile');

/** The addresses Japan Post's data gives for a code of several towns (the generated file). */
function townsOf(code: string): string[] {
  const places = (towns as unknown as { codes: Record<string, Array<[string, string, string[]]>> }).codes[code];
  return places.flatMap(([pref, city, list]) => list.map((town) => `${pref}${city}${town}`));
}
const FEW = '260-0822'; // 千葉市中央区: two towns
const MANY = '452-0961'; // 清須市: dozens of towns
const NONE = '999-9999';
const WHOLE_VILLAGE = '100-0301'; // 「利島村一円」

async function verifyInFrame({ app }: Framed) {
  const email = `postal-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  await app.getByRole('textbox', { name: step1.email, exact: true }).fill(email);
  await app.getByRole('textbox', { name: step1.email_confirm, exact: true }).fill(email);
  await app.getByRole('button', { name: submitText('register-email') }).click();
  const code = codeIn(await waitForMail(email));
  await typeCode(app, code);
  await app.getByRole('button', { name: submitText('register-code') }).click();
  await expect(app.getByText(messages.register.verified)).toBeVisible();
}

test('registration STEP2: choose among several towns, a long list in a select, no match said, a whole village fills the village only', async ({ page }) => {
  test.setTimeout(150_000);
  const framed = await openFramed(page, '/register');
  await verifyInFrame(framed);
  const { app } = framed;
  const zip = app.getByRole('textbox', { name: step2.zip_current, exact: true });
  const address = app.getByRole('textbox', { name: step2.address_current, exact: true });
  const status = app.locator('.postal-status');

  // A few towns: one button each, announced politely, nothing filled for the member.
  const few = townsOf(FEW.replace('-', ''));
  expect(few.length).toBeGreaterThan(1);
  await zip.fill(FEW);
  const choices = app.getByRole('group', { name: messages.form.postalChoose });
  await expect(choices.getByRole('button')).toHaveText(few);
  await expect(status).toHaveText(messages.form.postalChoose);
  await expect(status).toHaveAttribute('role', 'status');
  await expect(zip).toHaveAttribute('aria-describedby', new RegExp(`\\b${await status.getAttribute('id')}\\b`));
  await expect(address).toHaveValue('');
  for (const button of await choices.getByRole('button').all()) expect((await button.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  await choices.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('register-few-towns.png') });
  await expectAccessible(page, 'registration STEP2 with a choice of towns');
  await choices.getByRole('button', { name: few[1], exact: true }).click();
  await expect(address).toHaveValue(few[1]);
  await expect(choices).toHaveCount(0);

  // Many towns: a labelled select and a button.
  const many = townsOf(MANY.replace('-', ''));
  expect(many.length).toBeGreaterThan(6);
  await zip.fill(MANY);
  const select = app.getByRole('combobox', { name: messages.form.postalSelectLabel });
  await expect(select.locator('option')).toHaveCount(many.length + 1);
  await expect(status).toHaveText(messages.form.postalChoose);
  await select.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('register-many-towns.png') });
  await expectAccessible(page, 'registration STEP2 with a select of towns');
  await select.selectOption(many[many.length - 1]);
  await app.getByRole('button', { name: messages.form.postalUse }).click();
  await expect(address).toHaveValue(many[many.length - 1]);

  // No match: said beside the field, the address left alone.
  await zip.fill(NONE);
  await expect(status).toHaveText(messages.form.postalNotFound);
  await expect(address).toHaveValue(many[many.length - 1]);
  await status.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('register-no-match.png') });
  await expectAccessible(page, 'registration STEP2 with a postal code that matches nothing');

  // 「利島村一円」: the village, not 「一円」, and the member types the rest.
  await zip.fill(WHOLE_VILLAGE);
  await expect(address).toHaveValue('東京都利島村');
  // A one-town fill is said (issue 35, point 4): the member may not be looking at the address.
  await expect(status).toHaveText(messages.form.postalFilled);
});

test('edit: a code of several towns offers them beside the saved address and fills the chosen one', async ({ page, member }) => {
  test.setTimeout(150_000);
  const framed = await openFramed(page);
  await loginInFrame(page, framed, member);
  await expect.poll(() => framed.frame.url()).toMatch(/\/user\/mypage$/);
  await framed.frame.goto(`${E2E.appUrl}/user/edit`);
  const { app } = framed;
  const zip = app.getByRole('textbox', { name: edit.zip_current, exact: true });
  const address = app.getByRole('textbox', { name: edit.address_current, exact: true });
  const saved = await address.inputValue();
  expect(saved).not.toBe('');

  const few = townsOf(FEW.replace('-', ''));
  await zip.fill(FEW);
  const choices = app.getByRole('group', { name: messages.form.postalChoose });
  await expect(choices.getByRole('button')).toHaveText(few);
  await expect(address).toHaveValue(saved); // the saved address is never overwritten unasked
  await choices.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('edit-few-towns.png') });
  await expectAccessible(page, 'edit with a choice of towns');
  await choices.getByRole('button', { name: few[0], exact: true }).click();
  await expect(address).toHaveValue(few[0]);

  await zip.fill(NONE);
  await expect(app.locator('.postal-status')).toHaveText(messages.form.postalNotFound);
  await expectAccessible(page, 'edit with a postal code that matches nothing');
});
