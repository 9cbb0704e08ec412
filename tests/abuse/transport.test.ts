// Limits that stop attackers and never lock a member out, where requests arrive: whose address
// the per-IP limit counts, body-less calls whatever headers they carry, bodies that arrive too
// slowly, and the database states that mean "not available now".
import { connect, type AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { API_MESSAGES, CLIENT_KEY, DATABASES, Harness, expectError, expectJapaneseOnly, setUpOrFail, testConfig, type ErrorBody } from '../support/api-harness';
import { loadConfig } from '../../src/server/config';

/** Credential requests one client address may make per window (point 5). */
const IP_LIMIT = 3;

/** The time a request has to arrive whole (REQUEST_TIMEOUT_SECONDS, shortened). */
const TIMEOUT_MS = 1000;

/** What a raw connection heard from the server before the server closed it. */
interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Everything the server sent. */
  text: string;
  /** Milliseconds from connecting until the answer began, and until the server closed. */
  answeredAfterMs: number;
  closedAfterMs: number;
  /** Body bytes the client got to send. */
  sent: number;
}

/** Sends `request` (a request line, headers and the start of a body) on a fresh connection, then
 *  sends nothing more ('stall'), a space every 200 ms ('trickle') or as much as the server takes,
 *  up to `floodBytes` ('flood'), until the server closes the connection. Fails when the server
 *  keeps it open for `giveUpMs`. */
function exchange(port: number, request: string, then: 'stall' | 'trickle' | 'flood', floodBytes = 0, giveUpMs = TIMEOUT_MS + 4000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    let answeredAfterMs = NaN;
    let sent = 0;
    const heard = () => Buffer.concat(received).toString('utf8');
    const trickle = then === 'trickle' ? setInterval(() => socket.write(' '), 200) : undefined;
    const giveUp = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server kept the connection open for ${giveUpMs} ms (${sent} body bytes sent); it said: ${heard().slice(0, 300)}`));
    }, giveUpMs);
    socket.on('data', (chunk: Buffer) => {
      if (!received.length) answeredAfterMs = Date.now() - started;
      received.push(chunk);
    });
    // Writing on after the server has closed ends in EPIPE or ECONNRESET: that is the point.
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(giveUp);
      clearInterval(trickle);
      const text = heard();
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const headers = Object.fromEntries(
        head
          .split('\r\n')
          .slice(1)
          .map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), headers, body: rest.join('\r\n\r\n'), text, answeredAfterMs, closedAfterMs: Date.now() - started, sent });
    });
    socket.write(request);
    if (then === 'flood') {
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        while (!socket.destroyed && sent < floodBytes) {
          sent += chunk.length;
          if (!socket.write(chunk)) return;
        }
      };
      socket.on('drain', pump);
      pump();
    }
  });
}

/** A POST's request line and headers, declaring a JSON body of `length` bytes. */
const postHead = (url: string, length: number, contentType = 'application/json') =>
  `POST ${url} HTTP/1.1\r\nhost: 127.0.0.1\r\nx-client-key: ${CLIENT_KEY}\r\ncontent-type: ${contentType}\r\ncontent-length: ${length}\r\n\r\n`;

/** The answer is the API error `code` in Japanese, with status `status`. */
function expectRawError(answer: RawAnswer, status: number, code: keyof typeof API_MESSAGES) {
  expect(answer.status, answer.text).toBe(status);
  const body = JSON.parse(answer.body) as ErrorBody;
  expect(body).toEqual({ error: API_MESSAGES[code], code });
  expectJapaneseOnly(body);
}

describe.each(DATABASES)('transport ($name)', ({ kind }) => {
  let h: Harness;

  let port: number;

  setUpOrFail(async () => {
    h = await Harness.start(kind, { extra: { requestTimeoutMs: TIMEOUT_MS } });
    // Point 8 needs the real HTTP server: timeouts and connections are Node's, not inject()'s.
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    port = (h.app.server.address() as AddressInfo).port;
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

  it('point 8: a body not complete in time is answered 408 and closed; an early refusal closes too', async () => {
    const [stalled, trickled, garbage] = await Promise.all([
      // A body that stops after its first byte, and one that never ends.
      exchange(port, `${postHead('/v1/user/login', 100)}{`, 'stall'),
      exchange(port, `${postHead('/v1/user/login', 60_000)}{`, 'trickle'),
      // Not HTTP at all.
      exchange(port, 'HELLO\r\n\r\n', 'stall'),
    ]);
    for (const answer of [stalled, trickled]) {
      expectRawError(answer, 408, 'REQUEST_TIMEOUT');
      expect(answer.headers.connection).toBe('close');
      expect(answer.answeredAfterMs).toBeGreaterThanOrEqual(TIMEOUT_MS);
      expect(answer.closedAfterMs).toBeLessThan(TIMEOUT_MS + 2000);
    }
    expectRawError(garbage, 400, 'BAD_REQUEST');

    // Refused before the body was read: the server answers and stops reading, whatever the
    // client goes on sending (it declared 32 MB).
    const declared = 32 * 1024 * 1024;
    const [tooLarge, notJson, noRoute] = await Promise.all([
      exchange(port, postHead('/v1/user/login', declared), 'flood', declared),
      exchange(port, postHead('/v1/user/login', declared, 'application/xml'), 'flood', declared),
      exchange(port, postHead('/v1/no-such-route', declared, 'application/xml'), 'flood', declared),
    ]);
    expectRawError(tooLarge, 413, 'BAD_REQUEST');
    expectRawError(notJson, 415, 'BAD_REQUEST');
    expectRawError(noRoute, 404, 'NOT_FOUND');
    for (const answer of [tooLarge, notJson, noRoute]) {
      expect(answer.headers.connection, answer.text).toBe('close');
      expect(answer.sent).toBeLessThan(declared);
    }

    // The server goes on serving.
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
  });
});
