// The back office's routes as one table (tests/api/admin-roles.test.ts tries every role on each,
// tests/api/admin-audit.test.ts counts the audit entries each leaves): for each "METHOD path",
// the action its guard names and a request that succeeds, on fixtures of its own.
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { AdminAction } from '../../src/server/admin/permissions';
import { testConfig, validContact, type Harness } from './api-harness';
import { SoftAuthenticator } from './soft-authenticator';
import { relyingParty } from '../../src/server/services/passkeys';
import { operatorSession, type TestOperator } from './admin-session';
import { applicant, asOperator } from './admin-records';

export interface Request {
  url: string;
  body?: unknown;
}

export interface Row {
  action: AdminAction;
  /** A request that would succeed, on fixtures of its own (an allowed role may change them), as
   *  sent by `operator` (a passkey's challenge and its removal are the operator's own). */
  request: (h: Harness, operator: TestOperator) => Promise<Request>;
  /** The request ends the session it is sent with (logout): sent with a fresh one. */
  ownSession?: boolean;
}

async function inquiryOf(h: Harness): Promise<string> {
  const member = await h.createMember(h.uniqueEmail('role-asker'), 'Role-Asker-1!');
  const { token } = await h.loginWithCode(member);
  expect((await h.contact(token, validContact(member.email))).statusCode).toBe(200);
  return (await h.db.selectFrom('inquiries').select('id').where('user_id', '=', member.id).executeTakeFirstOrThrow()).id;
}

/** A member's open correction request (made on 登録情報の開示), by its id. */
async function requestOf(h: Harness): Promise<string> {
  const member = await h.registerMember();
  const res = await h.asMember('POST', '/v1/user/requests', member.token, { kind: 'correction', text: '生年月日を訂正してください。' });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ request: { id: string } }>().request.id;
}

async function answeredInquiry(h: Harness, office: TestOperator): Promise<{ id: string; answerId: string }> {
  const id = await inquiryOf(h);
  const res = await asOperator(h, office, 'POST', `/v1/admin/inquiries/${id}/answer`, { answer: '回答です。' });
  expect(res.statusCode, res.body).toBe(201);
  return { id, answerId: res.json().answer_id };
}

async function decided(h: Harness, office: TestOperator): Promise<string> {
  const a = await applicant(h);
  const res = await asOperator(h, office, 'POST', `/v1/admin/applications/${a.registerNumber}/decision`, { decision: 'approved' });
  expect(res.statusCode, res.body).toBe(200);
  return a.registerNumber;
}

/** Routes that need no session: logging in, setting up an account (branch i23-accounts) and the
 *  operator's own password reset (issue 34). */
export const PUBLIC = new Set([
  'POST /v1/admin/login', 'POST /v1/admin/login/code', 'POST /v1/admin/login/passkey/options', 'POST /v1/admin/login/passkey', 'GET /v1/admin/setup', 'POST /v1/admin/setup',
  'POST /v1/admin/password-reset', 'GET /v1/admin/password-reset/link', 'POST /v1/admin/password-reset/link',
]);

/** A passkey answer made for `operator`'s own registration challenge (docs/decisions/031). */
async function passkeyOf(h: Harness, operator: TestOperator): Promise<Request> {
  const { rpID, origin } = relyingParty(testConfig.publicUrl);
  const options = await asOperator(h, operator, 'POST', '/v1/admin/account/passkeys/options', {});
  expect(options.statusCode, options.body).toBe(200);
  return { url: '/v1/admin/account/passkeys', body: { name: '事務所のパソコン', response: new SoftAuthenticator({ rpId: rpID, origin }).create(options.json()) } };
}

/** A passkey of `operator`'s, kept straight in the database, to be removed. */
async function storedPasskey(h: Harness, operator: TestOperator): Promise<string> {
  const id = randomUUID();
  await h.db
    .insertInto('passkeys')
    .values({ id, owner_type: 'operator', owner_id: operator.id, credential_id: randomUUID(), public_key: 'AA', counter: 0, transports: '[]', name: '古い鍵', created_at: new Date().toISOString(), last_used_at: null })
    .execute();
  return id;
}

/** Every guarded route, by "METHOD path" as Fastify prints it. The accounts' rows name routes
 *  of the contract that branch adds; a row whose route the app lacks is not tried. */
