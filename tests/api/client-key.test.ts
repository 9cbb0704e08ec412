// Calls made before login carry the client credential in X-Client-Key; without it (or with a
// wrong one) the API answers 401 CLIENT_KEY_INVALID and does nothing.
import { afterAll, describe, expect, it } from 'vitest';
import { CLIENT_KEY, DATABASES, Harness, expectError, setUpOrFail, type Member } from '../support/api-harness';

describe.each(DATABASES)('client credential ($name)', ({ kind }) => {
  let h: Harness;
  let member: Member;

  setUpOrFail(async () => {
    h = await Harness.start(kind);
    member = await h.createMember();
  });
  afterAll(async () => {
    await h?.close();
  });

  const wrongKeys: [string, string | undefined][] = [
    ['no X-Client-Key', undefined],
    ['an empty X-Client-Key', ''],
    ['a wrong X-Client-Key', 'not-the-client-key'],
    ['a key one character short', CLIENT_KEY.slice(0, -1)],
    ['the key with a character appended', `${CLIENT_KEY}x`],
  ];

  describe.each(['/v1/user/verify', '/v1/user/login'])('POST %s', (url) => {
    it.each(wrongKeys)('with %s → 401 CLIENT_KEY_INVALID', async (_, key) => {
      const mailsBefore = h.mailer.sent.length;
      const res = await h.post(url, { email: member.email, password: member.password }, { 'x-client-key': key });
      expectError(res, 401, 'CLIENT_KEY_INVALID');
      expect(h.mailer.sent).toHaveLength(mailsBefore);
    });
  });

  it('a wrong key is refused even with a body that would fail validation (no field details leak)', async () => {
    const res = await h.post('/v1/user/login', {}, { 'x-client-key': 'wrong' });
    const body = expectError(res, 401, 'CLIENT_KEY_INVALID');
    expect(body.fields).toBeUndefined();
  });

  it('a wrong key never opens a session, even with right credentials and a right code', async () => {
    const code = await h.requestCode(member);
    const res = await h.post('/v1/user/login', { email: member.email, password: member.password, code }, { 'x-client-key': 'wrong' });
    expectError(res, 401, 'CLIENT_KEY_INVALID');
    expect(res.cookies).toHaveLength(0);
    // The code was not spent by the refused call.
    const ok = await h.login({ email: member.email, password: member.password, code });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('the right key is accepted', async () => {
    const res = await h.verify(member.email, member.password);
    expect(res.statusCode, res.body).toBe(200);
  });
});
