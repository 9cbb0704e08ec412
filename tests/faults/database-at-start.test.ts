// PostgreSQL unreachable when the server starts. The real stack (startStack) must still come up:
// /healthz ok, /readyz and every API call a Japanese 503 with Retry-After, the client's pages,
// the parent site and the mail catcher served; it logs one line per failed try and, once the
// database answers, migrates, seeds and serves without a restart. A migration that fails for
// any other reason still stops the start.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { build } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { startStack } from '../../src/server/main';
import { API_MESSAGES, CLIENT_KEY, FakeMailer, PG_URL, SECRET, openTestDb, setUpOrFail, testConfig } from '../support/api-harness';
import { expectConsoleError } from '../support/fail-on-console-error';
import { freePort, freePorts, standInDist } from '../support/stack-start';

const RETRY = { firstDelayMs: 100, maxDelayMs: 400 };
const UNAVAILABLE = { error: API_MESSAGES.DB_UNAVAILABLE, code: 'DB_UNAVAILABLE' };

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** DATABASE_URL for `schema` on PG_URL's server, reached through `port` instead. */
function databaseUrl(port: number, schema: string, database?: string): string {
  const url = new URL(PG_URL);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  if (database) url.pathname = `/${database}`;
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}

/** The stack's environment: every port free, the database at `url`. */
async function stackConfig(url: string, dataDir: string) {
  const [port, parent, smtp, web] = await freePorts(4);
  return loadConfig({
    HOST: '127.0.0.1',
    PORT: String(port),
    PARENT_SITE_PORT: String(parent),
    MAIL_CATCHER_SMTP_PORT: String(smtp),
    MAIL_CATCHER_WEB_PORT: String(web),
    DATA_DIR: dataDir,
    DATABASE_URL: url,
    CLIENT_KEY,
    APP_SECRET: SECRET,
    SEED_DEMO: 'true',
    DEMO_EMAIL: 'start-demo@example.com',
    DEMO_PASSWORD: 'Demo-Pass1!',
  });
}

/** What stands where the database should be: nothing yet, then a server that hangs up on
 *  every connection, then a proxy to the real PostgreSQL. */
class Gate {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  constructor(readonly port: number) {}