export function table(office: () => TestOperator): Record<string, Row> {
  return {
    // Accounts (branch i23-accounts).
    'GET /v1/admin/session': { action: 'session.own', request: async () => ({ url: '/v1/admin/session' }) },
    // Logging out ends the session it is sent with: each role does it with a session of its own.
    'POST /v1/admin/logout': { action: 'session.own', ownSession: true, request: async () => ({ url: '/v1/admin/logout', body: {} }) },
    // The operator's own passkeys (docs/decisions/031).
    'GET /v1/admin/account/passkeys': { action: 'session.own', request: async () => ({ url: '/v1/admin/account/passkeys' }) },
    'POST /v1/admin/account/passkeys/options': { action: 'session.own', request: async () => ({ url: '/v1/admin/account/passkeys/options', body: {} }) },
    'POST /v1/admin/account/passkeys': { action: 'session.own', request: passkeyOf },
    'DELETE /v1/admin/account/passkeys/:id': { action: 'session.own', request: async (h, operator) => ({ url: `/v1/admin/account/passkeys/${await storedPasskey(h, operator)}` }) },
    'GET /v1/admin/operators': { action: 'operators.manage', request: async () => ({ url: '/v1/admin/operators' }) },
    'POST /v1/admin/operators': { action: 'operators.manage', request: async () => ({ url: '/v1/admin/operators', body: { email: `new-${randomUUID().slice(0, 8)}@office.example.jp`, name: '新任', role: 'secretariat' } }) },
    'POST /v1/admin/operators/:id/disable': { action: 'operators.manage', request: async (h) => ({ url: `/v1/admin/operators/${(await operatorSession(h.db, 'secretariat')).id}/disable`, body: {} }) },
    'POST /v1/admin/operators/:id/setup-link': { action: 'operators.manage', request: async (h) => ({ url: `/v1/admin/operators/${(await operatorSession(h.db, 'secretariat')).id}/setup-link`, body: {} }) },
    // Records.
    'GET /v1/admin/applications': { action: 'applications.view', request: async () => ({ url: '/v1/admin/applications?status=pending' }) },
    'GET /v1/admin/applications/:registerNumber': { action: 'applications.view', request: async (h) => ({ url: `/v1/admin/applications/${(await applicant(h)).registerNumber}` }) },
    'POST /v1/admin/applications/:registerNumber/preview': { action: 'applications.decide', request: async (h) => ({ url: `/v1/admin/applications/${(await applicant(h)).registerNumber}/preview`, body: { decision: 'approved' } }) },
    'POST /v1/admin/applications/:registerNumber/decision': { action: 'applications.decide', request: async (h) => ({ url: `/v1/admin/applications/${(await applicant(h)).registerNumber}/decision`, body: { decision: 'declined', reason: '要件を満たしていません。' } }) },
    'POST /v1/admin/applications/:registerNumber/reversal': { action: 'applications.reverse', request: async (h) => ({ url: `/v1/admin/applications/${await decided(h, office())}/reversal`, body: { reason: '再審査します。' } }) },
    'GET /v1/admin/notices': { action: 'notices.view', request: async () => ({ url: '/v1/admin/notices' }) },
    'POST /v1/admin/notices/preview': { action: 'notices.send', request: async () => ({ url: '/v1/admin/notices/preview', body: { audience: 'all', message: 'お知らせです。' } }) },
    'POST /v1/admin/notices': { action: 'notices.send', request: async (h) => ({ url: '/v1/admin/notices', body: { audience: 'one', register_number: (await applicant(h)).registerNumber, message: 'お知らせです。' } }) },
    'POST /v1/admin/notices/:id/retract': {
      action: 'notices.retract',
      request: async (h) => {
        const res = await asOperator(h, office(), 'POST', '/v1/admin/notices', { audience: 'all', message: '取り下げるお知らせです。' });
        return { url: `/v1/admin/notices/${res.json().notice.id}/retract`, body: {} };
      },
    },
    'GET /v1/admin/inquiries': { action: 'inquiries.view', request: async () => ({ url: '/v1/admin/inquiries?status=all' }) },
    'GET /v1/admin/inquiries/operators': { action: 'inquiries.view', request: async () => ({ url: '/v1/admin/inquiries/operators' }) },
    'GET /v1/admin/inquiries/:id': { action: 'inquiries.view', request: async (h) => ({ url: `/v1/admin/inquiries/${await inquiryOf(h)}` }) },
    'POST /v1/admin/inquiries/:id/answer/preview': { action: 'inquiries.handle', request: async (h) => ({ url: `/v1/admin/inquiries/${await inquiryOf(h)}/answer/preview`, body: { answer: '回答です。' } }) },
    'POST /v1/admin/inquiries/:id/answer': { action: 'inquiries.handle', request: async (h) => ({ url: `/v1/admin/inquiries/${await inquiryOf(h)}/answer`, body: { answer: '回答です。' } }) },
    'POST /v1/admin/inquiries/:id/answers/:answerId/correction/preview': {
      action: 'inquiries.handle',
      request: async (h) => {
        const { id, answerId } = await answeredInquiry(h, office());
        return { url: `/v1/admin/inquiries/${id}/answers/${answerId}/correction/preview`, body: { answer: '訂正です。', note: '誤記' } };
      },
    },
    'POST /v1/admin/inquiries/:id/answers/:answerId/correction': {
      action: 'inquiries.handle',
      request: async (h) => {
        const { id, answerId } = await answeredInquiry(h, office());
        return { url: `/v1/admin/inquiries/${id}/answers/${answerId}/correction`, body: { answer: '訂正です。', note: '誤記' } };
      },
    },
    'POST /v1/admin/inquiries/:id/assign': { action: 'inquiries.handle', request: async (h) => ({ url: `/v1/admin/inquiries/${await inquiryOf(h)}/assign`, body: { operator_id: office().id } }) },
    'POST /v1/admin/inquiries/:id/done': { action: 'inquiries.handle', request: async (h) => ({ url: `/v1/admin/inquiries/${await inquiryOf(h)}/done`, body: {} }) },
    'GET /v1/admin/requests': { action: 'requests.view', request: async () => ({ url: '/v1/admin/requests?status=open' }) },
    'GET /v1/admin/requests/:id': { action: 'requests.view', request: async (h) => ({ url: `/v1/admin/requests/${await requestOf(h)}` }) },
    'POST /v1/admin/requests/:id/handle': { action: 'requests.handle', request: async (h) => ({ url: `/v1/admin/requests/${await requestOf(h)}/handle`, body: { status: 'done', answer: '訂正しました。' } }) },
    'GET /v1/admin/members': { action: 'members.view', request: async () => ({ url: '/v1/admin/members?q=%E5%B1%B1%E7%94%B0' }) },
    'GET /v1/admin/members/:id': { action: 'members.view', request: async (h) => ({ url: `/v1/admin/members/${(await applicant(h)).id}` }) },
    'GET /v1/admin/members/export-columns': { action: 'members.export', request: async () => ({ url: '/v1/admin/members/export-columns' }) },
    'GET /v1/admin/members/export.csv': { action: 'members.export', request: async () => ({ url: '/v1/admin/members/export.csv?columns=email,last_name_kanji' }) },
    'GET /v1/admin/stats': { action: 'stats.view', request: async () => ({ url: '/v1/admin/stats' }) },
    'GET /v1/admin/audit': { action: 'audit.view', request: async () => ({ url: '/v1/admin/audit' }) },
  };
}

