// PostgreSQL connections dropped under the server (pg_terminate_backend: what a restart, a
// failover or an idle-connection reaper does). The process must stay up, answer 503 in Japanese
// while the database is gone, and recover by itself.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { API_MESSAGES, Harness, PG_URL, setUpOrFail, type Member } from '../support/api-harness';

const APP_NAME = `fault-${randomBytes(4).toString('hex')}`;

/** Ends every backend of this test's pool, and only those (other suites share the server). */
async function terminateOurBackends(): Promise<number> {
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  try {
    const { rows } = await admin.query('select pg_terminate_backend(pid) as done from pg_stat_activity where application_name = $1', [APP_NAME]);
    return rows.filter((r: { done: boolean }) => r.done).length;
  } finally {
    await admin.end();
  }
}

/** The first 200 within a second of tries, or the last answer; only 503 may come before it. */
async function eventually200(request: () => Promise<LightMyRequestResponse>): Promise<LightMyRequestResponse> {
  let res = await request();
  for (let i = 0; i < 20 && res.statusCode !== 200; i++) {
    expect(res.statusCode, res.body).toBe(503);
    await new Promise((r) => setTimeout(r, 50));
    res = await request();
  }
  return res;
}

describe('PostgreSQL connections terminated mid-traffic', () => {
  let h: Harness;
  let member: Member;
  let token: string;

  setUpOrFail(async () => {
    h = await Harness.start('postgres', { applicationName: APP_NAME });
    member = await h.createMember();
    ({ token } = await h.loginWithCode(member));
  });
  afterAll(async () => {
    await h?.close();
  });

  it('stays up, answers only 200 or a Japanese 503, and recovers', async () => {
    const statuses: number[] = [];
    const bodies: string[] = [];
    let running = true;
    const traffic = (async () => {
      while (running) {
        const batch = await Promise.all([h.info(token), h.info(token), h.app.inject({ method: 'GET', url: '/readyz' })]);
        for (const res of batch) {
          statuses.push(res.statusCode);
          if (res.statusCode !== 200) bodies.push(res.body);
        }
      }
    })();
    let terminated = 0;
    for (let round = 0; round < 5; round++) {
      await new Promise((r) => setTimeout(r, 40));
      terminated += await terminateOurBackends();
    }
    running = false;
    await traffic;

    expect(terminated, 'backends terminated').toBeGreaterThan(0);
    expect(statuses, 'some requests met a dropped connection').toContain(503);
    expect(statuses.length).toBeGreaterThan(10);
    expect(new Set(statuses.filter((s) => s !== 200)), bodies.join('\n')).toEqual(new Set([503]));
    for (const body of bodies) expect(JSON.parse(body)).toEqual({ error: API_MESSAGES.DB_UNAVAILABLE, code: 'DB_UNAVAILABLE' });

    // Recovered by itself: a connection ended just now may still fail one more request (its
    // socket's end arrives a moment later); within a second fresh connections serve again.
    const after = await eventually200(() => h.info(token));
    expect(after.statusCode, after.body).toBe(200);
    expect(after.json<{ email: string }>().email).toBe(member.email);
    expect((await eventually200(() => h.app.inject({ method: 'GET', url: '/readyz' }))).statusCode).toBe(200);
  });

  it('idle connections dropped between requests do not end the process', async () => {
    await h.info(token); // leaves idle connections in the pool
    expect(await terminateOurBackends()).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 100)); // the idle clients' 'error' events fire here
    const again = await eventually200(() => h.info(token));
    expect(again.statusCode, again.body).toBe(200);
  });
});

describe('health endpoints', () => {
  it('/healthz answers without the database; /readyz answers 503 in Japanese when it is gone', async () => {
    const h = await Harness.start('postgres', { applicationName: `${APP_NAME}-r` });
    try {
      expect((await h.app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
      expect((await h.app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ready' });
      await h.db.destroy(); // the pool is gone: every query fails
      const ready = await h.app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ error: API_MESSAGES.DB_UNAVAILABLE, code: 'DB_UNAVAILABLE' });
      expect((await h.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await h.close().catch(() => {});
    }
  });
});
