// Issue 37 (登録情報の開示) at phone size in the parent frame: a member opens the screen from my
// page, reads their data grouped as the disclosure's schema labels it, downloads the readable
// (HTML) and the machine-readable (JSON) file, each confirmed by mail; an operator then opens the
// member's record in the back office (its API, with a session), and the screen lists that view
// under the office's name and role, never the operator's; last, the member asks for a correction
// and sees it listed as open. axe in each state.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { test, expect, waitForMail } from './support/fixtures';
import { expectAccessible } from './support/axe';
import { loginInFrame, myPageLoaded, openFramed } from './support/framed';
import { E2E } from './support/stack-env';
import { format, label, mailSubject, messages, screenTitle, submitText } from './support/texts';
import disclosureSchema from '../schemas/api/user-disclosure.json' with { type: 'json' };
import mail from '../messages/mail.ja.json' with { type: 'json' };
import operator from '../messages/operator.ja.json' with { type: 'json' };
import { openOperatorSession } from '../src/server/admin/sessions';
import { ADMIN_COOKIE, DEFAULT_ADMIN_SETTINGS } from '../src/server/admin/settings';
import { iso, now } from '../src/server/services/clock';

const text = messages.disclosure;
const groups = disclosureSchema.properties;
const actionName = (action: string) => {
  const node = groups.accesses.items.properties.action;
  return node.enumNames[node.enum.indexOf(action)]!;
};
const roleName = (role: string) => {
  const node = groups.accesses.items.properties.role;
  return node.enumNames[node.enum.indexOf(role)]!;
};

test('登録情報の開示: the member\'s data, both files downloaded and confirmed by mail, and an office view listed by office and role', async ({ page, db, member, request }) => {
  test.setTimeout(180_000);
  const framed = await openFramed(page);
  await loginInFrame(page, framed, member);
  await myPageLoaded(framed);
  const { app } = framed;
  await app.getByRole('link', { name: messages.mypage.disclosure }).click();
  await expect(app.getByRole('heading', { level: 1, name: screenTitle('disclosure') })).toBeVisible();

  const section = (group: keyof typeof groups) => app.getByRole('region', { name: (groups[group] as { title: string }).title });
  await expect(section('account')).toContainText(member.email);
  await expect(section('profile')).toBeVisible();
  await expect(section('sessions')).not.toContainText(text.empty);
  await expect(section('accesses')).toContainText(text.empty);
  await expect(app.locator('.loading')).toHaveCount(0);
  await expectAccessible(page, '登録情報の開示');

  // The readable file, then the machine-readable one: each a download, each confirmed by mail.
  const [html] = await Promise.all([page.waitForEvent('download'), app.getByRole('button', { name: text.downloadHtml }).click()]);
  expect(html.suggestedFilename()).toMatch(/^disclosure-\d{8}\.html$/);
  const page1 = await readFile((await html.path())!, 'utf8');
  expect(page1).toContain(member.email);
  expect(page1).toContain(groups.accesses.title);
  await expect(section('downloads')).toContainText('HTML');

  const [json] = await Promise.all([page.waitForEvent('download'), app.getByRole('button', { name: text.downloadJson }).click()]);
  expect(json.suggestedFilename()).toMatch(/^disclosure-\d{8}\.json$/);
  const file = JSON.parse(await readFile((await json.path())!, 'utf8')) as { format: string; account: Array<{ email: string }>; downloads: Array<{ format: string }> };
  expect(file.format).toBe('member-disclosure');
  expect(file.account[0]!.email).toBe(member.email);
  expect(file.downloads.map((d) => d.format)).toEqual(['json', 'html']);
  // The login code was the first mail; the two confirmations follow.
  expect((await waitForMail(member.email, 3)).subject).toBe(mailSubject('disclosureDownloaded'));

  // An operator opens the member's record in the back office.
  const operatorId = randomUUID();
  const at = iso(now());
  await db.insertInto('operators').values({ id: operatorId, email: `clerk-${operatorId.slice(0, 8)}@office.example.jp`, name: '窓口 太郎', role: 'secretariat', status: 'active', password_hash: null, created_at: at, updated_at: at }).execute();
  const session = await openOperatorSession(db, operatorId, DEFAULT_ADMIN_SETTINGS);
  const viewed = await request.get(`${E2E.appUrl}/v1/admin/members/${member.id}`, { headers: { cookie: `${ADMIN_COOKIE}=${session.token}` } });
  expect(viewed.status()).toBe(200);

  // Back on the screen (from my page), the view is listed: when, the office and its role, what.
  await app.getByRole('link', { name: text.back }).click();
  await myPageLoaded(framed);
  await app.getByRole('link', { name: messages.mypage.disclosure }).click();
  const accesses = section('accesses');
  await expect(accesses).toContainText(actionName('members.view'));
  await expect(accesses).toContainText(mail.operator);
  await expect(accesses).toContainText(roleName('secretariat'));
  await expect(accesses).not.toContainText('窓口 太郎');
  await expect(app.locator('.loading')).toHaveCount(0);
  await expectAccessible(page, '登録情報の開示: an office view listed');

  // A request for a correction: acknowledged with its due date, listed as open, confirmed by mail.
  const kinds = (await import('../schemas/forms/member-request.ui.json', { with: { type: 'json' } })).default.kind['ui:enumNames'];
  await app.getByRole('radio', { name: kinds[0] }).check();
  await app.getByRole('textbox', { name: label('member-request', 'text') }).fill('生年月日を1990年4月2日に訂正してください。');
  await app.getByRole('button', { name: submitText('member-request') }).click();
  await expect(app.locator('p[role="status"]')).toContainText(format(text.requestSent, { due: '' }).split('（')[0]!);
  const requests = section('requests');
  await expect(requests).toContainText('生年月日を1990年4月2日に訂正してください。');
  await expect(requests).toContainText(groups.requests.items.properties.status.enumNames[0]!);
  expect((await waitForMail(member.email, 4)).subject).toBe(mailSubject('requestReceived', { kind: operator.memberRequests.kinds.correction }));
  await expectAccessible(page, '登録情報の開示: a request sent');
});
