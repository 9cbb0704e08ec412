// Every answer carries the Content-Security-Policy that lets only the parent site frame the app
// (frame-ancestors, not X-Frame-Options), and unknown /v1 paths answer a Japanese 404.
import { afterAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { CLIENT_KEY, DATABASES, Harness, expectError, setUpOrFail, type Member } from '../support/api-harness';

function directives(res: LightMyRequestResponse): Map<string, string[]> {
  const csp = res.headers['content-security-policy'];
  expect(typeof csp, 'content-security-policy header').toBe('string');
  return new Map(
    String(csp)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name.toLowerCase(), values]),
  );
}

function expectSecurityHeaders(res: LightMyRequestResponse): void {
  const csp = String(res.headers['content-security-policy']);
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("frame-ancestors 'self' http://localhost:8080");
  expect(csp).toContain("object-src 'none'");
  expect(csp).toContain("base-uri 'none'");
  expect(csp).not.toContain('unsafe-eval');
  const d = directives(res);
  expect(d.get('script-src')).toEqual(["'self'"]);
  expect(d.get('frame-ancestors')).toEqual(["'self'", 'http://localhost:8080']);
  expect(res.headers['x-frame-options']).toBeUndefined();
  expect(res.headers['x-content-type-options']).toBe('nosniff');
}

describe.each(DATABASES)('security headers and 404 ($name)', ({ kind }) => {
  let h: Harness;
  let member: Member;
  let token: string;

  setUpOrFail(async () => {
    h = await Harness.start(kind);
    member = await h.createMember();
    token = (await h.loginWithCode(member)).token;
  });
  afterAll(async () => {
    await h?.close();
  });

  const requests: [string, () => Promise<LightMyRequestResponse>][] = [
    ['200 verify', () => h.verify(member.email, member.password)],
    ['200 info', () => h.info(token)],
    ['400 validation', () => h.post('/v1/user/login', {})],
    ['400 malformed JSON', () => h.postRaw('/v1/user/login', '{')],
    ['401 client key', () => h.post('/v1/user/verify', {}, { 'x-client-key': undefined })],
    ['401 login failed', () => h.verify(member.email, 'Wrong-Pass-0!')],
    ['401 unauthenticated', () => h.info()],
    ['404 unknown /v1 path', () => h.app.inject({ method: 'GET', url: '/v1/nope' })],
    ['404 outside /v1', () => h.app.inject({ method: 'GET', url: '/' })],
    ['204 logout', async () => h.logout((await h.loginWithCode(member)).token)],
  ];

  it.each(requests)('%s carries the CSP and no X-Frame-Options', async (_, send) => {
    expectSecurityHeaders(await send());
  });

  it.each([
    ['GET', '/v1/nope'],
    ['GET', '/v1'],
    ['GET', '/v1/user'],
    ['POST', '/v1/user/unknown'],
    ['GET', '/v1/user/login'],
    ['DELETE', '/v1/user/info'],
  ] as const)('%s %s → 404 NOT_FOUND in Japanese', async (method, url) => {
    const res = await h.app.inject({ method, url, headers: { 'x-client-key': CLIENT_KEY, authorization: `Bearer ${token}` } });
    expectError(res, 404, 'NOT_FOUND');
    expect(res.json()).toEqual({ error: 'お探しのページまたはデータが見つかりません。', code: 'NOT_FOUND' });
  });
});
