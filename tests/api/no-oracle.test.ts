// What a code-less login, a trusted device and an e-mail change give away or leave behind:
// - POST /v1/user/login without a code from a device the member has not trusted answers the
//   same whether the password is right or wrong (it used to say LOGIN_FAILED vs CODE_REQUIRED);
// - the trusted-device cookie belongs to one member and dies with a password or address change;
// - codes pending for the old address die when the address changes.
import { afterAll, describe, expect, it } from 'vitest';
import { DATABASES, Harness, expectError, setUpOrFail } from '../support/api-harness';

describe.each(DATABASES)('no oracle, nothing left behind ($name)', ({ kind }) => {
  let h: Harness;
  setUpOrFail(async () => {
    h = await Harness.start(kind);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('code-less login from an untrusted device: right and wrong password get the same answer', async () => {
    const m = await h.createMember();
    const right = await h.login({ email: m.email, password: m.password });
    const wrong = await h.login({ email: m.email, password: 'Not-The-Password-1!' });
    const unknown = await h.login({ email: h.uniqueEmail('nobody'), password: m.password });
    expectError(right, 401, 'CODE_REQUIRED');
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(right.statusCode);
      expect(res.body).toBe(right.body);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    // …and a trusted device of another member is no better than none.
    const other = await h.createMember();
    const { device } = await h.loginWithCode(other);
    expect((await h.login({ email: m.email, password: 'Not-The-Password-1!', device })).body).toBe(right.body);
    expect((await h.login({ email: m.email, password: m.password, device })).body).toBe(right.body);
  });

  it('an e-mail change ends the trusted devices and the codes pending for the old address', async () => {
    const m = await h.createMember();
    const { token, device } = await h.loginWithCode(m);
    expect((await h.login({ ...m, device })).statusCode).toBe(200); // trusted before the change
    const pendingLogin = await h.requestCode(m);

    const next = h.uniqueEmail('moved');
    expect((await h.requestEmailChange(token, next)).statusCode).toBe(200);
    expect((await h.confirmEmailChange(token, next, h.mailer.lastCode(next))).statusCode).toBe(200);

    expectError(await h.login({ email: next, password: m.password, device }), 401, 'CODE_REQUIRED');
    const live = await h.db.selectFrom('email_codes').select('id').where('email', '=', m.email).where('consumed_at', 'is', null).execute();
    expect(live).toEqual([]);
    expectError(await h.login({ email: next, password: m.password, code: pendingLogin }), 400, 'CODE_INVALID');
  });

  it('a password reset ends the trusted devices', async () => {
    const m = await h.createMember();
    const { device } = await h.loginWithCode(m);
    expect(await h.db.selectFrom('trusted_devices').select('token_hash').where('user_id', '=', m.id).execute()).toHaveLength(1);
    const member = await h.db.selectFrom('users').select(['birthday', 'phone']).where('id', '=', m.id).executeTakeFirstOrThrow();
    const code = await h.requestResetCode({ email: m.email, birthday: member.birthday, phone: member.phone });
    expect((await h.setPassword(m.email, code, 'Brand-New-Pass-7!')).statusCode).toBe(200);
    expectError(await h.login({ email: m.email, password: 'Brand-New-Pass-7!', device }), 401, 'CODE_REQUIRED');
  });
});
