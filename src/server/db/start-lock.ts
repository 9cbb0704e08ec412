// One start-up at a time per database: the schema, the master lists, the shared secrets and the
// demo member are written by one process while the others starting on the same database wait
// for it (several instances, the operator tool; docs/decisions/027). Kysely's migrator locks
// PostgreSQL on its own but not SQLite, and nothing of it covers what runs after the migrations.
import SQLite from 'better-sqlite3';
import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { setTimeout as sleep } from 'node:timers/promises';

/** How often a start waiting for the SQLite lock tries again. */
const SQLITE_POLL_MS = 25;
/** A start that has waited this long says so once (another one is migrating, or hangs). */
const SAY_WAITING_AFTER_MS = 10_000;

/** Runs `work` (which uses `db` as usual) while holding the database's start-up lock. */
export async function withStartLock<DB, T>(db: Kysely<DB>, work: () => Promise<T>): Promise<T> {
  const waiting = setTimeout(() => console.log('waiting for another start-up on this database to finish (it holds the start-up lock)'), SAY_WAITING_AFTER_MS);
  waiting.unref();
  const acquired = () => clearTimeout(waiting);
  try {
    if (db.getExecutor().adapter instanceof PostgresAdapter) return await withPostgresLock(db, acquired, work);
    return await withSqliteLock(db, acquired, work);
  } finally {
    clearTimeout(waiting);
  }
}

// A transaction-level advisory lock, keyed by the schema (each schema is a database of its own to
// the app): PostgreSQL releases it when the transaction ends, however it ends (commit, rollback,
// a dropped connection), so a crashed start never leaves it held. The transaction does nothing
// else; `work` runs on other pooled connections.
function withPostgresLock<DB, T>(db: Kysely<DB>, acquired: () => void, work: () => Promise<T>): Promise<T> {
  return db.transaction().execute(async (tx) => {
    await sql`select pg_advisory_xact_lock(hashtext('member-site:start'), hashtext(current_schema()))`.execute(tx);
    acquired();
    return work();
  });
}

// SQLite has no advisory locks, and a second connection locking the database file itself would
// block this process's own writes: the lock is an exclusive transaction on a small file beside
// it. Taken without waiting inside SQLite (busy_timeout 0 would otherwise block the event loop)
// and tried again until free; the operating system releases it when its process ends.
async function withSqliteLock<DB, T>(db: Kysely<DB>, acquired: () => void, work: () => Promise<T>): Promise<T> {
  const file = (await sql<{ name: string; file: string }>`pragma database_list`.execute(db)).rows.find((r) => r.name === 'main')?.file;
  if (!file) return work(); // an in-memory database: no other process can open it
  const lock = new SQLite(`${file}.start-lock`);
  try {
    lock.pragma('busy_timeout = 0');
    for (;;) {
      try {
        lock.exec('begin exclusive');
        break;
      } catch (error) {
        if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
        await sleep(SQLITE_POLL_MS);
      }
    }
    acquired();
    try {
      return await work();
    } finally {
      lock.exec('rollback');
    }
  } finally {
    lock.close();
  }
}
