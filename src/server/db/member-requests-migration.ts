// Migration 023: what a member asks of the office about their own data (issue 37, docs/decisions/040),
// and which members a list page or an export of the back office included.
//
// member_requests: a correction of what the member cannot edit (the birthday, the name in kanji) or
// the deletion of their data, with the office's answer. due_at is fixed when it is made (ADR 040:
// two weeks); status open → done or refused, with who handled it (the audit log's actor label),
// when, and the answer the member reads.
//
// audit_members: the members one audit entry's list page or export showed (members.search,
// applications.list, inquiries.list: a page's rows; members.export: every row written). The entry
// itself says what was done (audit_log); this says to whom, so a member's "who looked" reads one
// index range (member_id, at) however large the office's lists and exports were. Append-only as
// the log is. And the indexes a member's disclosure reads by (mails by address, withdrawals).
import { PostgresAdapter, sql, type Kysely, type Migration } from 'kysely';

export const memberRequestsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('member_requests')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
      // 'correction' | 'deletion'
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('text', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('due_at', 'text', (c) => c.notNull())
      // 'open' | 'done' | 'refused'
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('handled_by', 'text')
      .addColumn('handled_at', 'text')
      .addColumn('answer', 'text')
      .execute();
    // The member's own requests, newest first; the office's open ones, soonest due first.
    await db.schema.createIndex('member_requests_user').on('member_requests').columns(['user_id', 'created_at', 'id']).execute();
    await db.schema.createIndex('member_requests_status_due').on('member_requests').columns(['status', 'due_at', 'id']).execute();

    await db.schema
      .createTable('audit_members')
      .addColumn('audit_id', 'text', (c) => c.notNull())
      .addColumn('member_id', 'text', (c) => c.notNull())
      .addColumn('at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('audit_members_pk', ['audit_id', 'member_id'])
      .execute();
    await db.schema.createIndex('audit_members_member').on('audit_members').columns(['member_id', 'at desc']).execute();

    // What a member's disclosure reads that no index served: the mails to their address, their
    // withdrawals (each one index range, whatever the tables' size).
    await db.schema.createIndex('mail_outbox_recipient').on('mail_outbox').columns(['to_address', 'created_at']).execute();
    await db.schema.createIndex('withdrawals_member').on('withdrawals').columns(['user_id', 'created_at']).execute();

    if (db.getExecutor().adapter instanceof PostgresAdapter) {
      await sql`create trigger audit_members_no_update before update or delete on audit_members for each row execute function audit_log_append_only()`.execute(db);
      return;
    }
    await sql`create trigger audit_members_no_update before update on audit_members begin select raise(abort, 'audit_members is append-only'); end`.execute(db);
    await sql`create trigger audit_members_no_delete before delete on audit_members begin select raise(abort, 'audit_members is append-only'); end`.execute(db);
  },
};
