// Every back-office screen rendered against the contract's answers (docs: the i23 contract, the
// /v1/admin/ API), the API answered in the browser by page.route: what each page shows, axe 0
// on each, the CSRF token on every change, the confirmations before a decision and a notice, and
// nothing typed lost when the session ends mid-way. The real API is exercised by admin.spec.ts's
// clerk's day once it is on the branch.
import { readFileSync } from 'node:fs';
import type { Page, Route } from '@playwright/test';
import { test, expect } from './support/fixtures';
import { expectAccessible } from './support/axe';
import { E2E } from './support/stack-env';
import type * as Api from '../src/shared/admin-api';
import { submitText } from './support/texts';
import admin from '../messages/admin.ja.json' with { type: 'json' };
import adminCatalogue from '../schemas/admin-catalogue.json' with { type: 'json' };

const title = (path: string) => adminCatalogue.routes.find((r) => r.path === path)!.title;
const CSRF = 'csrf-token-of-this-session';
const operator = { id: 'op-1', email: 'clerk@office.example.jp', name: '事務局 花子', role: 'admin' } satisfies Api.SessionOperator;
const session = { operator, csrfToken: CSRF, expiresAt: '2026-04-01T01:30:00Z', endsAt: '2026-04-01T09:00:00Z' } satisfies Api.SessionAnswer;
const NUMBER = 'R20260401-123456';
const page1 = <T>(items: T[]): Api.Page<T> => ({ items, total: items.length, page: 1, size: 20 });

const application = { register_number: NUMBER, status: 'pending', applied_at: '2026-04-01T01:00:00Z', decided_at: null, name: '山田 花子', email: 'hanako@example.com', member_status: 'active' } satisfies Api.ApplicationItem;
const member = {
  id: 'm-1',
  email: 'hanako@example.com',
  status: 'active',
  name: '山田 花子',
  registered_at: '2026-04-01T00:00:00Z',
  withdrawn_at: null,
  fields: [
    { name: 'last_name_kanji', names: ['last_name_kanji'], label: '姓', value: '山田', display: '山田' },
    { name: 'address', names: ['address'], label: '住所', value: '千代田区1-1', display: '東京都千代田区1-1' },
  ],
} satisfies Api.MemberSummary;
const purposes = [
  { value: 'preview', label: '移住の下見' },
  { value: 'two_regions', label: '二地域居住' },
];
const decisions: Api.DecisionItem[] = [
  { kind: 'decision', decision: 'declined', reason: '書類の不足', operator: '事務局 太郎', at: '2026-03-01T01:00:00Z', reversed_by: { reason: '確認漏れ', operator: '管理 一郎', at: '2026-03-02T01:00:00Z' } },
];
const notice = { id: 'n-1', audience: 'all', message: '年末年始の休業のお知らせ', publish_at: '2026-04-01T00:00:00Z', created_at: '2026-03-31T00:00:00Z', created_by: '事務局 花子', retracted_at: null, status: 'published' } satisfies Api.NoticeItem;
const request = { id: '00000000-0000-4000-8000-00000000000a', kind: 'correction', status: 'open', created_at: '2026-03-01T00:00:00Z', due_at: '2026-03-15T00:00:00Z', member_id: 'm-1', member_name: '山田 花子', register_number: NUMBER, overdue: true } satisfies Api.RequestItem;
const requestInFull = { ...request, text: '生年月日を1990年4月2日に訂正してください。', answer: null, handled_by: null, handled_at: null } satisfies Api.RequestInFull;
const inquiry = { id: 'i-1', ticket_no: 'C-0001', status: 'open', created_at: '2026-04-01T00:00:00Z', updated_at: '2026-04-01T00:00:00Z', name: '山田 花子', email: 'hanako@example.com', inquiry_type: 'program', inquiry_type_label: '制度について', member_id: 'm-1' } satisfies Api.InquiryItem;

