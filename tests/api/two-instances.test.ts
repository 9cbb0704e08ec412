// Two server instances on one PostgreSQL (two build() apps, each with its own pool, on the same
// schema): a session opened on one works on the other, and the attempt limits hold across
// both — with the counters in the database, and in Redis when the instances are given one.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { Redis } from 'ioredis';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { build } from '../../src/server/app';
import { openDb, type Db } from '../../src/server/db/connect';
import { DEFAULT_LIMITS } from '../../src/server/limits/rate-limits';
import { CLIENT_KEY, FakeMailer, Harness, PG_URL, QUICK_LIMITS, SECRET, expectError, setUpOrFail, testConfig } from '../support/api-harness';

const LIMITS = { ...DEFAULT_LIMITS, ...QUICK_LIMITS, ipRequests: 1_000_000, passwordFailures: 4 };

describe.each([
  { name: 'counters in PostgreSQL', redis: false },
  { name: 'counters in Redis', redis: true },
])('two instances on one database ($name)', ({ redis: useRedis }) => {
  let h: Harness; // instance A (and the test database)
  let b: FastifyInstance;
  let bDb: Db;
  let dataDir: string;
  const redisClients: Redis[] = [];
  const prefix = `test-${randomBytes(4).toString('hex')}`;

  setUpOrFail(async () => {
    const redisFor = () => {
      if (!useRedis) return undefined;
      const client = new Redis('redis://127.0.0.1:6379', { enableOfflineQueue: true, maxRetriesPerRequest: 1 });
      redisClients.push(client);
      return client;
    };
    h = await Harness.start('postgres', { config: { limits: LIMITS }, extra: { redis: redisFor(), limitPrefix: prefix } });
    const schema = (await sql<{ schema: string }>`select current_schema() as schema`.execute(h.db)).rows[0].schema;
    dataDir = await mkdtemp(join(tmpdir(), 'member-site-b-'));
    bDb = openDb({ databaseUrl: PG_URL, dataDir, pgSchema: schema, onPoolError: () => {} });
    b = await build({ db: bDb, mailer: new FakeMailer(), clientKey: CLIENT_KEY, secret: SECRET, config: { ...testConfig, limits: LIMITS }, redis: redisFor(), limitPrefix: prefix });
  });
  afterAll(async () => {
    await b?.close();
    await bDb?.destroy();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    for (const client of redisClients) {
      const keys = await client.keys(`${prefix}:*`);
      if (keys.length) await client.del(...keys);
      client.disconnect();
    }
    await h?.close();
  });

  const verifyOn = (app: FastifyInstance, email: string, password: string) =>
    app.inject({ method: 'POST', url: '/v1/user/verify', headers: { 'content-type': 'application/json', 'x-client-key': CLIENT_KEY }, payload: JSON.stringify({ email, password }) });

  it('a session opened on A works on B, and a logout on B ends it on A', async () => {
    const m = await h.createMember();
    const { token } = await h.loginWithCode(m);
    const onB = await b.inject({ method: 'GET', url: '/v1/user/info', headers: { authorization: `Bearer ${token}` } });
    expect(onB.statusCode, onB.body).toBe(200);
    expect(onB.json<{ email: string }>().email).toBe(m.email);
    expect((await b.inject({ method: 'POST', url: '/v1/user/logout', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(204);
    expectError(await h.info(token), 401, 'UNAUTHENTICATED');
  });

  it('wrong passwords on A and on B count together', async () => {
    const m = await h.createMember();
    for (let i = 0; i < LIMITS.passwordFailures; i++) {
      expectError(await verifyOn(i % 2 ? b : h.app, m.email, 'Wrong-Pass-1!'), 401, 'LOGIN_FAILED');
    }
    expectError(await verifyOn(b, m.email, m.password), 429, 'TOO_MANY_ATTEMPTS');
    expectError(await verifyOn(h.app, m.email, m.password), 429, 'TOO_MANY_ATTEMPTS');
    // Where the counters are: in the database either way (Redis only remembers refusals).
    const rows = await h.db.selectFrom('rate_limits').select('key').where('key', 'like', `${prefix}:password:%`).execute();
    expect(rows.length).toBeGreaterThan(0);
  });
});