  async open(mode: 'hang-up' | 'forward'): Promise<void> {
    await this.close();
    const target = new URL(PG_URL);
    this.server = createServer((socket) => {
      this.track(socket);
      if (mode === 'hang-up') return socket.destroy();
      const upstream = this.track(connect(Number(target.port || 5432), target.hostname));
      socket.pipe(upstream).pipe(socket);
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    if (this.server) await new Promise((resolve) => this.server!.close(resolve));
    this.server = undefined;
  }

  private track(socket: Socket): Socket {
    this.sockets.add(socket);
    socket.on('error', () => socket.destroy());
    socket.on('close', () => this.sockets.delete(socket));
    return socket;
  }
}

/** console.error lines so far (the test's spy, fail-on-console-error.ts). */
const errorLines = () => vi.mocked(console.error).mock.calls.map((args) => args.map(String).join(' '));

async function until(condition: () => Promise<boolean> | boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await condition()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return condition();
}

describe('PostgreSQL unreachable at start-up', () => {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  let gate: Gate;
  let distDir: string;
  let dataDir: string;
  let stack: Awaited<ReturnType<typeof startStack>> | undefined;

  setUpOrFail(async () => {
    await admin((c) => c.query(`CREATE SCHEMA "${schema}"`));
    gate = new Gate(await freePort());
    distDir = standInDist();
    dataDir = mkdtempSync(join(tmpdir(), 'member-site-start-data-'));
  });
  afterAll(async () => {
    await stack?.close();
    await gate?.close();
    await admin((c) => c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
    rmSync(distDir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts anyway, answers 503 in Japanese, and migrates and serves once the database is there', async () => {
    expectConsoleError(); // the one line per failed try
    const config = await stackConfig(databaseUrl(gate.port, schema), dataDir);
    stack = await startStack(config, { databaseRetry: RETRY }, distDir);
    const site = `http://127.0.0.1:${config.port}`;
    const get = (url: string, headers: Record<string, string> = {}) => fetch(url, { headers });

    // Up, but not ready.
    const health = await get(`${site}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await get(`${site}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual(UNAVAILABLE);
    for (const [method, url] of [
      ['GET', '/v1/master/options?master_name=industry'],
      ['GET', '/v1/user/info'],
      ['POST', '/v1/user/login'],
    ] as const) {
      const res = await fetch(`${site}${url}`, {
        method,
        headers: { 'x-client-key': CLIENT_KEY, authorization: 'Bearer x', ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) },
        body: method === 'POST' ? JSON.stringify({ email: 'a@example.com', password: 'x' }) : undefined,
      });
      expect(res.status, `${method} ${url}`).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      expect(await res.json()).toEqual(UNAVAILABLE);
    }
    // The client, the parent site and the mail catcher do not need the database.
    const page = await get(`${site}/user/login`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    expect((await get(`${site}/user/assets/index-AAAA.js`)).status).toBe(200);
    expect((await get(`http://127.0.0.1:${config.parentSitePort}/`)).status).toBe(200);
    expect((await get(`http://127.0.0.1:${config.mailCatcherWebPort}/`)).status).toBe(200);

    // A server that takes the connection and drops it is waited out the same way.
    const refusedTries = errorLines().length;
    await gate.open('hang-up');
    expect(await until(() => errorLines().length > refusedTries + 1, 5000), 'tries go on').toBe(true);
    expect((await get(`${site}/readyz`)).status).toBe(503);

    // The database comes through: no restart, ready within seconds.
    await gate.open('forward');
    expect(await until(async () => (await get(`${site}/readyz`)).status === 200, 10_000), '/readyz turns 200').toBe(true);
    await stack.databaseReady;
    const options = await get(`${site}/v1/master/options?master_name=industry`, { 'x-client-key': CLIENT_KEY });
    expect(options.status, await options.clone().text()).toBe(200);
    expect(JSON.stringify(await options.json())).toContain('"value"');
    const demo = await admin((c) => c.query(`select count(*)::int as n from "${schema}".users where email = 'start-demo@example.com'`));
    expect(demo.rows[0].n, 'the demo member was seeded').toBe(1);

    // One short line per failed try, all about the database, no stack trace.
    const lines = errorLines();
    expect(lines.length).toBeGreaterThanOrEqual(3);
    for (const line of lines) {
      expect(line).toMatch(/^database not reachable at start-up \(try \d+: .+\); .*next try in [\d.]+ s$/);
      expect(line).not.toContain('\n');
    }
  });
});

describe('a migration that fails for another reason', () => {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  let dataDir: string;
  let distDir: string;

  setUpOrFail(async () => {
    // A migration history that names a migration this code does not have: Kysely refuses it.
    await admin(async (c) => {
      await c.query(`CREATE SCHEMA "${schema}"`);
      await c.query(`CREATE TABLE "${schema}".kysely_migration (name varchar(255) primary key, timestamp varchar(255) not null)`);
      await c.query(`INSERT INTO "${schema}".kysely_migration VALUES ('0000_from_the_future', '2099-01-01T00:00:00.000Z')`);
    });
    dataDir = mkdtempSync(join(tmpdir(), 'member-site-start-data-'));
    distDir = standInDist();
  });
  afterAll(async () => {
    await admin((c) => c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
    rmSync(distDir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('stops the start with the error, without waiting or listening', async () => {
    const config = await stackConfig(databaseUrl(Number(new URL(PG_URL).port || 5432), schema), dataDir);
    const started = Date.now();
    await expect(startStack(config, { databaseRetry: RETRY }, distDir)).rejects.toThrow(/Migration .*failed/);
    expect(Date.now() - started).toBeLessThan(5000);
    await expect(fetch(`http://127.0.0.1:${config.port}/healthz`)).rejects.toThrow();
  });
});

describe('the ready gate in build()', () => {
  it('holds the API and /readyz at 503 until the start-up migration is done, even with the database there', async () => {
    // Reachable but not yet migrated is the case the gate is for: without it a request could
    // meet a missing table (500) or an unseeded master list.
    const testDb = await openTestDb('sqlite');
    let ready = false;
    const app = await build({ db: testDb.db, mailer: new FakeMailer(), clientKey: CLIENT_KEY, secret: SECRET, config: testConfig, ready: () => ready });
    try {
      const options = () => app.inject({ method: 'GET', url: '/v1/master/options?master_name=industry', headers: { 'x-client-key': CLIENT_KEY } });
      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
      for (const res of [await app.inject({ method: 'GET', url: '/readyz' }), await options(), await app.inject({ method: 'GET', url: '/v1/no-such-route' })]) {
        expect(res.statusCode).toBe(503);
        expect(res.headers['retry-after']).toBe('5');
        expect(res.json()).toEqual(UNAVAILABLE);
      }
      ready = true;
      expect((await app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ready' });
      expect((await options()).statusCode).toBe(200);
    } finally {
      await app.close();
      await testDb.close();
    }
  });
});
