// Limits that stop attackers and never lock a member out, where requests arrive: whose address
// the per-IP limit counts, body-less calls whatever headers they carry, bodies that arrive too
// slowly, and the database states that mean "not available now".
import { afterAll, describe, expect, it } from 'vitest';
import { CLIENT_KEY, DATABASES, Harness, expectError, setUpOrFail, testConfig } from '../support/api-harness';
import { loadConfig } from '../../src/server/config';

/** Credential requests one client address may make per window in this suite. */
const IP_LIMIT = 3;

describe.each(DATABASES)('transport ($name)', ({ kind }) => {
  let h: Harness;

  setUpOrFail(async () => {
    h = await Harness.start(kind);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('point 5: a spoofed X-Forwarded-For from an untrusted peer changes nothing', async () => {
    // The harness builds the app with build()'s default; the server gets TRUST_PROXY's.
    expect(loadConfig({}).trustProxy).toBe('loopback');
    const limited = await Harness.start(kind, { config: { limits: { ...testConfig.limits, ipRequests: IP_LIMIT } } });
    try {
      /** A credential request (a wrong e-mail code: 400) from `remoteAddress`, naming `forwardedFor`. */
      const credentialRequest = (remoteAddress: string, forwardedFor: string) =>
        limited.app.inject({
          method: 'POST',
          url: '/v1/email/verify',
          remoteAddress,
          headers: { 'x-client-key': CLIENT_KEY, 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
          payload: JSON.stringify({ email: 'proxy@example.com', key: '12345' }),
        });
      /** The client addresses the per-IP counters have seen. */
      const countedAddresses = async () => (await limited.db.selectFrom('rate_limits').select('key').where('key', 'like', 'ms:ip:%').execute()).map((r) => r.key.slice('ms:ip:'.length)).sort();

      // A peer on a private network (a container, a LAN neighbour) is not a proxy by default: a
      // new X-Forwarded-For on every request does not get it a new count.
      for (let i = 1; i <= IP_LIMIT; i++) expectError(await credentialRequest('10.1.2.3', `198.51.100.${i}`), 400, 'CODE_INVALID');
      expectError(await credentialRequest('10.1.2.3', '198.51.100.99'), 429, 'TOO_MANY_ATTEMPTS');
      expect(await countedAddresses()).toEqual(['10.1.2.3']);

      // A proxy on the same machine (loopback) is believed: each client it names has its own count.
      await limited.db.deleteFrom('rate_limits').execute();
      for (let i = 1; i <= IP_LIMIT; i++) expectError(await credentialRequest('127.0.0.1', '203.0.113.7'), 400, 'CODE_INVALID');
      expectError(await credentialRequest('127.0.0.1', '203.0.113.7'), 429, 'TOO_MANY_ATTEMPTS');
      expectError(await credentialRequest('127.0.0.1', '203.0.113.8'), 400, 'CODE_INVALID');
      expect(await countedAddresses()).toEqual(['203.0.113.7', '203.0.113.8']);
    } finally {
      await limited.close();
    }
  });

  it('point 7b: logout with an empty body ends the session, whatever headers it carries', async () => {
    for (const headers of [
      { 'content-type': 'application/json' },
      { 'content-type': 'application/json', 'content-length': '0' },
      { 'content-type': 'application/json; charset=utf-8', 'content-length': '0' },
    ]) {
      const { token } = await h.loginWithCode(await h.createMember());
      const res = await h.app.inject({ method: 'POST', url: '/v1/user/logout', headers: { authorization: `Bearer ${token}`, ...headers } });
      expect(res.statusCode, `${JSON.stringify(headers)} → ${res.body}`).toBe(204);
      expectError(await h.info(token), 401, 'UNAUTHENTICATED');
    }
    // A route that needs a body still refuses an empty one, in Japanese, as it refuses none.
    const member = await h.createMember();
    for (const headers of [{}, { 'content-length': '0' }]) expectError(await h.postRaw('/v1/user/verify', '', headers), 400, 'BAD_REQUEST');
    expectError(await h.postRaw('/v1/user/verify', undefined), 400, 'BAD_REQUEST');
    expectError(await h.asMember('PUT', '/v1/user/info', (await h.loginWithCode(member)).token, undefined, { 'content-type': 'application/json' }), 400, 'BAD_REQUEST');
  });
});