/** The API's answers, each of the shape src/shared/admin-api.ts gives it (a change there fails the typecheck here). */
const ANSWERS: Record<string, unknown> = {
  'GET /session': session,
  'GET /applications': page1([application]),
  [`GET /applications/${NUMBER}`]: { application, member, purposes, decisions } satisfies Api.ApplicationDetail,
  [`POST /applications/${NUMBER}/preview`]: {
    member: { name: '山田 花子', email: 'hanako@example.com' },
    mail: { to: 'hanako@example.com', subject: '登録申請の審査結果のお知らせ', body: '山田 花子 様\n\n登録申請を承認しました。' },
    notice: '会員登録のお申し込みを承認しました。',
  } satisfies Api.DecisionPreview,
  [`POST /applications/${NUMBER}/decision`]: { application: { ...application, status: 'approved', decided_at: '2026-04-01T02:00:00Z' }, notice: '会員登録のお申し込みを承認しました。', mail: { id: 'mail-2', to: 'hanako@example.com', status: 'sent' } } satisfies Api.DecisionAnswer,
  'GET /notices': page1([notice]),
  'POST /notices/preview': { recipients: 1, member: { name: '山田 花子', email: 'hanako@example.com' }, message: '書類の再提出をお願いします。', publish_at: '2026-04-01T00:00:00Z' } satisfies Api.NoticePreview,
  'POST /notices': { notice: { ...notice, id: 'n-2', audience: 'one', register_number: NUMBER }, recipients: 1 } satisfies Api.NoticeSent,
  'GET /inquiries': page1([inquiry]),
  'GET /inquiries/i-1': {
    inquiry: {
      ...inquiry,
      status: 'answered',
      inquiry_user_type: 'member',
      inquiry_user_type_label: '会員',
      job: 'office',
      job_label: '会社員',
      content: '補助金の対象について教えてください。よろしくお願いします。',
      member_status: 'active',
      recipient: { name: '山田 花子', email: 'hanako@example.com', member: true },
    },
    answers: [{ id: 'a-1', answer: '対象は…です。', operator: '事務局 花子', at: '2026-04-02T00:00:00Z', mail_status: 'sent' }],
    mails: [{ id: 'mail-1', to: 'hanako@example.com', template: 'inquiryAnswered', subject: '【二地域居住応援プログラム 会員サイト】お問い合わせへの回答（受付番号：C-0001）', created_at: '2026-04-02T00:00:00Z', sent_at: '2026-04-02T00:00:01Z', attempts: 1, status: 'sent' }],
  } satisfies Api.InquiryDetail,
  'GET /operators': {
    items: [
      { ...operator, status: 'active', created_at: '2026-01-01T00:00:00Z' },
      { id: 'op-2', email: 'city@town.example.jp', name: '自治体 次郎', role: 'municipality', status: 'invited', created_at: '2026-02-01T00:00:00Z' },
    ],
  } satisfies Api.OperatorList,
  'GET /members': page1([{ id: 'm-1', register_number: NUMBER, name: '山田 花子', email: 'hanako@example.com', status: 'active', registered_at: '2026-04-01T00:00:00Z' }] satisfies Api.MemberItem[]),
  'GET /members/m-1': {
    member,
    purposes,
    applications: [{ register_number: NUMBER, status: 'approved', applied_at: '2026-04-01T00:00:00Z', decided_at: '2026-04-01T02:00:00Z', decisions: [] }],
    inquiries: [{ ...inquiry, status: 'answered' }],
    notices: [notice],
    disclosures: [{ id: 'd-1', at: '2026-04-02T01:00:00Z', format: 'html' }],
    requests: [request],
  } satisfies Api.MemberDetail,
  'GET /requests': page1([request]),
  [`GET /requests/${request.id}`]: { request: requestInFull, member: { id: 'm-1', name: '山田 花子', email: 'hanako@example.com', status: 'active', register_number: NUMBER } } satisfies Api.RequestDetail,
  [`POST /requests/${request.id}/handle`]: {
    request: { ...requestInFull, status: 'done', overdue: undefined, answer: '生年月日を訂正しました。', handled_by: '事務局 花子 <clerk@office.example.jp>', handled_at: '2026-04-01T02:00:00Z' },
    mail: { id: 'mail-3', to: 'hanako@example.com', status: 'sent' },
  } satisfies Api.RequestHandled,
  'GET /members/export-columns': [
    { name: 'email', label: 'メールアドレス' },
    { name: 'last_name_kanji', label: '姓' },
  ] satisfies Api.ExportColumn[],
  'GET /stats': {
    at: '2026-04-01T00:00:00Z',
    asOf: '2026-03-31',
    floor: 5,
    total: 42,
    registrationsPerWeek: [
      { week: '2026-W14', count: 12 },
      { week: '2026-W15', count: null, suppressed: 'floor' },
    ],
    purposes: [{ label: '移住の下見', count: 30 }],
    prefectures: [{ label: '東京都', count: null, suppressed: 'floor' }],
    ageBands: [{ label: '30代', count: 8 }],
    desiredMunicipalities: [{ label: '利島村', count: null, suppressed: 'complement' }],
  } satisfies Api.Stats,
  'GET /audit': page1([
    { id: 'au-1', at: '2026-04-01T00:00:00Z', actor_type: 'operator', actor_label: '事務局 花子', actor_role: 'admin', action: 'applications.approve', member_id: 'm-1', member_name: '山田 花子', target: NUMBER, detail: { decision: 'approved', reason: '書類を確認しました。' }, ip: '127.0.0.1' },
  ] satisfies Api.AuditItem[]),
};

