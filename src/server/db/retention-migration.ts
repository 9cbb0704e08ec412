// Migration 024: retention (docs/decisions/041). A withdrawn member's personal data is erased once
// the retention period has passed, and a visitor's inquiry after its own period; erased_at marks
// what is done, so a run (or a second instance's run) never erases a row twice and each erased
// member gets one audit entry. What is still to erase is one range of a partial index, so the
// daily run reads only due rows however many are already erased. retention_runs is the daily
// job's claim (one row per Japan day, as stats_snapshots is the statistics'): of several
// instances, the one that inserts the day's row runs it.
import { sql, type Kysely, type Migration } from 'kysely';

export const retentionMigration: Migration = {
  async up(db: Kysely<unknown>) {
    // One column per statement: SQLite adds one column at a time.
    await db.schema.alterTable('users').addColumn('erased_at', 'text').execute();
    await db.schema.alterTable('inquiries').addColumn('erased_at', 'text').execute();
    // Members not yet erased, by status and withdrawal time (the run's keyset: withdrawn ones in
    // withdrawal order). The status leads, so the run's equality and range are both in the index
    // and a planner without statistics prefers it to users_status_list plus a sort.
    await db.schema
      .createIndex('users_retention')
      .on('users')
      .columns(['status', 'withdrawn_at', 'id'])
      .where(sql.ref('erased_at'), 'is', null)
      .execute();
    // Visitors' inquiries not yet erased, by last change (user_id, always null here, leads for the
    // same reason: the run's "user_id is null" is then a constraint of this index, not only of
    // inquiries_member_list's).
    await db.schema
      .createIndex('inquiries_retention')
      .on('inquiries')
      .columns(['user_id', 'updated_at', 'id'])
      .where(sql.ref('user_id'), 'is', null)
      .where(sql.ref('erased_at'), 'is', null)
      .execute();
    // A member's withdrawal reason and the mails sent to their address are found by member and
    // by address when they are erased (neither had an index).
    await db.schema.createIndex('withdrawals_user').on('withdrawals').column('user_id').execute();
    await db.schema.createIndex('mail_outbox_address').on('mail_outbox').columns(['to_address', 'created_at']).execute();
    await db.schema
      .createTable('retention_runs')
      // YYYY-MM-DD: the Japan day of the run.
      .addColumn('day', 'text', (c) => c.primaryKey())
      // When the running instance claimed the day, renewed after every batch: a claim not renewed
      // for RUN_CLAIM_MS is taken over (its process ended mid-run).
      .addColumn('claimed_at', 'text', (c) => c.notNull())
      .addColumn('finished_at', 'text')
      .addColumn('members', 'integer')
      .addColumn('inquiries', 'integer')
      .execute();
  },
};
