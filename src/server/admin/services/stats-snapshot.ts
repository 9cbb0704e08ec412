// The statistics' daily snapshot (docs/decisions/033): the figures as of the end of the previous
// Japan day are computed once per day by whichever instance needs them first, and every view
// reads that one row by its key. The claim is the row itself: the day is the primary key, so of
// two instances (or two views) inserting the same day one inserts and computes, the other finds
// the row and waits for its figures. A claim whose figures never came (the process ended while
// computing) is taken over once it is older than CLAIM_MS.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from '../../db/connect';
import { iso, now } from '../../services/clock';
import type { Stats } from '../../../shared/admin-api';
import type { Municipality } from '../../../shared/api-types';
import { computeStats, statsDayOf } from './stats';

/** A claim older than this without figures is taken over. */
export const CLAIM_MS = 120_000;
/** How often a view waiting for another instance's computation looks again. */
const POLL_MS = 100;

export interface SnapshotOptions {
  municipalities: readonly Municipality[];
  /** The instant of the view (the figures are as of the Japan day before). */
  at?: Date;
  /** Members per GROUP BY on SQLite (stats.ts STATS_RANGE). */
  rangeSize?: number;
  /** Told when this call computes the figures (tests count computations). */
  onCompute?: (day: string) => void;
}

/** A view's one read: the day's row by its key. */
export const snapshotQuery = (db: Db, day: string) => db.selectFrom('stats_snapshots').selectAll().where('day', '=', day);

/** The figures as of the day before `at`: read from the snapshot, computed first if absent. */
export async function statsSnapshot(db: Db, { municipalities, at = now(), rangeSize, onCompute }: SnapshotOptions): Promise<Stats> {
  const day = statsDayOf(at);
  for (;;) {
    const row = await snapshotQuery(db, day).executeTakeFirst();
    if (row?.figures) return { at: row.computed_at!, ...(JSON.parse(row.figures) as Omit<Stats, 'at'>) };
    const claimedAt = iso(now());
    let claimed: boolean;
    if (!row) {
      const inserted = await db
        .insertInto('stats_snapshots')
        .values({ day, claimed_at: claimedAt, figures: null, computed_at: null })
        .onConflict((oc) => oc.column('day').doNothing())
        .executeTakeFirst();
      claimed = Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
    } else if (Date.parse(row.claimed_at) < Date.parse(claimedAt) - CLAIM_MS) {
      const taken = await db
        .updateTable('stats_snapshots')
        .set({ claimed_at: claimedAt })
        .where('day', '=', day)
        .where('claimed_at', '=', row.claimed_at)
        .where('figures', 'is', null)
        .executeTakeFirst();
      claimed = Number(taken.numUpdatedRows) === 1;
    } else claimed = false;
    if (!claimed) {
      await sleep(POLL_MS);
      continue;
    }
    onCompute?.(day);
    try {
      const figures = await computeStats(db, { day, municipalities, rangeSize });
      const computedAt = iso(now());
      await db.updateTable('stats_snapshots').set({ figures: JSON.stringify(figures), computed_at: computedAt }).where('day', '=', day).where('claimed_at', '=', claimedAt).execute();
    } catch (error) {
      // Another instance (or the next view) tries again at once.
      await db.deleteFrom('stats_snapshots').where('day', '=', day).where('claimed_at', '=', claimedAt).where('figures', 'is', null).execute();
      throw error;
    }
  }
}

/** The daily job: computes the figures of the day that has just ended, on the instance that gets
 *  there first (the others find the row). Runs with the outbox worker (app.ts). */
export function startStatsJob(db: Db, municipalities: readonly Municipality[], intervalMs: number, ready: () => boolean, log: (error: unknown) => void): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running || !ready()) return;
    running = true;
    statsSnapshot(db, { municipalities })
      .catch(log)
      .finally(() => (running = false));
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** Computes the current day's figures again from the tables (for the operator's reindex, after
 *  members were loaded by SQL): the day's row is removed, then claimed and filled as usual. */
export async function recomputeStats(db: Db, municipalities: readonly Municipality[], at = now()): Promise<Stats> {
  await db.deleteFrom('stats_snapshots').where('day', '=', statsDayOf(at)).execute();
  return statsSnapshot(db, { municipalities, at });
}
