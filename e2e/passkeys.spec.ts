// Passkeys (docs/decisions/031) in Chromium's virtual authenticator: a member adds one on my
// page, logs out and logs in with it alone inside the parent's frame at phone size, again after
// 101 wrong passwords for the address (the password login then refused), and removes it; an
// operator adds one in the back office and logs in with password + passkey. Axe in each state.
import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { test, expect, waitForMail, waitForMailTitled, codeIn, typeCode } from './support/fixtures';
import { expectAccessible } from './support/axe';
import { E2E } from './support/stack-env';
import { loginInFrame, myPageLoaded, openFramed } from './support/framed';
import { format, labels, mailSubject, messages, screenTitle, submitText } from './support/texts';
import admin from '../messages/admin.ja.json' with { type: 'json' };
import adminCatalogue from '../schemas/admin-catalogue.json' with { type: 'json' };
import { storedDataSecrets } from '../src/server/data-secrets';
import { hashPassword } from '../src/server/services/passwords';
import { iso, now } from '../src/server/services/clock';

const text = messages.passkeys;

/** A platform authenticator with user verification, as a phone's or a laptop's. */
async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
}

test('a member adds a passkey on my page and logs in with it alone in the parent\'s frame, after 101 wrong passwords too, then removes it', async ({ page, member, request }) => {
  test.setTimeout(120_000);
  await virtualAuthenticator(page);
  let framed = await openFramed(page, '/login');
  const { app } = framed;
  /** Logging out sends the parent page to its top, which frames the app anew (a new frame). */
  const logOut = async () => {
    await app.getByRole('link', { name: messages.mypage.logout }).click();
    await expect(page).toHaveURL(`${E2E.parentUrl}/`);
    await expect(app.getByRole('heading', { level: 1, name: screenTitle('login') })).toBeVisible();
    framed = { ...framed, frame: (await (await framed.element.elementHandle())!.contentFrame())! };
  };
  await loginInFrame(page, framed, member);
  await myPageLoaded(framed);

  // Offered on my page's menu, never forced.
  await app.getByRole('link', { name: messages.mypage.passkeys }).click();
  await expect(app.getByRole('heading', { level: 1, name: messages.mypage.passkeys })).toBeVisible();
  await expect(app.getByText(text.empty)).toBeVisible();
  await expectAccessible(page, 'passkeys, none yet');
  await app.getByRole('textbox', { name: labels('passkey-name').name }).fill('スマートフォン');
  await app.getByRole('button', { name: submitText('passkey-name') }).click();
  await expect(app.getByText(format(text.added, { name: 'スマートフォン' }))).toBeVisible();
  await expect(app.getByRole('heading', { level: 3, name: 'スマートフォン' })).toBeVisible();
  await expect(app.getByText(text.neverUsed)).toBeVisible();
  expect((await waitForMail(member.email, 2)).subject).toBe(mailSubject('passkeyAdded'));
  await expectAccessible(page, 'passkeys, one added');

  // Log out, then in with the passkey alone: no address, no password, no code.
  await app.getByRole('link', { name: text.back }).click();
  await myPageLoaded(framed);
  await logOut();
  const passkeyButton = app.getByRole('button', { name: messages.login.passkey });
  await expect(passkeyButton).toBeVisible();
  await expectAccessible(page, 'login with the passkey button');
  await passkeyButton.click();
  await myPageLoaded(framed);
  await expectAccessible(page, 'my page after the passkey login');

  // 101 wrong passwords for the address (through the API, as a stranger would): the password is
  // held, the passkey is not.
  await logOut();
  await expect(passkeyButton).toBeVisible();
  const clientKey = storedDataSecrets(E2E.dataDir).clientKey!;
  const verify = (password: string) => request.post(`${E2E.appUrl}/v1/user/verify`, { headers: { 'x-client-key': clientKey }, data: { email: member.email, password } });
  // In parallel, as an attacker would send them: past the first ten, each check is slowed (up to
  // 4 s, docs/decisions/015), so one after another they would take minutes.
  for (let sent = 0; sent < 101; sent += 34) await Promise.all(Array.from({ length: Math.min(34, 101 - sent) }, () => verify('Wrong-Pass-1!')));
  expect((await verify(member.password)).status()).toBe(429);
  // The member is told, once, that someone is trying (the e2e stack sends the notice at once).
  await waitForMailTitled(member.email, mailSubject('loginAttempted'));
  await passkeyButton.click();
  await myPageLoaded(framed);

  // Remove it, after the confirmation.
  await app.getByRole('link', { name: messages.mypage.passkeys }).click();
  await expect(app.getByRole('heading', { level: 3, name: 'スマートフォン' })).toBeVisible();
  await expect(app.getByText(text.neverUsed)).toHaveCount(0);
  await app.getByRole('button', { name: format(text.removeLabel, { name: 'スマートフォン' }) }).click();
  const dialog = app.getByRole('alertdialog', { name: text.removeTitle });
  await expect(dialog).toBeVisible();
  await expectAccessible(page, 'the removal\'s confirmation');
  await dialog.getByRole('button', { name: text.removeYes }).click();
  await expect(app.getByText(format(text.removed, { name: 'スマートフォン' }))).toBeVisible();
  await expect(app.getByText(text.empty)).toBeVisible();
  await waitForMailTitled(member.email, mailSubject('passkeyRemoved'));
});

