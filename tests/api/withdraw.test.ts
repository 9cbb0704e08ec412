// POST /v1/user/withdraw {password, reason}: with the right password the member becomes
// 'withdrawn', the reason is kept in withdrawals, every session and trusted device ends, the login
// fails from then on and a 'withdrawn' mail is sent; the address is free to register again.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { UserInfo } from '../../src/shared/api-types';
import type { User } from '../../src/server/db/types';
import { DATABASES, Harness, SlowReads, expectError, japaneseText, setUpOrFail, type Member } from '../support/api-harness';
import { rulesOf } from '../support/schema-messages';
import messages from '../../messages/ja.json';

// messages/ja.json "api" and schemas/forms/withdraw.schema.json, schemas/shared/fields.json.
const WRONG_PASSWORD = messages.api.WRONG_PASSWORD;
const withdrawForm = rulesOf('withdraw');
const PASSWORD_REQUIRED = withdrawForm.required('password');
const REASON_MAX = withdrawForm.message('reason', 'maxLength');
const REASON_MAX_LENGTH = withdrawForm.limit('reason', 'maxLength');

describe.each(DATABASES)('POST /v1/user/withdraw ($name)', ({ kind }) => {
  let h: Harness;

  setUpOrFail(async () => {
    h = await Harness.start(kind);
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(() => {
    h.mailer.failing = false;
    h.mailer.clear();
  });

  /** A fresh member with a session (the login code mail is cleared). */
  async function member(): Promise<Member & { token: string; device: string }> {
    const m = await h.createMember(h.uniqueEmail('leaving'), 'Leaving-Pass-3!');
    const session = await h.loginWithCode(m);
    h.mailer.clear();
    return { ...m, ...session };
  }

  async function row(id: string): Promise<User> {
    return h.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  }

  async function withdrawals(id: string) {
    return h.db.selectFrom('withdrawals').selectAll().where('user_id', '=', id).execute();
  }

  /** The member is as before: the same row, no withdrawal, the session works, no mail. */
  async function expectUntouched(m: Member & { token: string }, before: User) {
    expect(await row(m.id)).toEqual(before);
    expect(await withdrawals(m.id)).toEqual([]);
    expect((await h.info(m.token)).statusCode).toBe(200);
    expect(h.mailer.sent).toEqual([]);
  }

  it('a wrong password → 400 WRONG_PASSWORD with fields.password, nothing changed', async () => {
    const m = await member();
    const before = await row(m.id);
    expectError(await h.withdraw(m.token, { password: 'Wrong-Pass-0!', reason: '引っ越しのため' }), 400, 'WRONG_PASSWORD', { password: [WRONG_PASSWORD] });
    await expectUntouched(m, before);
  });

  it('another member\'s password → 400 WRONG_PASSWORD', async () => {
    const m = await member();
    const before = await row(m.id);
    const other = await h.createMember(h.uniqueEmail('other'), 'Other-Pass-4!');
    expectError(await h.withdraw(m.token, { password: other.password }), 400, 'WRONG_PASSWORD', { password: [WRONG_PASSWORD] });
    await expectUntouched(m, before);
  });

  it('a missing password → 400 VALIDATION, fields.password "パスワードを入力してください"', async () => {
    const m = await member();
    const before = await row(m.id);
    expectError(await h.withdraw(m.token, { reason: '引っ越しのため' }), 400, 'VALIDATION', { password: [PASSWORD_REQUIRED] });
    expectError(await h.withdraw(m.token, {}), 400, 'VALIDATION', { password: [PASSWORD_REQUIRED] });
    expectError(await h.withdraw(m.token, { password: '' }), 400, 'VALIDATION', { password: [PASSWORD_REQUIRED] });
    await expectUntouched(m, before);
  });

  it('a reason of 1001 characters → 400 VALIDATION, fields.reason "1000文字以内で入力してください"', async () => {
    const m = await member();
    const before = await row(m.id);
    expectError(await h.withdraw(m.token, { password: m.password, reason: japaneseText(REASON_MAX_LENGTH + 1) }), 400, 'VALIDATION', { reason: [REASON_MAX] });
    await expectUntouched(m, before);
  });

  it('a reason of 1000 characters is accepted and stored whole', async () => {
    const m = await member();
    const reason = japaneseText(REASON_MAX_LENGTH);
    expect((await h.withdraw(m.token, { password: m.password, reason })).statusCode).toBe(200);
    expect((await withdrawals(m.id)).map((w) => w.reason)).toEqual([reason]);
  });

  it('no reason → 200, stored as ""', async () => {
    const m = await member();
    expect((await h.withdraw(m.token, { password: m.password })).statusCode).toBe(200);
    expect((await withdrawals(m.id)).map((w) => w.reason)).toEqual(['']);
  });

  it('no token → 401 UNAUTHENTICATED, nothing changed', async () => {
    const m = await member();
    const before = await row(m.id);
    expectError(await h.withdraw(undefined, { password: m.password }), 401, 'UNAUTHENTICATED');
    await expectUntouched(m, before);
  });

  it('success → 200; withdrawn, the reason stored, every session ends, the login fails, a withdrawn mail; the address can register again', async () => {
    const registered = await h.registerMember(h.uniqueEmail('again'));
    const second = await h.loginWithCode(registered);
    const third = await h.loginWithCode(registered);
    const tokens = [registered.token, second.token, third.token];
    for (const token of tokens) expect((await h.info(token)).statusCode).toBe(200);
    h.mailer.clear();
    const other = await member();
    const otherBefore = await row(other.id);

    const started = new Date().toISOString();
    const res = await h.withdraw(second.token, { password: registered.password, reason: '  転居のため、しばらく利用できなくなりました。  ' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: 'withdrawn' });

    // The member row is kept, marked withdrawn.
    const user = await row(registered.id);
    expect(user.status).toBe('withdrawn');
    expect(user.withdrawn_at).not.toBeNull();
    expect(user.withdrawn_at! >= started).toBe(true);
    expect(user.email).toBe(registered.email);

    // The reason (trimmed) in withdrawals.
    const rows = await withdrawals(registered.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ user_id: registered.id, reason: '転居のため、しばらく利用できなくなりました。' });

    // Every session of the member ends, not only the one used.
    for (const token of tokens) {
      expectError(await h.info(token), 401, 'UNAUTHENTICATED');
      expectError(await h.applications(token), 401, 'UNAUTHENTICATED');
    }
    const sessions = await h.db.selectFrom('sessions').select('revoked_at').where('user_id', '=', registered.id).execute();
    expect(sessions).toHaveLength(3);
    for (const s of sessions) expect(s.revoked_at).not.toBeNull();

    // The old credentials no longer log in: not with a code, not through the trusted device.
    expectError(await h.verify(registered.email, registered.password), 401, 'LOGIN_FAILED');
    // Code-less, the answer is CODE_REQUIRED: the devices are no longer trusted (docs/decisions/015).
    expectError(await h.login({ email: registered.email, password: registered.password, device: third.device }), 401, 'CODE_REQUIRED');
    expectError(await h.login({ email: registered.email, password: registered.password, device: second.device }), 401, 'CODE_REQUIRED');
    expect(await h.db.selectFrom('trusted_devices').select('token_hash').where('user_id', '=', registered.id).execute()).toEqual([]);

    // One mail, to the member: withdrawn.
    expect(h.mailer.to(registered.email)).toEqual([{ to: registered.email, template: 'withdrawn', values: { name: '山田 太郎' } }]);
    expect(h.mailer.to(registered.email).filter((m) => m.template === 'loginCode')).toHaveLength(0);

    // Nobody else is touched.
    expect(await row(other.id)).toEqual(otherBefore);
    expect((await h.info(other.token)).statusCode).toBe(200);

    // A withdrawn member cannot withdraw twice.
    expectError(await h.withdraw(second.token, { password: registered.password }), 401, 'UNAUTHENTICATED');

    // The same address can register again: a new member, a new application.
    const sent = await h.sendRegistrationCode(registered.email);
    expect(sent.statusCode, sent.body).toBe(200);
    const again = await h.registerMember(registered.email, { last_name_kanji: '佐々木', first_name_kanji: '次郎' });
    expect(again.id).not.toBe(registered.id);
    expect((await h.info(again.token)).json<UserInfo>()).toMatchObject({ email: registered.email, last_name_kanji: '佐々木', first_name_kanji: '次郎' });
    expect((await row(registered.id)).status).toBe('withdrawn');
    const applications = await h.applications(again.token);
    expect(applications.json()).toEqual([expect.objectContaining({ status: 'pending', registerNumber: again.registerNumber })]);
    // … and log in with it.
    const login = await h.loginWithCode(again);
    expect((await h.info(login.token)).json<UserInfo>().last_name_kanji).toBe('佐々木');
  });

  it('a failing mail relay does not undo the withdrawal', async () => {
    const m = await member();
    h.mailer.failing = true;
    const res = await h.withdraw(m.token, { password: m.password });
    expect(res.statusCode, res.body).toBe(200);
    expect((await row(m.id)).status).toBe('withdrawn');
    expectError(await h.info(m.token), 401, 'UNAUTHENTICATED');
  });
});

// A double submit (two clicks, or a retry while the first is still running): the member is read
// as active by both requests before either writes. Only one withdrawal may happen.
describe.each(DATABASES)('POST /v1/user/withdraw twice at once ($name)', ({ kind }) => {
  let h: Harness;

  setUpOrFail(async () => {
    h = await Harness.start(kind, { plugins: [new SlowReads('users', 60)] });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('one withdrawal: one withdrawals row and one withdrawn mail; the other answer is 401', async () => {
    const m = await h.createMember(h.uniqueEmail('double'), 'Double-Pass-5!');
    const { token } = await h.loginWithCode(m);
    h.mailer.clear();
    const answers = await Promise.all([h.withdraw(token, { password: m.password, reason: '一回目' }), h.withdraw(token, { password: m.password, reason: '二回目' })]);
    const bodies = answers.map((r) => r.body).join('\n');
    expect(answers.filter((r) => r.statusCode === 200).length, bodies).toBeGreaterThanOrEqual(1);
    for (const refused of answers.filter((r) => r.statusCode !== 200)) expectError(refused, 401, 'UNAUTHENTICATED');
    const user = await h.db.selectFrom('users').select('status').where('id', '=', m.id).executeTakeFirstOrThrow();
    expect(user.status).toBe('withdrawn');
    expect(await h.db.selectFrom('withdrawals').select('reason').where('user_id', '=', m.id).execute(), bodies).toHaveLength(1);
    expect(h.mailer.to(m.email).filter((mail) => mail.template === 'withdrawn'), bodies).toHaveLength(1);
  });
});
