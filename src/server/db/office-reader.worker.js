// The back office's SQLite reads, on a thread of their own (docs/decisions/034, office-reads.ts).
// better-sqlite3 runs a statement on the thread that calls it; on the server's one event loop, a
// member's request waited for whatever office statement was in progress. Here the statements run
// on a read-only connection of the same file (WAL: a reader sees every committed write and never
// blocks the writer), and the server's loop only posts and receives the rows.
// Plain JavaScript: a worker is started from a file, and this one must load under tsx, vitest
// and plain Node alike.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const MAX_STATEMENTS = 500;
const db = new Database(workerData.file, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
const statements = new Map();

const prepared = (sql) => {
  const cached = statements.get(sql);
  if (cached) return cached;
  const statement = db.prepare(sql);
  statements.set(sql, statement);
  if (statements.size > MAX_STATEMENTS) statements.delete(statements.keys().next().value);
  return statement;
};

parentPort.on('message', ({ id, sql, parameters }) => {
  try {
    parentPort.postMessage({ id, rows: prepared(sql).all(parameters) });
  } catch (e) {
    parentPort.postMessage({ id, error: { name: e?.name, message: String(e?.message ?? e), code: e?.code } });
  }
});