/** What every guarded answer says of the session: 30 minutes to its idle end, 8 hours to its end. */
const SESSION_TIMES = { 'x-session-expires-in': '1800', 'x-session-ends-in': '28800' };

/** Answers /v1/admin/ from ANSWERS (the contract's shapes); records what was sent. */
async function fakeApi(page: Page, overrides: Record<string, (route: Route) => unknown> = {}) {
  const sent: Array<{ key: string; csrf: string | null; body: unknown }> = [];
  await page.route('**/v1/admin/**', async (route) => {
    const request = route.request();
    const url = new URL(request.url());
    const key = `${request.method()} ${url.pathname.replace(/^\/v1\/admin/, '')}`;
    if (request.method() !== 'GET') sent.push({ key, csrf: request.headers()['x-csrf-token'] ?? null, body: request.postDataJSON() });
    if (overrides[key]) return void (await overrides[key](route));
    if (!(key in ANSWERS)) return route.fulfill({ status: 404, json: { error: '見つかりません。', code: 'NOT_FOUND' } });
    return route.fulfill({ status: request.method() === 'POST' && key === 'POST /notices' ? 201 : 200, json: ANSWERS[key], headers: SESSION_TIMES });
  });
  return sent;
}

const h1 = (page: Page, text: string) => page.getByRole('heading', { level: 1, name: text });

/** Logs in on the login page (the faked API takes any password and the code 12345). */
async function logIn(page: Page, email: string, password: string) {
  await page.getByRole('textbox', { name: 'メールアドレス' }).fill(email);
  await page.getByRole('textbox', { name: 'パスワード' }).fill(password);
  await page.getByRole('button', { name: submitText('admin-login') }).click();
  for (const [i, digit] of [...'12345'].entries()) await page.getByLabel(new RegExp(`${i + 1}桁目`)).fill(digit);
  await page.getByRole('button', { name: submitText('admin-login-code') }).click();
}

test('every screen renders its data from the contract’s answers, with axe 0', async ({ page }) => {
  test.setTimeout(180_000);
  await fakeApi(page);
  const visits: Array<[string, string, string | string[]]> = [
    ['/admin/', title(''), admin.home.menu],
    ['/admin/applications', title('applications'), '山田 花子'],
    [`/admin/applications/${NUMBER}`, '登録申請の詳細', '東京都千代田区1-1'],
    ['/admin/notices', title('notices'), '年末年始の休業のお知らせ'],
    ['/admin/notices/new', 'お知らせの作成', 'お知らせの本文'],
    ['/admin/inquiries', title('inquiries'), ['C-0001', '制度について']],
    ['/admin/inquiries/i-1', 'お問い合わせの詳細', ['補助金の対象について', '制度について', 'お問い合わせへの回答（受付番号：C-0001）']],
    ['/admin/members', title('members'), 'hanako@example.com'],
    ['/admin/members/m-1', '会員の詳細', ['年末年始の休業のお知らせ', admin.members.disclosures, admin.members.requests, admin.labels.overdue.true]],
    ['/admin/requests', title('requests'), ['山田 花子', admin.labels.requestKind.correction, admin.labels.overdue.true]],
    [`/admin/requests/${request.id}`, '訂正・削除の請求の詳細', ['生年月日を1990年4月2日に訂正してください。', admin.requests.overdueNote]],
    ['/admin/members/export', '会員のCSV出力', 'メールアドレス'],
    ['/admin/stats', title('stats'), ['5未満', '2026年3月31日時点', '秘匿']],
    ['/admin/audit', title('audit'), ['127.0.0.1', `${admin.labels.auditDetail.reason}書類を確認しました。`]],
    ['/admin/operators', title('operators'), '自治体 次郎'],
  ];
  for (const [path, heading, shown] of visits) {
    await page.goto(`${E2E.appUrl}${path}`);
    await expect(h1(page, heading), path).toBeVisible();
    for (const text of [shown].flat()) await expect(page.getByText(text).first(), path).toBeVisible();
    await expectAccessible(page, path);
  }
  // An answered inquiry offers the correction of its answer, not a second answer (refused by the server).
  await page.goto(`${E2E.appUrl}/admin/inquiries/i-1`);
  await expect(page.getByRole('button', { name: admin.inquiries.correct })).toBeVisible();
  await expect(page.getByRole('heading', { name: admin.inquiries.answer, exact: true })).toHaveCount(0);
});