/** The app's routes under /v1/admin/ as "METHOD path" (from Fastify's route tree). */
export function adminRoutes(h: Harness): string[] {
  const out: string[] = [];
  const paths: string[] = [];
  for (const line of h.app.printRoutes({ commonPrefix: false }).split('\n')) {
    const at = line.search(/[^│├└─ ]/);
    const node = /^(\S+)(?: \(([A-Z, ]+)\))?$/.exec(line.slice(at));
    if (at < 0 || !node) continue;
    const depth = at / 4;
    paths[depth] = (paths[depth - 1] ?? '') + node[1]!;
    paths.length = depth + 1;
    for (const method of node[2]?.split(', ') ?? []) if (method !== 'HEAD' && paths[depth]!.startsWith('/v1/admin/')) out.push(`${method} ${paths[depth]}`);
  }
  return [...new Set(out)].filter((route) => !PUBLIC.has(route));
}

/** Everything the back office may change, as it is now. */
export async function snapshot(h: Harness): Promise<string> {
  const tables = ['applications', 'application_decisions', 'notifications', 'inquiries', 'inquiry_answers', 'mail_outbox', 'audit_log', 'operators', 'operator_setup_links', 'users', 'passkeys', 'member_requests'] as const;
  const dump: Record<string, unknown> = {};
  for (const name of tables) dump[name] = await h.db.selectFrom(name).selectAll().orderBy('id').execute();
  return JSON.stringify(dump);
}

