// The server's SQLite checkpoints, on a thread of their own (docs/decisions/034, wal-checkpoints.ts):
// every `everyMs`, a PASSIVE checkpoint on a connection of this thread copies what the WAL holds
// back into the database file and syncs both, without waiting for any reader or writer.
// Plain JavaScript: a worker is started from a file, and this one must load under tsx, vitest
// and plain Node alike.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const db = new Database(workerData.file, { fileMustExist: true });
const checkpoint = () => {
  try {
    const [result] = db.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ checkpointed: result?.checkpointed ?? 0 });
  } catch {
    // Busy or locked for a moment: the next turn copies it.
  }
};
parentPort.postMessage('ready');
setInterval(checkpoint, workerData.everyMs);
