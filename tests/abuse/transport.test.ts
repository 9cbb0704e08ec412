// Limits that stop attackers and never lock a member out, where requests arrive: whose address
// the per-IP limit counts, body-less calls whatever headers they carry, bodies that arrive too
// slowly, and the database states that mean "not available now".
import { connect, type AddressInfo } from 'node:net';
import pg from 'pg';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { API_MESSAGES, CLIENT_KEY, DATABASES, Harness, PG_URL, expectError, expectJapaneseOnly, setUpOrFail, testConfig, type ErrorBody } from '../support/api-harness';
import { loadConfig } from '../../src/server/config';
import { isDatabaseUnavailable, isMissingDatabase } from '../../src/server/db/errors';

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
  /** Milliseconds from connecting until the answer began. */
  answeredAfterMs: number;
  /** Body bytes the client got to send. */
  sent: number;
}

/** Sends `request` (a request line, headers and the start of a body) on a fresh connection, then
 *  sends nothing more ('stall'), a space every 200 ms ('trickle') or as much as the server takes,
 *  up to `floodBytes` ('flood'), until the server closes the connection. Fails when the server
 *  keeps it open for `giveUpMs`. */
function exchange(port: number, request: string, then: 'stall' | 'trickle' | 'flood', floodBytes = 0, giveUpMs = TIMEOUT_MS + 10_000): Promise<RawAnswer> {
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
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), headers, body: rest.join('\r\n\r\n'), text, answeredAfterMs, sent });
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

/** An error as node-postgres reports one from the server: SQLSTATE, severity and source file. */
type PgError = Error & { code: string; severity: string; file: string };
const pgError = (code: string, message: string, file: string, severity = 'ERROR'): PgError => Object.assign(new Error(message), { code, severity, file });

/** PostgreSQL's states, as the server reports them, and whether each means "not available now". */
const PG_STATES: Array<[error: PgError, outage: boolean]> = [
  [pgError('08006', 'server closed the connection unexpectedly', 'pqcomm.c', 'FATAL'), true],
  [pgError('08001', 'could not connect to server', 'fe-connect.c', 'FATAL'), true],
  [pgError('08P01', 'bind message supplies 1 parameters, but prepared statement "" requires 2', 'postgres.c'), false],
  [pgError('53300', 'sorry, too many clients already', 'proc.c', 'FATAL'), true],
  [pgError('53100', 'could not extend file: No space left on device', 'md.c'), true],
  [pgError('53200', 'out of memory', 'mcxt.c'), true],
  [pgError('55000', 'database "site" is not currently accepting connections', 'postinit.c', 'FATAL'), true],
  [pgError('55000', 'lastval is not yet defined in this session', 'sequence.c'), false],
  [pgError('55006', 'database "site" is being accessed by other users', 'dbcommands.c'), false],
  [pgError('55P03', 'canceling statement due to lock timeout', 'postgres.c'), true],
  [pgError('57014', 'canceling statement due to statement timeout', 'postgres.c'), false],
  [pgError('57P01', 'terminating connection due to administrator command', 'postgres.c', 'FATAL'), true],
  [pgError('57P02', 'terminating connection because of crash of another server process', 'postgres.c', 'FATAL'), true],
  [pgError('57P03', 'the database system is starting up', 'backend_startup.c', 'FATAL'), true],
  [pgError('57P04', 'terminating connection due to conflict with recovery', 'postgres.c', 'FATAL'), true],
  [pgError('57P05', 'terminating connection due to idle-session timeout', 'postgres.c', 'FATAL'), true],
  [pgError('3D000', 'database "site" does not exist', 'postinit.c', 'FATAL'), true],
  [pgError('25006', 'cannot execute INSERT in a read-only transaction', 'utility.c'), true],
  [pgError('28P01', 'password authentication failed for user "site"', 'auth.c', 'FATAL'), false],
  [pgError('28000', 'no pg_hba.conf entry for host "10.0.0.9", user "site", database "site"', 'auth.c', 'FATAL'), false],
  [pgError('58000', 'could not fork new process for connection: Resource temporarily unavailable', 'postmaster.c', 'FATAL'), true],
  [pgError('58030', 'could not read block 0 in file "base/16384/16385": Input/output error', 'md.c'), true],
  [pgError('58P01', 'could not open file "/tmp/x" for reading: No such file or directory', 'copyfromparse.c'), false],
  [pgError('42P01', 'relation "users" does not exist', 'parse_relation.c'), false],
  [pgError('23505', 'duplicate key value violates unique constraint "users_email_key"', 'nbtinsert.c'), false],
];

