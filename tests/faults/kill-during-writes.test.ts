// kill -9 during a burst of writes, then a restart on the same database: every write the server
// acknowledged is there, the database is intact, and the server serves again.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { CLIENT_KEY, PG_URL, validContact, type DbKind } from '../support/api-harness';

const SERVER = fileURLToPath(new URL('./support/write-server.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

async function start(env: Record<string, string>): Promise<{ child: ChildProcess; port: number }> {
  // node itself with tsx's loader, not the tsx command: that one runs the server in a child
  // process of its own, so SIGKILL would end the wrapper and leave the server running.
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${err}`)), 20_000);
    child.stdout!.on('data', (chunk) => {
      out += chunk.toString();
      const match = /PORT=(\d+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.stderr!.on('data', (chunk) => (err += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`server exited ${code}: ${err}`)));
  });
  return { child, port };
}

const post = (port: number, body: unknown) =>
  fetch(`http://127.0.0.1:${port}/v1/contact`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-client-key': CLIENT_KEY }, body: JSON.stringify(body) });

describe.each<{ kind: DbKind }>([{ kind: 'sqlite' }, { kind: 'postgres' }])('kill -9 during a write burst ($kind)', ({ kind }) => {
  let dataDir: string;
  const schema = `k_${randomBytes(5).toString('hex')}`;
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    if (kind === 'postgres') {
      const admin = new pg.Client({ connectionString: PG_URL });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
    }
  });

  it('loses no acknowledged write and leaves an intact database', { timeout: 60_000 }, async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'member-site-kill-'));
    const env: Record<string, string> = { DATA_DIR: dataDir, DATABASE_URL: '', PG_SCHEMA: '' };
    if (kind === 'postgres') {
      const admin = new pg.Client({ connectionString: PG_URL });
      await admin.connect();
      await admin.query(`CREATE SCHEMA "${schema}"`);
      await admin.end();
      Object.assign(env, { DATABASE_URL: PG_URL, PG_SCHEMA: schema });
    }
    const first = await start(env);
    children.push(first.child);

    // Eight writers in a loop; the process is killed while they are mid-request.
    const acknowledged: string[] = [];
    let stop = false;
    const writer = async (w: number) => {
      for (let i = 0; !stop; i++) {
        try {
          const res = await post(first.port, validContact(`kill-${w}-${i}@example.com`));
          if (res.status === 200) acknowledged.push(((await res.json()) as { ticket_no: string }).ticket_no);
        } catch {
          return; // the connection died with the process
        }
      }
    };
    const writers = Array.from({ length: 8 }, (_, w) => writer(w));
    while (acknowledged.length < 40) await new Promise((r) => setTimeout(r, 20));
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));
    stop = true;
    await Promise.all(writers);
    // the server itself is gone, not only a wrapper around it
    await expect(fetch(`http://127.0.0.1:${first.port}/healthz`)).rejects.toThrow();

    const second = await start(env);
    children.push(second.child);
    const ready = await fetch(`http://127.0.0.1:${second.port}/readyz`);
    expect(ready.status).toBe(200);
    expect((await post(second.port, validContact('after-restart@example.com'))).status).toBe(200);
    second.child.kill('SIGKILL');
    await new Promise((r) => second.child.once('exit', r));

    let stored: string[];
    if (kind === 'sqlite') {
      const file = new SQLite(join(dataDir, 'member-site.sqlite'));
      expect(file.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(file.pragma('foreign_key_check')).toEqual([]);
      stored = (file.prepare('select ticket_no from inquiries').all() as { ticket_no: string }[]).map((r) => r.ticket_no);
      file.close();
    } else {
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      stored = (await client.query(`select ticket_no from "${schema}".inquiries`)).rows.map((r: { ticket_no: string }) => r.ticket_no);
      await client.end();
    }
    const missing = acknowledged.filter((t) => !stored.includes(t));
    expect(acknowledged.length).toBeGreaterThanOrEqual(40);
    expect(missing).toEqual([]);
    expect(new Set(stored).size).toBe(stored.length);
  });
});
