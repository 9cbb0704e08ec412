// Passkeys (docs/decisions/031), with a software authenticator (tests/support/soft-authenticator.ts)
// whose answers the server verifies for real: a member adds, lists and removes passkeys (a mail
// each time) and logs in with one, no address, password or code; challenges are single use, bound
// to their purpose, live a few minutes; no password hold or IP limit stands in the way; withdrawal
// deletes them.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { DATABASES, Harness, expectError, setUpOrFail, testConfig, type Member } from '../support/api-harness';
import { SoftAuthenticator } from '../support/soft-authenticator';
import { routesOf } from '../../src/server/app';
import { DEFAULT_LIMITS } from '../../src/server/limits/rate-limits';
import { relyingParty } from '../../src/server/services/passkeys';
import { createSessions } from '../../src/server/services/sessions';
import { hashPassword } from '../../src/server/services/passwords';
import { ADMIN_COOKIE } from '../../src/server/admin/settings';
import { operatorSession, type TestOperator } from '../support/admin-session';
import { asOperator } from '../support/admin-records';

const { rpID, origin } = relyingParty(testConfig.publicUrl);
const RP = { rpId: rpID, origin };

describe.each(DATABASES)('passkeys ($name)', ({ kind }) => {
  let h: Harness;

  setUpOrFail(async () => {
    h = await Harness.start(kind);
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(() => h.mailer.clear());

  const json = (res: { body: string }) => JSON.parse(res.body) as Record<string, unknown>;
  /** A member with a session as a password and a code open it (their own tests are elsewhere). */
  const member = async (): Promise<Member & { token: string }> => {
    const m = await h.createMember();
    const { token } = await createSessions(h.db, testConfig).open(m.id);
    return { ...m, token };
  };
  const loginOptions = async () => {
    const res = await h.post('/v1/user/passkey-login/options', undefined);
    expect(res.statusCode, res.body).toBe(200);
    return json(res) as { challenge: string; rpId: string; userVerification: string; allowCredentials?: unknown[] };
  };
  const addPasskey = async (m: { token: string }, authenticator: SoftAuthenticator, name = 'スマートフォン') => {
    const options = await h.asMember('POST', '/v1/user/passkeys/options', m.token);
    expect(options.statusCode, options.body).toBe(200);
    const response = authenticator.create(json(options) as { challenge: string });
    return h.asMember('POST', '/v1/user/passkeys', m.token, { name, response });
  };
  const passkeyLogin = (response: unknown) => h.post('/v1/user/passkey-login', { response });
  const remove = (token: string, id: string) => h.app.inject({ method: 'DELETE', url: `/v1/user/passkeys/${id}`, headers: { authorization: `Bearer ${token}` } });

  it('registration options: the relying party is PUBLIC_URL\'s host, a discoverable credential with user verification, none of the member\'s passkeys again', async () => {
    const m = await member();
    const first = json(await h.asMember('POST', '/v1/user/passkeys/options', m.token)) as { rp: { id: string }; authenticatorSelection: Record<string, unknown>; excludeCredentials: unknown[] };
    expect(first.rp.id).toBe(new URL(testConfig.publicUrl).hostname);
    expect(first.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' });
    expect(first.excludeCredentials).toEqual([]);
    expect((await addPasskey(m, new SoftAuthenticator(RP))).statusCode).toBe(201);
    const second = json(await h.asMember('POST', '/v1/user/passkeys/options', m.token)) as { excludeCredentials: unknown[] };
    expect(second.excludeCredentials).toHaveLength(1);
    expect((await h.post('/v1/user/passkeys/options', undefined)).statusCode).toBe(401);
  });

  it('a member adds a passkey, named; it is listed with when it was added and last used; a mail tells the member', async () => {
    const m = await member();
    const added = await addPasskey(m, new SoftAuthenticator(RP), '  自宅のパソコン ');
    expect(added.statusCode, added.body).toBe(201);
    const list = json(await h.asMember('GET', '/v1/user/passkeys', m.token)) as { items: Array<Record<string, unknown>> };
    expect(list.items).toEqual([{ id: expect.any(String), name: '自宅のパソコン', created_at: expect.any(String), last_used_at: null }]);
    expect(h.mailer.to(m.email).map((mail) => [mail.template, mail.values.passkey])).toEqual([['passkeyAdded', '自宅のパソコン']]);
    const stored = await h.db.selectFrom('passkeys').selectAll().where('owner_id', '=', m.id).executeTakeFirstOrThrow();
    expect(stored.public_key).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('the name is required and at most its limit; nothing is kept and no challenge is spent on a refused name', async () => {
    const m = await member();
    const authenticator = new SoftAuthenticator(RP);
    const options = json(await h.asMember('POST', '/v1/user/passkeys/options', m.token)) as { challenge: string };
    const response = authenticator.create(options);
    expectError(await h.asMember('POST', '/v1/user/passkeys', m.token, { name: '', response }), 400, 'VALIDATION');
    expectError(await h.asMember('POST', '/v1/user/passkeys', m.token, { name: 'あ'.repeat(31), response }), 400, 'VALIDATION');
    expect((await h.asMember('POST', '/v1/user/passkeys', m.token, { name: '鍵', response })).statusCode).toBe(201);
  });

  it('logs in with the passkey alone: the same session and answer a password and code give', async () => {
    const m = await member();
    const authenticator = new SoftAuthenticator(RP);
    await addPasskey(m, authenticator);
    const options = await loginOptions();
    expect(options.userVerification).toBe('required');
    expect(options.allowCredentials ?? []).toEqual([]);
    const res = await passkeyLogin(authenticator.get(options));
    expect(res.statusCode, res.body).toBe(200);
    const body = json(res) as { token: string; expires_in: number; ends_in: number };
    expect(body).toEqual({ token: expect.any(String), expires_in: testConfig.sessionSeconds, ends_in: testConfig.sessionMaxSeconds });
    expect((await h.info(body.token)).statusCode).toBe(200);
    const [item] = (json(await h.asMember('GET', '/v1/user/passkeys', body.token)) as { items: Array<{ last_used_at: string | null }> }).items;
    expect(item.last_used_at).not.toBeNull();
    expect(h.mailer.to(m.email).filter((mail) => mail.template === 'loginCode')).toEqual([]);
  });

  it('a challenge is single use, bound to its purpose, to this origin and RP, and to user verification', async () => {
    const m = await member();
    const authenticator = new SoftAuthenticator(RP);
    await addPasskey(m, authenticator);
    const options = await loginOptions();
    const answer = authenticator.get(options);
    expect((await passkeyLogin(answer)).statusCode).toBe(200);
    expectError(await passkeyLogin(answer), 400, 'PASSKEY_FAILED');
    expectError(await passkeyLogin(authenticator.get(options)), 400, 'PASSKEY_FAILED');
    // A challenge made for adding a passkey is no login challenge.
    const registration = json(await h.asMember('POST', '/v1/user/passkeys/options', m.token)) as { challenge: string };
    expectError(await passkeyLogin(authenticator.get(registration)), 400, 'PASSKEY_FAILED');
    // Another origin, another RP, no user verification: refused, each challenge spent.
    expectError(await passkeyLogin(authenticator.get(await loginOptions(), { origin: 'https://evil.example' })), 400, 'PASSKEY_FAILED');
    const elsewhere = new SoftAuthenticator({ ...RP, rpId: 'evil.example' });
    await addPasskey(m, elsewhere).then((res) => expectError(res, 400, 'PASSKEY_FAILED'));
    const noPin = new SoftAuthenticator({ ...RP, userVerified: false });
    await addPasskey(m, noPin).then((res) => expectError(res, 400, 'PASSKEY_FAILED'));
    // A challenge nobody handed out, and one past its lifetime.
    expectError(await passkeyLogin(authenticator.get({ challenge: 'bm90LWEtY2hhbGxlbmdl' })), 400, 'PASSKEY_FAILED');
    const late = await loginOptions();
    await h.db.updateTable('webauthn_challenges').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('challenge', '=', late.challenge).execute();
    expectError(await passkeyLogin(authenticator.get(late)), 400, 'PASSKEY_FAILED');
    // Still good with a fresh challenge.
    expect((await passkeyLogin(authenticator.get(await loginOptions()))).statusCode).toBe(200);
  });

  it('an unknown credential and a malformed answer are refused', async () => {
    const stranger = new SoftAuthenticator(RP);
    stranger.create({ challenge: 'eA' });
    expectError(await passkeyLogin(stranger.get(await loginOptions())), 400, 'PASSKEY_FAILED');
    expectError(await h.post('/v1/user/passkey-login', { response: { id: 'x', rawId: 'x', type: 'public-key', response: { clientDataJSON: 'bm90IGpzb24' } } }), 400, 'PASSKEY_FAILED');
    expectError(await h.post('/v1/user/passkey-login', { response: { id: 'x' } }), 400, 'VALIDATION');
  });

  it(`after ${DEFAULT_LIMITS.passwordFailures + 1} wrong passwords the passkey still logs in; no passkey route is counted per IP`, async () => {
    const m = await member();
    const authenticator = new SoftAuthenticator(RP);
    await addPasskey(m, authenticator);
    for (let i = 0; i <= DEFAULT_LIMITS.passwordFailures; i++) await h.post('/v1/user/verify', { email: m.email, password: 'Wrong-Pass-1!' });
    expectError(await h.verify(m.email, m.password), 429, 'TOO_MANY_ATTEMPTS');
    for (let i = 0; i < 3; i++) expect((await passkeyLogin(authenticator.get(await loginOptions()))).statusCode).toBe(200);
    const routes = routesOf(h.app).filter((r) => r.url.includes('passkey'));
    expect(routes.length).toBeGreaterThanOrEqual(6);
    expect(routes.filter((r) => r.limited)).toEqual([]);
  });

  it('removing: only the member\'s own passkey, with a mail; it no longer logs in', async () => {
    const m = await member();
    const other = await member();
    const authenticator = new SoftAuthenticator(RP);
    const { passkey } = json(await addPasskey(m, authenticator, 'タブレット')) as { passkey: { id: string } };
    h.mailer.clear();
    expectError(await remove(other.token, passkey.id), 404, 'NOT_FOUND');
    expect((await remove(m.token, passkey.id)).statusCode).toBe(204);
    expect(h.mailer.to(m.email).map((mail) => [mail.template, mail.values.passkey])).toEqual([['passkeyRemoved', 'タブレット']]);
    expect((json(await h.asMember('GET', '/v1/user/passkeys', m.token)) as { items: unknown[] }).items).toEqual([]);
    expectError(await passkeyLogin(authenticator.get(await loginOptions())), 400, 'PASSKEY_FAILED');
    expectError(await remove(m.token, passkey.id), 404, 'NOT_FOUND');
  });

  it('withdrawal deletes the member\'s passkeys; a password reset and an e-mail change keep them', async () => {
    const m = await member();
    const authenticator = new SoftAuthenticator(RP);
    await addPasskey(m, authenticator);
    await h.db.updateTable('users').set({ email: h.uniqueEmail('moved') }).where('id', '=', m.id).execute();
    expect((await passkeyLogin(authenticator.get(await loginOptions()))).statusCode).toBe(200);
    await h.db.updateTable('users').set({ email: m.email }).where('id', '=', m.id).execute();
    expect((await h.withdraw(m.token, { password: m.password })).statusCode).toBe(200);
    expect(await h.db.selectFrom('passkeys').select('id').where('owner_id', '=', m.id).execute()).toEqual([]);
    expectError(await passkeyLogin(authenticator.get(await loginOptions())), 400, 'PASSKEY_FAILED');
  });
});

describe.each(DATABASES)('operators\' passkeys: a second factor instead of the mailed code ($name)', ({ kind }) => {
  let h: Harness;
  const PASSWORD = 'Office-Pass-7!';

  setUpOrFail(async () => {
    h = await Harness.start(kind);
  });
  afterAll(async () => {
    await h?.close();
  });

  /** An operator with a password and a live session (for their account screen). */
  async function operator() {
    const o = await operatorSession(h.db, 'secretariat', '鍵 太郎');
    await h.db.updateTable('operators').set({ password_hash: await hashPassword(PASSWORD) }).where('id', '=', o.id).execute();
    return o;
  }
  const addFor = async (o: TestOperator, authenticator: SoftAuthenticator, name = '事務所のパソコン') => {
    const options = await asOperator(h, o, 'POST', '/v1/admin/account/passkeys/options', {});
    expect(options.statusCode, options.body).toBe(200);
    return asOperator(h, o, 'POST', '/v1/admin/account/passkeys', { name, response: authenticator.create(options.json()) });
  };
  const passwordStep = async (email: string) => {
    const res = await h.post('/v1/admin/login', { email, password: PASSWORD });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ flow: string; passkey: boolean }>();
  };
  const passkeyStep = async (flow: string, authenticator: SoftAuthenticator) => {
    const options = await h.post('/v1/admin/login/passkey/options', { flow });
    if (options.statusCode !== 200) return options;
    return h.post('/v1/admin/login/passkey', { flow, response: authenticator.get(options.json()) });
  };
  const auditOf = (id: string) => h.db.selectFrom('audit_log').selectAll().where('operator_id', '=', id).orderBy('at').execute();

  it('adds a passkey on their account (audited), then logs in with password + passkey instead of the code (audited), and the flow\'s code is spent', async () => {
    const o = await operator();
    expect((await passwordStep(o.email)).passkey).toBe(false);
    const authenticator = new SoftAuthenticator(RP);
    const added = await addFor(o, authenticator);
    expect(added.statusCode, added.body).toBe(201);
    const listed = await asOperator(h, o, 'GET', '/v1/admin/account/passkeys');
    expect(listed.json().items).toEqual([{ id: expect.any(String), name: '事務所のパソコン', created_at: expect.any(String), last_used_at: null }]);

    const { flow, passkey } = await passwordStep(o.email);
    expect(passkey).toBe(true);
    const code = h.mailer.lastCode(o.email);
    const res = await passkeyStep(flow, authenticator);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.cookies.some((c) => c.name === ADMIN_COOKIE)).toBe(true);
    expect(res.json().operator.id).toBe(o.id);
    expectError(await h.post('/v1/admin/login/code', { flow, code }), 400, 'CODE_INVALID');
    const entries = await auditOf(o.id);
    expect(entries.map((e) => e.action)).toEqual(['passkeys.add', 'session.login']);
    expect(JSON.parse(entries[1]!.detail)).toEqual({ method: 'passkey', passkey: '事務所のパソコン' });
  });

  it('only after the right password, only the operator\'s own passkey, bound to the flow; removal is audited and ends the passkey', async () => {
    const o = await operator();
    const other = await operator();
    const mine = new SoftAuthenticator(RP);
    const theirs = new SoftAuthenticator(RP);
    await addFor(o, mine);
    await addFor(other, theirs);
    expectError(await passkeyStep('no-such-flow', mine), 400, 'PASSKEY_FAILED');
    const { flow } = await passwordStep(o.email);
    // Options name only this operator's passkey; another operator's passkey answering is refused.
    const options = await h.post('/v1/admin/login/passkey/options', { flow });
    expect(options.json().allowCredentials).toEqual([expect.objectContaining({ id: mine.credentials[0]!.id.toString('base64url') })]);
    expectError(await h.post('/v1/admin/login/passkey', { flow, response: theirs.get(options.json()) }), 400, 'PASSKEY_FAILED');
    // A challenge bound to another flow is not this flow's.
    const second = await passwordStep(o.email);
    const foreign = await h.post('/v1/admin/login/passkey/options', { flow: second.flow });
    expectError(await h.post('/v1/admin/login/passkey', { flow, response: mine.get(foreign.json()) }), 400, 'PASSKEY_FAILED');
    // A member's login challenge is no operator's.
    const memberOptions = await h.post('/v1/user/passkey-login/options', undefined);
    expectError(await h.post('/v1/admin/login/passkey', { flow, response: mine.get(memberOptions.json()) }), 400, 'PASSKEY_FAILED');
    // Nor does an operator's passkey log in as a member.
    expectError(await h.post('/v1/user/passkey-login', { response: mine.get((await h.post('/v1/user/passkey-login/options', undefined)).json()) }), 400, 'PASSKEY_FAILED');

    const [item] = (await asOperator(h, o, 'GET', '/v1/admin/account/passkeys')).json().items as Array<{ id: string }>;
    expectError(await asOperator(h, other, 'DELETE', `/v1/admin/account/passkeys/${item!.id}`), 404, 'NOT_FOUND');
    expect((await asOperator(h, o, 'DELETE', `/v1/admin/account/passkeys/${item!.id}`)).statusCode).toBe(204);
    expect((await auditOf(o.id)).map((e) => e.action)).toEqual(['passkeys.add', 'passkeys.remove']);
    const third = await passwordStep(o.email);
    expect(third.passkey).toBe(false);
    expectError(await passkeyStep(third.flow, mine), 400, 'PASSKEY_FAILED');
  });
});
