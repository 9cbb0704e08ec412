// Where the server's SQLite checkpoints run (docs/decisions/034). SQLite copies the WAL back into
// the database file (a checkpoint) on the connection that commits, once the WAL passes 1,000
// pages; with synchronous=NORMAL that checkpoint is also where both files are synced. On the
// server's one connection that is the event loop: every request waited for the disk while it ran
// (fsync here: 2 ms typical, 17 ms at p99, 94 ms at worst, ADR 026), and a member's p99 beside a
// busy back office rose with it. So, while a thread of its own checkpoints every second on a
// connection of its own (PASSIVE: it waits for nobody), the server's connection checkpoints
// nothing (wal_autocheckpoint=0). If that thread stops, the server's connection takes its
// checkpoints back as SQLite would, and the WAL never grows without bound.
import { Worker } from 'node:worker_threads';

/** How often the thread checkpoints. */
export const CHECKPOINT_EVERY_MS = 1000;
/** SQLite's own: a checkpoint when the WAL passes this many pages. */
const SQLITE_AUTOCHECKPOINT = 1000;

/** The server's connection, as far as checkpoints go. */
export interface CheckpointedConnection {
  readonly open: boolean;
  pragma(source: string): unknown;
}

export interface WalCheckpoints {
  /** True while the thread checkpoints (and the server's connection does not). */
  readonly onThread: boolean;
  /** Pages the thread has copied back so far (tests read it). */
  readonly copied: number;
  close(): Promise<void>;
}

export function startWalCheckpoints(file: string, main: CheckpointedConnection, everyMs = CHECKPOINT_EVERY_MS): WalCheckpoints {
  let onThread = false;
  let copied = 0;
  const autocheckpoint = (pages: number) => main.open && main.pragma(`wal_autocheckpoint = ${pages}`);
  // No execArgv: plain JavaScript, none of the server's loaders (see office-reads.ts).
  let worker: Worker | undefined = new Worker(new URL('./wal-checkpointer.worker.js', import.meta.url), { workerData: { file, everyMs }, execArgv: [] });
  worker.unref();
  worker.on('message', (message: 'ready' | { checkpointed: number }) => {
    if (message === 'ready') {
      autocheckpoint(0);
      onThread = true;
    } else copied = Math.max(copied, message.checkpointed);
  });
  const stopped = (why: unknown) => {
    if (!worker) return;
    worker = undefined;
    onThread = false;
    autocheckpoint(SQLITE_AUTOCHECKPOINT);
    process.emitWarning(`the SQLite checkpoint thread stopped; the server's connection checkpoints again: ${why instanceof Error ? why.message : String(why)}`);
  };
  worker.on('error', stopped);
  worker.on('exit', (code) => stopped(`exit ${code}`));
  return {
    get onThread() {
      return onThread;
    },
    get copied() {
      return copied;
    },
    async close() {
      const closing = worker;
      worker = undefined;
      onThread = false;
      await closing?.terminate();
    },
  };
}