test('a correction request: the list marks it overdue, the detail handles it with the CSRF token; the home counts the open ones', async ({ page }) => {
  const sent = await fakeApi(page);
  await page.goto(`${E2E.appUrl}/admin/`);
  await expect(page.getByRole('link', { name: admin.home.openRequests })).toContainText('1');
  await page.getByRole('link', { name: admin.home.openRequests }).click();
  await expect(h1(page, title('requests'))).toBeVisible();
  await expect(page.getByLabel(admin.fields.status)).toHaveValue('open');
  const row = page.getByRole('row').filter({ hasText: '山田 花子' });
  await expect(row).toContainText(admin.labels.overdue.true);
  await row.getByRole('link').click();
  await expect(h1(page, '訂正・削除の請求の詳細')).toBeVisible();
  // the answer is required: nothing is sent without it
  await page.getByRole('radio', { name: '対応した（訂正・削除を行った）' }).check();
  await page.getByRole('button', { name: submitText('admin-request-handle') }).click();
  await expect(page.getByText('回答を入力してください').first()).toBeVisible();
  expect(sent).toEqual([]);
  await page.getByRole('textbox', { name: /会員への回答/ }).fill('生年月日を訂正しました。');
  await page.getByRole('button', { name: submitText('admin-request-handle') }).click();
  await expect(page.getByText(admin.requests.handled)).toBeVisible();
  expect(sent.map((s) => [s.key, s.csrf, s.body])).toEqual([[`POST /requests/${request.id}/handle`, CSRF, { status: 'done', answer: '生年月日を訂正しました。' }]]);
  await expectAccessible(page, 'a request handled');
});

test('a list: its filters in the URL and sent, focus kept, the bound read 「1,000件以上」; the export takes the list’s filters', async ({ page }) => {
  const asked: Array<Record<string, string>> = [];
  const full = Array.from({ length: 20 }, (_, i) => ({ ...application, register_number: `R20260401-${String(i).padStart(6, '0')}` }));
  const bounded = (route: Route) => {
    asked.push(Object.fromEntries(new URL(route.request().url()).searchParams));
    return route.fulfill({ json: { items: full, total: 1000, bounded: true, page: 1, size: 20, sort: 'newest' } satisfies Api.Page<Api.ApplicationItem>, headers: SESSION_TIMES });
  };
  const exported: Array<Record<string, string>> = [];
  await fakeApi(page, {
    'GET /applications': bounded,
    'GET /members/export.csv': (route) => {
      exported.push(Object.fromEntries(new URL(route.request().url()).searchParams));
      return csvAnswer(route);
    },
  });
  // home: the waiting applications counted to the bound
  await page.goto(`${E2E.appUrl}/admin/`);
  await expect(page.getByRole('link', { name: admin.home.pendingApplicationsBound })).toContainText(admin.records.countBound);
  await page.goto(`${E2E.appUrl}/admin/applications`);
  await expect(page.getByText(admin.records.pageOfBound.replace('{page}', '1'))).toBeVisible();
  await expect(page.getByRole('button', { name: admin.common.next })).toBeEnabled();
  const status = page.getByLabel(admin.applications.status);
  await expect(status).toHaveValue('pending');
  await status.focus();
  await status.selectOption('approved');
  await expect(page).toHaveURL(/[?&]status=approved/);
  await expect.poll(() => asked.at(-1)?.status).toBe('approved');
  await expect(status).toBeFocused();
  await page.getByRole('button', { name: admin.records.today }).click();
  await expect(page).toHaveURL(/applied_from=\d{4}-\d{2}-\d{2}&applied_to=\d{4}-\d{2}-\d{2}/);
  await expect.poll(() => asked.at(-1)?.applied_from).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  await expect(page.getByRole('table', { name: admin.applications.caption })).toBeVisible();
  await expectAccessible(page, 'applications filtered');
  // members filtered by prefecture: the export link takes the filter, the page says whom the file holds
  await page.goto(`${E2E.appUrl}/admin/members`);
  await page.getByLabel(admin.records.prefecture).selectOption('沖縄県');
  await expect(page).toHaveURL(/prefecture=/);
  await page.getByRole('link', { name: admin.members.toExport }).click();
  await expect(h1(page, '会員のCSV出力')).toBeVisible();
  await expect(page.getByLabel(admin.records.prefecture)).toHaveValue('沖縄県');
  await expect(page.getByText(admin.records.exportScope.replace('{scope}', `${admin.records.prefecture}：沖縄県`))).toBeVisible();
  // The box follows the URL the click sets (applied at once, as a select is): clicked, then
  // checked once the URL has it (check() reads the state in the same instant as its click).
  await page.getByLabel(admin.records.mailConsent).click();
  await expect(page.getByLabel(admin.records.mailConsent)).toBeChecked();
  await expect(page.getByText(admin.records.mailAgreed)).toBeVisible();
  await expectAccessible(page, 'members export filtered');
  await page.getByRole('checkbox', { name: 'メールアドレス' }).check();
  await exportButton(page).click();
  await expect(page.getByText(admin.members.exportStarted)).toBeVisible();
  expect(exported).toEqual([{ prefecture: '沖縄県', mail_opt: '1', columns: 'email' }]);
});

