// The daily retention run inside the server (docs/decisions/041). Every instance looks now and
// then; the first to insert the Japan day's row in retention_runs runs it (the day is the key, as
// the statistics' snapshot claims its day), the others find the row and do nothing. The runner
// renews its claim after every batch; a claim left unrenewed for RUN_CLAIM_MS (its process ended
// mid-run) is taken over, and a run that failed gives its day back for the next look. Before
// anything is erased the statistics' figures of the day are made (or found) from the tables as
// they are, so figures already computed, and the day's, never change.
import type { Db } from '../db/connect';
import type { Municipality } from '../../shared/api-types';
import type { Who } from '../admin/services/common';
import { statsSnapshot } from '../admin/services/stats-snapshot';
import { iso, now } from '../services/clock';
import { runRetention, type RetentionCounts } from './erase';
import type { RetentionPeriods } from './periods';

/** A claim not renewed for this long is taken over. */
export const RUN_CLAIM_MS = 600_000;

/** The job's name in the audit log (actor `system:retention`). */
export const JOB_WHO: Who = { actor: { type: 'system', job: 'retention' }, ip: null };

/** The Japan day (YYYY-MM-DD) of an instant. */
export const japanDate = (at: Date): string => new Date(at.getTime() + 9 * 3600_000).toISOString().slice(0, 10);

export interface DailyOptions {
  periods: RetentionPeriods;
  municipalities: readonly Municipality[];
  /** Where the statistics are read (the office's reader on SQLite); default `db`. */
  statsDb?: Db;
  at?: Date;
  batch?: number;
}

/** Claims the day's run; true when this caller is to run it. */
async function claimDay(db: Db, day: string, claimedAt: string): Promise<boolean> {
  const row = await db.selectFrom('retention_runs').selectAll().where('day', '=', day).executeTakeFirst();
  if (!row) {
    const inserted = await db.insertInto('retention_runs').values({ day, claimed_at: claimedAt, finished_at: null, members: null, inquiries: null }).onConflict((oc) => oc.column('day').doNothing()).executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
  }
  if (row.finished_at !== null || Date.parse(row.claimed_at) >= Date.parse(claimedAt) - RUN_CLAIM_MS) return false;
  const taken = await db.updateTable('retention_runs').set({ claimed_at: claimedAt }).where('day', '=', day).where('claimed_at', '=', row.claimed_at).where('finished_at', 'is', null).executeTakeFirst();
  return Number(taken.numUpdatedRows) === 1;
}

/** The day's run, if no other instance has it: the counts erased, or undefined when another
 *  instance ran it or runs it. */
export async function dailyRetention(db: Db, { periods, municipalities, statsDb = db, at = now(), batch }: DailyOptions): Promise<RetentionCounts | undefined> {
  const day = japanDate(at);
  let claimedAt = iso(now());
  if (!(await claimDay(db, day, claimedAt))) return undefined;
  try {
    await statsSnapshot(statsDb, { municipalities, at });
    const counts = await runRetention(db, {
      periods,
      who: JOB_WHO,
      at,
      ...(batch ? { batch } : {}),
      afterBatch: async () => {
        const renewed = iso(now());
        const done = await db.updateTable('retention_runs').set({ claimed_at: renewed }).where('day', '=', day).where('claimed_at', '=', claimedAt).executeTakeFirst();
        if (Number(done.numUpdatedRows) !== 1) throw new Error(`retention run of ${day}: another instance took the claim over; stopping`);
        claimedAt = renewed;
      },
    });
    await db.updateTable('retention_runs').set({ finished_at: iso(now()), members: counts.members, inquiries: counts.inquiries }).where('day', '=', day).where('claimed_at', '=', claimedAt).execute();
    return counts;
  } catch (error) {
    await db.deleteFrom('retention_runs').where('day', '=', day).where('claimed_at', '=', claimedAt).where('finished_at', 'is', null).execute();
    throw error;
  }
}

/** Looks every `intervalMs` (with the outbox worker, app.ts); the day's first look runs it. */
export function startRetentionJob(db: Db, options: Omit<DailyOptions, 'at'>, intervalMs: number, ready: () => boolean, log: (error: unknown) => void): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running || !ready()) return;
    running = true;
    dailyRetention(db, options)
      .catch(log)
      .finally(() => (running = false));
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
