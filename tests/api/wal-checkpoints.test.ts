// The server's SQLite checkpoints run on a thread of their own (src/server/db/wal-checkpoints.ts,
// ADR 034): while the thread runs, the server's connection checkpoints nothing and the thread
// copies the WAL back into the database file; a thread that cannot run leaves the server's
// connection checkpointing as SQLite does; the server opens its database this way, tools and
// tests do not.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { openDb, type Db } from '../../src/server/db/connect';
import { startWalCheckpoints, type WalCheckpoints } from '../../src/server/db/wal-checkpoints';

const dirs: string[] = [];
const closing: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'wal-checkpoints-'));
  dirs.push(dir);
  return dir;
};
/** Generous: a hang guard for a busy machine, not a time the test measures. */
const PATIENCE = { timeout: 60_000, interval: 50 };
const autocheckpoint = (db: SQLite.Database) => db.pragma('wal_autocheckpoint', { simple: true });

describe('WAL checkpoints on their own thread', () => {
  it('while the thread runs, the server\'s connection checkpoints nothing and the thread copies the WAL into the file', async () => {
    const file = join(folder(), 'db.sqlite');
    const main = new SQLite(file);
    main.pragma('journal_mode = WAL');
    main.exec('create table t (x text)');
    const checkpoints: WalCheckpoints = startWalCheckpoints(file, main, 20);
    closing.push(() => checkpoints.close(), () => void main.close());
    await vi.waitFor(() => expect(checkpoints.onThread).toBe(true), PATIENCE);
    expect(autocheckpoint(main)).toBe(0);
    const before = statSync(file).size;
    const insert = main.prepare('insert into t values (?)');
    main.transaction(() => {
      for (let i = 0; i < 3000; i++) insert.run('x'.repeat(500));
    })();
    // 1.5 MB went to the WAL (the server's connection copies none of it back: autocheckpoint 0);
    // the thread copies it into the database file.
    await vi.waitFor(() => expect(checkpoints.copied).toBeGreaterThan(300), PATIENCE);
    expect(statSync(file).size).toBeGreaterThan(before + 1_000_000);
  });

  it('a thread that cannot run leaves the server\'s connection checkpointing as SQLite does, with one warning', async () => {
    const file = join(folder(), 'db.sqlite');
    const main = new SQLite(file);
    main.pragma('journal_mode = WAL');
    const warnings: string[] = [];
    const warn = (warning: Error) => warnings.push(warning.message);
    process.on('warning', warn);
    // The thread opens a file that is not there (fileMustExist): it stops at once.
    const checkpoints = startWalCheckpoints(join(folder(), 'missing.sqlite'), main, 20);
    closing.push(() => checkpoints.close(), () => void main.close(), () => void process.off('warning', warn));
    await vi.waitFor(() => expect(warnings.some((w) => w.includes('checkpoint thread stopped'))).toBe(true), PATIENCE);
    expect(checkpoints.onThread).toBe(false);
    expect(autocheckpoint(main)).toBe(1000);
  });

  it('the server opens its database with the thread; tools and tests keep SQLite\'s own checkpoints', async () => {
    const read = async (db: Db) => (await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(db)).rows[0]?.wal_autocheckpoint;
    const server = openDb({ dataDir: folder(), checkpointThread: true });
    const tool = openDb({ dataDir: folder() });
    closing.push(() => server.destroy(), () => tool.destroy());
    await vi.waitFor(async () => expect(await read(server)).toBe(0), PATIENCE);
    expect(await read(tool)).toBe(1000);
  });
});
