// The back office reads SQLite on a thread of its own (docs/decisions/034, point 4 of issue 34).
// better-sqlite3 runs every statement on the thread that calls it, so on the server's one event
// loop a member's request waited for the office statement in progress (a name search, a deep
// page, the CSV's batches: 4–13 ms each on 100,000 members). officeReads(db) is the same
// database for the back office's routes, with one difference: a select outside a transaction
// runs in office-reader.worker.js, on its own read-only connection (WAL: it sees every committed
// write and never blocks the writer). Everything else (writes, and every statement of a
// transaction, selects included) runs on the server's connection, taking its turn as any
// request's does, so a transaction keeps its meaning and there is still one writer.
// PostgreSQL needs none of this: its statements already run in the database server.
import { Worker } from 'node:worker_threads';
import {
  CompiledQuery,
  Kysely,
  SelectQueryNode,
  SqliteAdapter,
  SqliteDriver,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type SqliteDatabase,
} from 'kysely';
import type { Database } from './types';

type Db = Kysely<Database>;

interface Pending {
  resolve: (rows: unknown[]) => void;
  reject: (error: Error) => void;
}

const MAX_FAILURES = 3;

/** Thrown when the reader thread is gone; the statement is then run on the server's connection. */
class ReaderGone extends Error {}

/** The reader thread: started on the first read, started again after it stops. */
export class OfficeReader {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private next = 0;
  /** Threads that stopped in a row without answering; at MAX_FAILURES the reads stay on the
   *  server's connection (as before this thread existed) rather than start one per read. */
  private failures = 0;
  /** Statements the thread ran (tests read it to see the reads went there). */
  ran = 0;

  constructor(private readonly file: string) {}

  all(sql: string, parameters: readonly unknown[]): Promise<unknown[]> {
    if (this.failures >= MAX_FAILURES) return Promise.reject(new ReaderGone('the reader thread does not start'));
    const worker = this.worker ?? this.start();
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      if (this.pending.size === 1) worker.ref();
      worker.postMessage({ id, sql, parameters });
    });
  }

  private start(): Worker {
    // No execArgv: the thread is plain JavaScript and needs none of the server's loaders (a
    // loader given to the server, such as a bench's probe in TypeScript, fails in a bare thread).
    const worker = new Worker(new URL('./office-reader.worker.js', import.meta.url), { workerData: { file: this.file }, execArgv: [] });
    worker.unref();
    worker.on('message', ({ id, rows, error }: { id: number; rows?: unknown[]; error?: { name?: string; message: string; code?: string } }) => {
      const waiting = this.pending.get(id);
      if (!waiting) return;
      this.pending.delete(id);
      if (this.pending.size === 0) worker.unref();
      this.ran++;
      this.failures = 0;
      if (error) waiting.reject(Object.assign(new Error(error.message), { name: error.name ?? 'SqliteError', code: error.code }));
      else waiting.resolve(rows ?? []);
    });
    const gone = (why: unknown) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      if (++this.failures === MAX_FAILURES) process.emitWarning(`the office's reader thread stopped ${MAX_FAILURES} times; its reads run on the server's connection: ${why instanceof Error ? why.message : String(why)}`);
      const error = new ReaderGone(`the office's reader stopped: ${why instanceof Error ? why.message : String(why)}`);
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    };
    worker.on('error', gone);
    worker.on('exit', (code) => gone(`exit ${code}`));
    this.worker = worker;
    return worker;
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    for (const waiting of this.pending.values()) waiting.reject(new ReaderGone('closed'));
    this.pending.clear();
    await worker?.terminate();
  }
}

/** One use of the office's database: a select outside a transaction goes to the reader; a write,
 *  or a transaction from its `begin` to its end, holds the server's connection. */
class OfficeConnection implements DatabaseConnection {
  private held: DatabaseConnection | undefined;

  constructor(
    private readonly main: Driver,
    private readonly reader: OfficeReader,
  ) {}

  /** Takes the server's connection (waiting its turn, as any request does) until release(). */
  async hold(): Promise<void> {
    this.held = await this.main.acquireConnection();
  }

  async release(): Promise<void> {
    const held = this.held;
    if (!held) return;
    this.held = undefined;
    await this.main.releaseConnection(held);
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.held) return this.held.executeQuery<R>(query);
    if (SelectQueryNode.is(query.query)) {
      try {
        return { rows: (await this.reader.all(query.sql, query.parameters)) as R[] };
      } catch (error) {
        if (!(error instanceof ReaderGone)) throw error;
      }
    }
    const connection = await this.main.acquireConnection();
    try {
      return await connection.executeQuery<R>(query);
    } finally {
      await this.main.releaseConnection(connection);
    }
  }

  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('The office reads in pages; it streams no query.');
  }
}

class OfficeDriver implements Driver {
  constructor(
    private readonly main: Driver,
    private readonly reader: OfficeReader,
    private readonly mainReady: () => Promise<unknown>,
  ) {}
  /** The server's driver is made ready by its own Kysely (once, on its first statement). */
  async init(): Promise<void> {
    await this.mainReady();
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    return new OfficeConnection(this.main, this.reader);
  }
  async beginTransaction(connection: OfficeConnection): Promise<void> {
    await connection.hold();
    try {
      await connection.executeQuery(CompiledQuery.raw('begin'));
    } catch (error) {
      await connection.release();
      throw error;
    }
  }
  async commitTransaction(connection: OfficeConnection): Promise<void> {
    try {
      await connection.executeQuery(CompiledQuery.raw('commit'));
    } finally {
      await connection.release();
    }
  }
  async rollbackTransaction(connection: OfficeConnection): Promise<void> {
    try {
      await connection.executeQuery(CompiledQuery.raw('rollback'));
    } finally {
      await connection.release();
    }
  }
  async releaseConnection(connection: OfficeConnection): Promise<void> {
    await connection.release();
  }
  async destroy(): Promise<void> {}
}

const officeOf = new WeakMap<Db, { db: Db; reader: OfficeReader }>();

/** Opens `database` as the server's Kysely, with its office database beside it: the office's
 *  selects outside a transaction run on a reader thread of `file`; closing the one closes both
 *  (and `alongside`, such as the checkpoint thread). */
export function sqliteWithOfficeReads(database: SqliteDatabase, file: string, alongside?: { close(): Promise<void> }): Db {
  const reader = new OfficeReader(file);
  const driver = new (class extends SqliteDriver {
    async destroy(): Promise<void> {
      await alongside?.close();
      await reader.close();
      await super.destroy();
    }
  })({ database });
  const dialect = (createDriver: () => Driver) => ({
    createAdapter: () => new SqliteAdapter(),
    createDriver,
    createIntrospector: (db: Kysely<unknown>) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  });
  const main = new Kysely<Database>({ dialect: dialect(() => driver) });
  const db = new Kysely<Database>({ dialect: dialect(() => new OfficeDriver(driver, reader, () => main.executeQuery(CompiledQuery.raw('select 1')))) });
  officeOf.set(main, { db, reader });
  return main;
}

/** The database the back office works on: on SQLite, `db` with its reads on their own thread;
 *  otherwise `db` itself. Closing `db` closes it. */
export const officeReads = (db: Db): Db => officeOf.get(db)?.db ?? db;

/** The reader thread behind `db`'s office database, if it has one (tests look at it). */
export const officeReaderOf = (db: Db): OfficeReader | undefined => officeOf.get(db)?.reader;