test('a decision goes through the confirmation with the member and the mail, with the CSRF token', async ({ page }) => {
  const sent = await fakeApi(page);
  await page.goto(`${E2E.appUrl}/admin/applications/${NUMBER}`);
  await page.getByRole('radio', { name: '否認する' }).check();
  await page.getByRole('button', { name: submitText('admin-decision') }).click();
  // declining needs a reason: nothing was sent
  await expect(page.getByText('否認する場合は理由を入力してください').first()).toBeVisible();
  expect(sent).toEqual([]);
  await page.getByRole('radio', { name: '承認する' }).check();
  await page.getByRole('button', { name: submitText('admin-decision') }).click();
  const dialog = page.getByRole('dialog', { name: admin.applications.confirmApprove });
  await expect(dialog).toContainText('hanako@example.com');
  await expect(dialog).toContainText('登録申請を承認しました。');
  await expectAccessible(page, 'the decision’s confirmation');
  expect(sent.map((s) => s.key)).toEqual([`POST /applications/${NUMBER}/preview`]);
  await dialog.getByRole('button', { name: admin.applications.doApprove }).click();
  await expect(page.getByText(admin.applications.approved)).toBeVisible();
  expect(sent.map((s) => s.key)).toEqual([`POST /applications/${NUMBER}/preview`, `POST /applications/${NUMBER}/decision`]);
  expect(sent.every((s) => s.csrf === CSRF)).toBe(true);
  expect(sent[1].body).toEqual({ decision: 'approved' });
});

test('a notice shows its recipients before it is sent; a session that ended keeps what was typed', async ({ page }) => {
  let alive = false;
  const sent = await fakeApi(page, {
    'POST /notices/preview': (route) =>
      alive ? route.fulfill({ json: ANSWERS['POST /notices/preview'] }) : route.fulfill({ status: 401, json: { error: 'ログインしてください。', code: 'ADMIN_UNAUTHENTICATED' } }),
    'POST /login': (route) => route.fulfill({ json: { flow: 'flow-1' } }),
    'POST /login/code': (route) => {
      alive = true;
      return route.fulfill({ json: session });
    },
  });
  await page.goto(`${E2E.appUrl}/admin/notices/new`);
  await page.getByRole('radio', { name: 'ひとりの会員' }).check();
  await page.getByRole('textbox', { name: '受付番号' }).fill(NUMBER);
  await page.getByRole('textbox', { name: 'お知らせの本文' }).fill('書類の再提出をお願いします。');
  await page.getByRole('button', { name: submitText('admin-notice') }).click();
  // the session had ended: to login, told why
  await expect(h1(page, title('login'))).toBeVisible();
  await expect(page.getByText(admin.login.ended)).toBeVisible();
  await logIn(page, operator.email, 'Clerk-Pass1!');
  // back where the operator was, with what they had typed
  await expect(h1(page, 'お知らせの作成')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'お知らせの本文' })).toHaveValue('書類の再提出をお願いします。');
  await expect(page.getByRole('textbox', { name: '受付番号' })).toHaveValue(NUMBER);
  await page.getByRole('button', { name: submitText('admin-notice') }).click();
  const dialog = page.getByRole('dialog', { name: admin.notices.confirm });
  await expect(dialog).toContainText('送信先：1人');
  await expect(dialog).toContainText('書類の再提出をお願いします。');
  await dialog.getByRole('button', { name: admin.notices.doSend }).click();
  await expect(page.getByText(admin.notices.sent)).toBeVisible();
  const notice = sent.find((s) => s.key === 'POST /notices')!;
  expect(notice.csrf).toBe(CSRF);
  expect(notice.body).toEqual({ audience: 'one', register_number: NUMBER, message: '書類の再提出をお願いします。' });
});