describe('point 10: the outage classifier', () => {
  it('point 10: every PostgreSQL state that means "not available now" is an outage, and no other', () => {
    for (const [error, outage] of PG_STATES) expect(isDatabaseUnavailable(error), `${error.code} ${error.message}`).toBe(outage);
    // A database that does not exist is an outage while the site runs, but stops the start-up.
    expect(PG_STATES.filter(([error]) => isMissingDatabase(error)).map(([error]) => error.code)).toEqual(['3D000']);
  });

  it('point 10: the real PostgreSQL server\'s refusals are judged the same', async () => {
    /** What opening a session on `database` fails with. */
    const refusal = async (database: string) => {
      const url = new URL(PG_URL);
      url.pathname = `/${database}`;
      const client = new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: 5000 });
      try {
        await client.connect();
        throw new Error(`${database} accepted the connection`);
      } catch (error) {
        return error;
      } finally {
        await client.end().catch(() => {});
      }
    };
    // template0 never allows connections (datallowconn false): the maintenance state, at session start.
    const closed = await refusal('template0');
    expect(closed).toMatchObject({ code: '55000' });
    expect(isDatabaseUnavailable(closed)).toBe(true);
    const missing = await refusal(`no_such_database_${Date.now()}`);
    expect(missing).toMatchObject({ code: '3D000' });
    expect(isDatabaseUnavailable(missing) && isMissingDatabase(missing)).toBe(true);
    // The same SQLSTATE from a statement is the statement's own fault.
    const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 5000 });
    await client.connect();
    try {
      const bug = await client.query('select lastval()').then(() => undefined, (error: unknown) => error);
      expect(bug).toMatchObject({ code: '55000' });
      expect(isDatabaseUnavailable(bug)).toBe(false);
    } finally {
      await client.end();
    }
  });
});

/** Every statement the app runs fails with `error` while it is set, as a database in that state
 *  would answer it. */
class DatabaseState implements KyselyPlugin {
  error: Error | undefined;

  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    return node;
  }

  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (this.error) throw this.error;
    return result;
  }
}

describe.each(DATABASES)('transport ($name)', ({ kind }) => {
  let h: Harness;
  const state = new DatabaseState();
  let port: number;

  setUpOrFail(async () => {
    h = await Harness.start(kind, { plugins: [state], extra: { requestTimeoutMs: TIMEOUT_MS } });
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
      /** A blind request (a made-up mailed link: 400) from `remoteAddress`, naming `forwardedFor`. */
      const credentialRequest = (remoteAddress: string, forwardedFor: string) =>
        limited.app.inject({
          method: 'POST',
          url: '/v1/email/link',
          remoteAddress,
          headers: { 'x-client-key': CLIENT_KEY, 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
          payload: JSON.stringify({ key: 'A'.repeat(43) }),
        });
      /** The client addresses the per-IP counters have seen. */
      const countedAddresses = async () => (await limited.db.selectFrom('rate_limits').select('key').where('key', 'like', 'ms:ip:%').execute()).map((r) => r.key.slice('ms:ip:'.length)).sort();

      // A peer on a private network (a container, a LAN neighbour) is not a proxy by default: a
      // new X-Forwarded-For on every request does not get it a new count.
      for (let i = 1; i <= IP_LIMIT; i++) expectError(await credentialRequest('10.1.2.3', `198.51.100.${i}`), 400, 'CODE_LINK_INVALID');
      expectError(await credentialRequest('10.1.2.3', '198.51.100.99'), 429, 'TOO_MANY_ATTEMPTS');
      expect(await countedAddresses()).toEqual(['10.1.2.3']);

      // A proxy on the same machine (loopback) is believed: each client it names has its own count.
      await limited.db.deleteFrom('rate_limits').execute();
      for (let i = 1; i <= IP_LIMIT; i++) expectError(await credentialRequest('127.0.0.1', '203.0.113.7'), 400, 'CODE_LINK_INVALID');
      expectError(await credentialRequest('127.0.0.1', '203.0.113.7'), 429, 'TOO_MANY_ATTEMPTS');
      expectError(await credentialRequest('127.0.0.1', '203.0.113.8'), 400, 'CODE_LINK_INVALID');
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
      // Answered no sooner than the timeout, and closed by the server (exchange() fails when the
      // connection outlives its give-up time, ten times the timeout: no bound a busy machine misses).
      expect(answer.answeredAfterMs).toBeGreaterThanOrEqual(TIMEOUT_MS);
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

  it('point 10: a route meeting a "not available now" state answers the Japanese 503 with Retry-After, and serves again after', async () => {
    const { token } = await h.loginWithCode(await h.createMember());
    const options = () => h.app.inject({ method: 'GET', url: '/v1/master/options?master_name=job', headers: { 'x-client-key': CLIENT_KEY } });
    try {
      for (const [error, outage] of PG_STATES) {
        state.error = error;
        for (const res of [await h.info(token), await options()]) {
          const what = `${error.code} ${error.message}: ${res.body}`;
          if (outage) {
            expect(res.headers['retry-after'], what).toBe('5');
            expectError(res, 503, 'DB_UNAVAILABLE');
          } else {
            expect(res.headers['retry-after'], what).toBeUndefined();
            expectError(res, 500, 'INTERNAL');
          }
        }
      }
    } finally {
      state.error = undefined;
    }
    expect((await h.info(token)).statusCode).toBe(200);
    expect((await options()).statusCode).toBe(200);
  });
});
