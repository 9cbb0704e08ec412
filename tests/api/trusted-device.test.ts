// A browser that has once logged in with a code gets an httpOnly trusted-device cookie; later
// logins from it need only e-mail and password. Without the cookie (or with another member's)
// the code is required.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { DATABASES, Harness, expectError, setUpOrFail, type Member } from '../support/api-harness';

describe.each(DATABASES)('trusted device ($name)', ({ kind }) => {
  let h: Harness;
  let member: Member;
  let other: Member;
  /** The cookie values each member got from a coded login. */
  let memberDevice: string;
  let otherDevice: string;

  setUpOrFail(async () => {
    h = await Harness.start(kind);
    [member, other] = await Promise.all([h.createMember('hanako@example.com', 'Hanako-Pass-1!'), h.createMember('taro@example.com', 'Taro-Pass-2!')]);
    memberDevice = (await h.loginWithCode(member)).device;
    otherDevice = (await h.loginWithCode(other)).device;
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(() => h.mailer.clear());

  const sessionCount = async () => (await h.db.selectFrom('sessions').select('token_hash').execute()).length;

  it('no code and no cookie → 401 CODE_REQUIRED, no session, no cookie', async () => {
    const before = await sessionCount();
    const res = await h.login(member);
    expectError(res, 401, 'CODE_REQUIRED');
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(await sessionCount()).toBe(before);
  });

  it('the cookie from an earlier coded login → 200 with a token, no code and no mail needed', async () => {
    const res = await h.login({ ...member, device: memberDevice });
    expect(res.statusCode, res.body).toBe(200);
    const { token } = res.json<{ token: string }>();
    expect(token.length).toBeGreaterThanOrEqual(43);
    expect(h.mailer.sent).toHaveLength(0);
    const info = await h.info(token);
    expect(info.statusCode).toBe(200);
    expect(info.json<{ email: string }>().email).toBe(member.email);
  });

  it('the cookie can be used again', async () => {
    expect((await h.login({ ...member, device: memberDevice })).statusCode).toBe(200);
    expect((await h.login({ ...member, device: memberDevice })).statusCode).toBe(200);
  });

  it('the cookie of another member → 401 CODE_REQUIRED', async () => {
    expectError(await h.login({ ...member, device: otherDevice }), 401, 'CODE_REQUIRED');
    expectError(await h.login({ ...other, device: memberDevice }), 401, 'CODE_REQUIRED');
  });

  it('an unknown or empty cookie → 401 CODE_REQUIRED', async () => {
    expectError(await h.login({ ...member, device: 'not-a-device-token' }), 401, 'CODE_REQUIRED');
    expectError(await h.login({ ...member, device: `${memberDevice}x` }), 401, 'CODE_REQUIRED');
    expectError(await h.login({ ...member, device: '' }), 401, 'CODE_REQUIRED');
  });

  it('the cookie does not replace the password', async () => {
    expectError(await h.login({ email: member.email, password: 'Wrong-Pass-0!', device: memberDevice }), 401, 'LOGIN_FAILED');
  });

  it('an expired trusted device → 401 CODE_REQUIRED', async () => {
    const { device } = await h.loginWithCode(member);
    expect((await h.login({ ...member, device })).statusCode).toBe(200);
    const past = new Date(Date.now() - 1000).toISOString();
    await h.db.updateTable('trusted_devices').set({ expires_at: past }).where('user_id', '=', member.id).execute();
    expectError(await h.login({ ...member, device }), 401, 'CODE_REQUIRED');
    // A new coded login trusts the browser again.
    const fresh = await h.loginWithCode(member);
    expect((await h.login({ ...member, device: fresh.device })).statusCode).toBe(200);
  });

  it('a trusted device lasts trustedDeviceDays', async () => {
    const rows = await h.db.selectFrom('trusted_devices').select(['created_at', 'expires_at']).where('user_id', '=', other.id).execute();
    expect(rows).toHaveLength(1);
    const days = (Date.parse(rows[0].expires_at) - Date.parse(rows[0].created_at)) / 86_400_000;
    expect(Math.round(days)).toBe(90);
  });

  it('a login through the trusted device sets no new cookie', async () => {
    const res = await h.login({ ...other, device: otherDevice });
    expect(res.statusCode).toBe(200);
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('the trusted_devices table holds no cookie value in plain text', async () => {
    const rows = await h.db.selectFrom('trusted_devices').selectAll().execute();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      for (const value of Object.values(row)) {
        expect(value).not.toBe(memberDevice);
        expect(value).not.toBe(otherDevice);
      }
    }
  });
});