test('a session that ended keeps its drafts for that operator only: another operator logging in here finds an empty form', async ({ page }) => {
  const other = { ...session, operator: { id: 'op-3', email: 'another@office.example.jp', name: '事務局 三郎', role: 'secretariat' } };
  let alive = true;
  await fakeApi(page, {
    'GET /session': (route) => (alive ? route.fulfill({ json: session }) : route.fulfill({ status: 401, json: { error: 'ログインしてください。', code: 'ADMIN_UNAUTHENTICATED' } })),
    'POST /notices/preview': (route) => ((alive = false), route.fulfill({ status: 401, json: { error: 'ログインしてください。', code: 'ADMIN_UNAUTHENTICATED' } })),
    'POST /login': (route) => route.fulfill({ json: { flow: 'flow-1' } }),
    'POST /login/code': (route) => route.fulfill({ json: other }),
  });
  await page.goto(`${E2E.appUrl}/admin/notices/new`);
  await page.getByRole('radio', { name: 'ひとりの会員' }).check();
  await page.getByRole('textbox', { name: '受付番号' }).fill(NUMBER);
  await page.getByRole('textbox', { name: 'お知らせの本文' }).fill('山田様の書類の件です。');
  await page.getByRole('button', { name: submitText('admin-notice') }).click();
  await expect(page.getByText(admin.login.ended)).toBeVisible();
  await logIn(page, other.operator.email, 'Other-Pass1!');
  await expect(h1(page, 'お知らせの作成')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'お知らせの本文' })).toHaveValue('');
  expect(await page.evaluate(() => JSON.stringify(Object.entries(sessionStorage)))).not.toContain('山田様の書類の件です。');
});

/** The members' CSV as the server answers it: UTF-8 with a BOM, CRLF, named by Content-Disposition. */
const CSV_FILE = 'members-20260401.csv';
const csvAnswer = (route: Route) =>
  route.fulfill({
    status: 200,
    headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${CSV_FILE}"` },
    body: Buffer.from('\ufeffメールアドレス,姓\r\nhanako@example.com,山田\r\n', 'utf8'),
  });
const exportButton = (page: Page) => page.getByRole('button', { name: submitText('admin-member-export') });

test('the members’ CSV with the session ended: to login, back at the export with the columns chosen, then the file with its BOM', async ({ page }) => {
  let alive = false;
  const asked: string[] = [];
  await fakeApi(page, {
    'GET /members/export.csv': (route) => {
      asked.push(new URL(route.request().url()).searchParams.get('columns') ?? '');
      return alive ? csvAnswer(route) : route.fulfill({ status: 401, json: { error: 'ログインしてください。', code: 'ADMIN_UNAUTHENTICATED' } });
    },
    'POST /login': (route) => route.fulfill({ json: { flow: 'flow-1' } }),
    'POST /login/code': (route) => {
      alive = true;
      return route.fulfill({ json: session });
    },
  });
  const downloads: string[] = [];
  page.on('download', (download) => downloads.push(download.suggestedFilename()));
  await page.goto(`${E2E.appUrl}/admin/members/export`);
  await page.getByRole('checkbox', { name: 'メールアドレス' }).check();
  await page.getByRole('checkbox', { name: '姓' }).check();
  await exportButton(page).click();
  // the session had ended: to login, told why, and the server's 401 was not saved as the CSV
  await expect(h1(page, title('login'))).toBeVisible();
  await expect(page.getByText(admin.login.ended)).toBeVisible();
  expect(downloads).toEqual([]);
  await logIn(page, operator.email, 'Clerk-Pass1!');
  // back at the export with the columns chosen
  await expect(h1(page, '会員のCSV出力')).toBeVisible();
  await expect(page.getByRole('checkbox', { name: 'メールアドレス' })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: '姓' })).toBeChecked();
  const download = page.waitForEvent('download');
  await exportButton(page).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(CSV_FILE);
  expect(readFileSync((await file.path())!).subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
  await expect(page.getByText(admin.members.exportStarted)).toBeVisible();
  expect(asked).toEqual(['email,last_name_kanji', 'email,last_name_kanji']);
});

