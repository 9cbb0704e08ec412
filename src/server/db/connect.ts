import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Kysely, Migrator, PostgresAdapter, PostgresDialect, SqliteDialect, sql } from 'kysely';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { migrationProvider } from './migrations';
import { seedMasters } from '../masters';
import { withStatementCache } from './statement-cache';
import { isDatabaseUnavailable } from './errors';
import { withStartLock } from './start-lock';
import { sqliteWithOfficeReads } from './office-reads';
import { startWalCheckpoints } from './wal-checkpoints';
import type { Database } from './types';

export type Db = Kysely<Database>;

export interface DbOptions {
  databaseUrl?: string;
  dataDir: string;
  /** PostgreSQL only: a schema to work in (tests use a fresh one each run). */
  pgSchema?: string;
  /** PostgreSQL only: names the connections in pg_stat_activity. */
  applicationName?: string;
  /** Told of errors on idle pooled connections (a restarted or failed-over database). */
  onPoolError?: (error: Error) => void;
  /** For tools that only read (npm run impact): SQLite opens the existing file read-only (never
   *  creates it), PostgreSQL sessions start read-only, so no statement can write. */
  readOnly?: boolean;
  /** SQLite only: the server's connection leaves its WAL checkpoints to a thread of their own
   *  (wal-checkpoints.ts). The server asks for it; tools and tests keep SQLite's own. */
  checkpointThread?: boolean;
}

/** How long a request waits for a pooled PostgreSQL connection before answering 503. */
const CONNECT_TIMEOUT_MS = 5000;

/** Where the SQLite database of a data folder lives. */
export const sqliteFile = (dataDir: string) => join(dataDir, 'member-site.sqlite');

export function openDb({ databaseUrl, dataDir, pgSchema, applicationName = 'member-site', onPoolError, readOnly, checkpointThread }: DbOptions): Db {
  if (databaseUrl) {
    const settings = [...(pgSchema ? [`-c search_path=${pgSchema}`] : []), ...(readOnly ? ['-c default_transaction_read_only=on'] : [])];
    const pool = new pg.Pool({
      connectionString: databaseUrl,
      max: 10,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      application_name: applicationName,
      ...(settings.length ? { options: settings.join(' ') } : {}),
    });
    // Without a listener, an idle connection that the server drops (restart, failover,
    // pg_terminate_backend, an idle-connection reaper) is an unhandled 'error' event and ends
    // the process. The pool discards that connection by itself and opens a fresh one on demand.
    const report = onPoolError ?? ((e: Error) => console.error('database connection lost:', e.message));
    pool.on('error', report);
    // A connection can also be dropped while a request holds it between two statements: the
    // pool listens only to idle ones, so each connection gets its own listener. The statement
    // in flight fails (503), and the pool discards the dead connection when it comes back.
    pool.on('connect', (client) => client.on('error', report));
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  if (readOnly) {
    const file = new SQLite(sqliteFile(dataDir), { readonly: true, fileMustExist: true });
    file.pragma('busy_timeout = 5000');
    return new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(file) }) });
  }
  mkdirSync(dataDir, { recursive: true });
  const file = new SQLite(sqliteFile(dataDir));
  file.pragma('journal_mode = WAL');
  // No fsync at each commit: better-sqlite3 runs statements on the event loop, and a commit that
  // waits for the disk held every request up (2 ms typical, 17 ms at p99, 94 ms at worst on the
  // 2-core machine). WAL stays consistent, and a killed process loses nothing it committed; an
  // OS crash or power loss may lose the last commits (docs/decisions/026).
  file.pragma('synchronous = NORMAL');
  file.pragma('foreign_keys = ON');
  file.pragma('busy_timeout = 5000');
  const checkpoints = checkpointThread ? startWalCheckpoints(sqliteFile(dataDir), file) : undefined;
  return sqliteWithOfficeReads(withStatementCache(file), sqliteFile(dataDir), checkpoints);
}

/** Brings the schema up to date and refreshes the master lists from their data file, then runs
 *  `andThen` (what start-up writes besides: the shared secrets, the demo member), all under the
 *  database's start-up lock (start-lock.ts): starts on one database take turns. */
export async function migrate<T = void>(db: Db, andThen?: () => Promise<T>): Promise<T> {
  return withStartLock(db, async () => {
    // On PostgreSQL the migrator's bookkeeping tables must live in the schema being migrated;
    // otherwise it finds another schema's tables on the search path and skips creating its own.
    const schema =
      db.getExecutor().adapter instanceof PostgresAdapter
        ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
        : undefined;
    const migrator = new Migrator({ db, provider: migrationProvider, ...(schema ? { migrationTableSchema: schema } : {}) });
    const { error, results } = await migrator.migrateToLatest();
    const failed = results?.find((r) => r.status === 'Error');
    // A database that went away mid-migration is thrown as it is, so that the caller can tell
    // it from a migration that is wrong (main.ts waits the first out, and stops on the second).
    if (isDatabaseUnavailable(error)) throw error;
    if (error || failed) throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
    await seedMasters(db);
    return andThen ? andThen() : (undefined as T);
  });
}
