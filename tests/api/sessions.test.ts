// Sessions: the bearer token from POST /v1/user/login identifies the member on GET /v1/user/info
// until it expires or POST /v1/user/logout revokes it. Tokens are stored only hashed.
import { afterAll, describe, expect, it } from 'vitest';
import { CLIENT_KEY, DATABASES, Harness, expectError, testConfig, setUpOrFail, type Member } from '../support/api-harness';

describe.each(DATABASES)('sessions and GET /v1/user/info ($name)', ({ kind }) => {
  let h: Harness;
  let hanako: Member;
  let taro: Member;
  let leaving: Member;

  setUpOrFail(async () => {
    h = await Harness.start(kind);
    [hanako, taro, leaving] = await Promise.all([
      h.createMember('hanako@example.com', 'Hanako-Pass-1!'),
      h.createMember('taro@example.com', 'Taro-Pass-2!', {
        last_name_kanji: '佐藤',
        first_name_kanji: '太郎',
        last_name_alpha: 'SATO',
        first_name_alpha: 'TARO',
        birthday: '1985-12-31',
        gender: 'male',
        phone: '0698765432',
        mail_opt: '0',
      }),
      h.createMember('leaving@example.com', 'Leaving-Pass-3!'),
    ]);
  });
  afterAll(async () => {
    await h?.close();
  });

  const session = async (m: Member) => (await h.loginWithCode(m)).token;

  it('the token → 200 with the member\'s e-mail, names and profile', async () => {
    const res = await h.info(await session(hanako));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      email: 'hanako@example.com',
      last_name_kanji: '山田',
      first_name_kanji: '花子',
      last_name_alpha: 'YAMADA',
      first_name_alpha: 'HANAKO',
      birthday: '1990-04-01',
      gender: 'female',
      job: '1',
      jobLabel: '会社員（正社員）',
      industry: '8',
      industry_other: '',
      zip_current: '1000001',
      address_current: '東京都千代田区千代田1-1',
      amc: '',
      phone: '0312345678',
      purpose: '1,3',
      purpose_detail: '週末は地方で農業体験をしながら、平日は東京で働く暮らしを試したいです。',
      purpose_other: '',
      mail_opt: '1',
    });
  });

  it('never returns the password hash or internal ids', async () => {
    const res = await h.info(await session(hanako));
    const body = res.json<Record<string, unknown>>();
    expect(body).not.toHaveProperty('password_hash');
    expect(body).not.toHaveProperty('id');
    expect(body).not.toHaveProperty('status');
    expect(res.body).not.toContain('$argon2');
    expect(res.body).not.toContain(hanako.id);
  });

  it('another member\'s token returns that other member\'s data only', async () => {
    const [hanakoToken, taroToken] = [await session(hanako), await session(taro)];
    const asTaro = (await h.info(taroToken)).json<Record<string, string>>();
    expect(asTaro).toMatchObject({
      email: 'taro@example.com',
      last_name_kanji: '佐藤',
      first_name_kanji: '太郎',
      last_name_alpha: 'SATO',
      first_name_alpha: 'TARO',
      birthday: '1985-12-31',
      gender: 'male',
      phone: '0698765432',
      mail_opt: '0',
    });
    expect(JSON.stringify(asTaro)).not.toContain('hanako');
    expect(JSON.stringify(asTaro)).not.toContain('HANAKO');
    const asHanako = (await h.info(hanakoToken)).json<Record<string, string>>();
    expect(asHanako.email).toBe('hanako@example.com');
    expect(asHanako.last_name_alpha).toBe('YAMADA');
  });

  it('no token → 401 UNAUTHENTICATED', async () => {
    expectError(await h.info(), 401, 'UNAUTHENTICATED');
  });

  it('the client key alone is not a session → 401 UNAUTHENTICATED', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/v1/user/info', headers: { 'x-client-key': CLIENT_KEY } });
    expectError(res, 401, 'UNAUTHENTICATED');
  });

  it.each([
    ['an unknown token', 'Bearer AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['an empty bearer', 'Bearer '],
    ['another scheme', 'Basic aGFuYWtvOnBhc3M='],
    ['a token without scheme', 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
  ])('%s → 401 UNAUTHENTICATED', async (_, authorization) => {
    const res = await h.app.inject({ method: 'GET', url: '/v1/user/info', headers: { authorization } });
    expectError(res, 401, 'UNAUTHENTICATED');
  });

  it('the token hash itself is not a token → 401 UNAUTHENTICATED', async () => {
    const token = await session(hanako);
    const rows = await h.db.selectFrom('sessions').select('token_hash').execute();
    for (const row of rows) expect(row.token_hash).not.toBe(token);
    expectError(await h.info(rows[0].token_hash), 401, 'UNAUTHENTICATED');
  });

  it('a session lasts sessionSeconds', async () => {
    await h.db.deleteFrom('sessions').where('user_id', '=', taro.id).execute();
    const before = Date.now();
    await session(taro);
    const row = await h.db.selectFrom('sessions').selectAll().where('user_id', '=', taro.id).executeTakeFirstOrThrow();
    expect(Date.parse(row.expires_at) - before).toBeGreaterThanOrEqual(testConfig.sessionSeconds * 1000 - 50);
    expect(Date.parse(row.expires_at) - Date.now()).toBeLessThanOrEqual(testConfig.sessionSeconds * 1000 + 50);
    expect(row.revoked_at).toBeNull();
  });

  it('an expired session → 401 SESSION_EXPIRED', async () => {
    const token = await session(hanako);
    expect((await h.info(token)).statusCode).toBe(200);
    const past = new Date(Date.now() - 1000).toISOString();
    // Expire every session of hanako's (only the newest is the one under test, but none is reused).
    await h.db.updateTable('sessions').set({ expires_at: past }).where('user_id', '=', hanako.id).execute();
    expectError(await h.info(token), 401, 'SESSION_EXPIRED');
    expectError(await h.logout(token), 401, 'SESSION_EXPIRED');
  });

  it('POST /v1/user/logout → 204; afterwards the token → 401', async () => {
    const token = await session(taro);
    const res = await h.logout(token);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expectError(await h.info(token), 401, 'UNAUTHENTICATED');
    expectError(await h.logout(token), 401, 'UNAUTHENTICATED');
  });

  it('logout ends only that session', async () => {
    const first = await session(taro);
    const second = await session(taro);
    expect((await h.logout(first)).statusCode).toBe(204);
    expectError(await h.info(first), 401, 'UNAUTHENTICATED');
    const still = await h.info(second);
    expect(still.statusCode).toBe(200);
    expect(still.json<{ email: string }>().email).toBe(taro.email);
  });

  it('logout without a token → 401 UNAUTHENTICATED', async () => {
    const res = await h.app.inject({ method: 'POST', url: '/v1/user/logout', headers: { 'x-client-key': CLIENT_KEY } });
    expectError(res, 401, 'UNAUTHENTICATED');
  });

  it('a withdrawn member\'s session no longer works', async () => {
    const token = await session(leaving);
    expect((await h.info(token)).statusCode).toBe(200);
    await h.db.updateTable('users').set({ status: 'withdrawn', withdrawn_at: new Date().toISOString() }).where('id', '=', leaving.id).execute();
    expectError(await h.info(token), 401, 'UNAUTHENTICATED');
  });

  it('tokens are not stored in plain text: no sessions column equals a token', async () => {
    const tokens = [await session(hanako), await session(taro)];
    const rows = await h.db.selectFrom('sessions').selectAll().execute();
    expect(rows.length).toBeGreaterThanOrEqual(2);
    for (const row of rows) {
      expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
      for (const value of Object.values(row)) {
        for (const token of tokens) {
          expect(value).not.toBe(token);
          if (typeof value === 'string') expect(value).not.toContain(token);
        }
      }
    }
  });
});