test('the members’ CSV refused for another reason: the server’s message, and nothing downloaded', async ({ page }) => {
  await fakeApi(page, { 'GET /members/export.csv': (route) => route.fulfill({ status: 500, json: { error: '処理できませんでした。', code: 'INTERNAL' } }) });
  const downloads: string[] = [];
  page.on('download', (download) => downloads.push(download.suggestedFilename()));
  await page.goto(`${E2E.appUrl}/admin/members/export`);
  await page.getByRole('checkbox', { name: 'メールアドレス' }).check();
  await exportButton(page).click();
  await expect(page.getByRole('alert')).toHaveText('処理できませんでした。');
  await expect(h1(page, '会員のCSV出力')).toBeVisible();
  expect(downloads).toEqual([]);
});

test('the session warning comes before the idle end with the time left; continuing extends it; idle to the end, the operator logs in again', async ({ page }) => {
  await page.clock.install();
  let sessionCalls = 0;
  await fakeApi(page, {
    'GET /session': (route) => {
      sessionCalls += 1;
      return route.fulfill({ json: session, headers: SESSION_TIMES });
    },
  });
  await page.goto(`${E2E.appUrl}/admin/applications`);
  // The list is in: its call was the last (each call moves the idle end).
  await expect(page.getByRole('link', { name: NUMBER })).toBeVisible();
  const warning = page.getByRole('dialog', { name: admin.session.warningTitle });
  await page.clock.fastForward('24:00');
  await expect(warning).toHaveCount(0);
  await page.clock.fastForward('02:00');
  await expect(warning).toBeVisible();
  await expect(warning.getByRole('timer')).toContainText(/残り時間：[34]分/);
  await expect(warning.getByRole('button', { name: admin.session.extend })).toBeFocused();
  await expectAccessible(page, 'the session warning');
  const calls = sessionCalls;
  await warning.getByRole('button', { name: admin.session.extend }).click();
  await expect(warning).toHaveCount(0);
  expect(sessionCalls).toBe(calls + 1);
  // Nothing done for the whole idle length: the login page says why.
  await page.clock.fastForward('31:00');
  await expect(h1(page, title('login'))).toBeVisible();
  await expect(page.getByText(admin.login.ended)).toBeVisible();
});

test('a municipality sees statistics only (and their own account, for its passkeys)', async ({ page }) => {
  await fakeApi(page, { 'GET /session': (route) => route.fulfill({ json: { ...session, operator: { ...operator, role: 'municipality' } } }) });
  await page.goto(`${E2E.appUrl}/admin/`);
  const menu = page.getByRole('navigation', { name: admin.common.menu });
  await expect(menu.getByRole('link')).toHaveText([title(''), title('stats'), title('account')]);
  await page.goto(`${E2E.appUrl}/admin/members/m-1`);
  await expect(page.getByRole('alert')).toHaveText(admin.common.refused);
  await expect(page.getByText('hanako@example.com')).toHaveCount(0);
});

test('logging out leaves no draft in the tab for the next operator', async ({ page }) => {
  const sent = await fakeApi(page, { 'POST /logout': (route) => route.fulfill({ status: 204 }) });
  await page.goto(`${E2E.appUrl}/admin/notices/new`);
  await page.getByRole('textbox', { name: 'お知らせの本文' }).fill('下書きの本文');
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'お知らせの本文' })).toHaveValue('下書きの本文');
  await page.getByRole('button', { name: admin.common.logout }).click();
  await expect(h1(page, title('login'))).toBeVisible();
  expect(sent.find((s) => s.key === 'POST /logout')?.csrf).toBe(CSRF);
  await page.goto(`${E2E.appUrl}/admin/notices/new`);
  await expect(page.getByRole('textbox', { name: 'お知らせの本文' })).toHaveValue('');
});