test('an operator adds a passkey in the back office and logs in with password + passkey instead of the code', async ({ page, db }) => {
  await virtualAuthenticator(page);
  const clerk = { email: `clerk-${randomUUID().slice(0, 8)}@office.example.jp`, password: 'Clerk-Pass1!', name: '事務局 鍵子' };
  const at = iso(now());
  await db.insertInto('operators').values({ id: randomUUID(), email: clerk.email, name: clerk.name, role: 'secretariat', status: 'active', password_hash: await hashPassword(clerk.password), created_at: at, updated_at: at }).execute();
  const fields = labels('admin-login');
  const passwordStep = async () => {
    await page.getByRole('textbox', { name: fields.email }).fill(clerk.email);
    await page.getByRole('textbox', { name: fields.password }).fill(clerk.password);
    await page.getByRole('button', { name: submitText('admin-login') }).click();
  };
  await page.goto(`${E2E.appUrl}/admin/login`);
  await passwordStep();
  await expect(page.getByRole('button', { name: admin.login.passkey })).toHaveCount(0);
  await typeCode(page, codeIn(await waitForMail(clerk.email)));
  await page.getByRole('button', { name: submitText('admin-login-code') }).click();

  const account = adminCatalogue.routes.find((r) => r.path === 'account')!.title;
  await page.getByRole('navigation', { name: admin.common.menu }).getByRole('link', { name: account }).click();
  await expect(page.getByText(admin.account.empty)).toBeVisible();
  await page.getByRole('textbox', { name: labels('admin-passkey-name').name }).fill('事務所のパソコン');
  await page.getByRole('button', { name: submitText('admin-passkey-name') }).click();
  await expect(page.getByText(format(admin.account.added, { name: '事務所のパソコン' }))).toBeVisible();
  await expect(page.getByRole('cell', { name: '事務所のパソコン', exact: true })).toBeVisible();
  await expectAccessible(page, 'the operator\'s passkeys');

  await page.getByRole('button', { name: admin.common.logout }).click();
  await expect(page).toHaveURL(/\/admin\/login$/);
  await passwordStep();
  const passkey = page.getByRole('button', { name: admin.login.passkey });
  await expect(passkey).toBeVisible();
  await expectAccessible(page, 'the code step with the passkey beside it');
  await passkey.click();
  // Logged in, back where the operator was; the passkey now has a last use.
  await expect(page.getByRole('button', { name: admin.common.logout })).toBeVisible();
  await expect(page).not.toHaveURL(/\/admin\/login$/);
  await page.getByRole('navigation', { name: admin.common.menu }).getByRole('link', { name: account }).click();
  await expect(page.getByRole('cell', { name: '事務所のパソコン', exact: true })).toBeVisible();
  await expect(page.getByText(admin.account.neverUsed)).toHaveCount(0);
});
