// Migration 020: the statistics' daily snapshot (docs/decisions/033). One row per Japan day the
// figures are as of: the first instance to need that day's figures inserts the row (the day is
// the key, so a second insert of the same day does nothing), computes the figures from SQL
// aggregates and writes them in; every view then reads that one row by its key.
import type { Kysely, Migration } from 'kysely';

export const statsSnapshotsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('stats_snapshots')
      // YYYY-MM-DD: the Japan day the figures are as of (members registered up to its end).
      .addColumn('day', 'text', (c) => c.primaryKey())
      // When the instance that computes the figures claimed the day (a claim that runs out is
      // taken over: its process ended before it wrote the figures).
      .addColumn('claimed_at', 'text', (c) => c.notNull())
      // The published figures (JSON, already suppressed: no raw count is kept), null while computing.
      .addColumn('figures', 'text')
      .addColumn('computed_at', 'text')
      .execute();
  },
};
