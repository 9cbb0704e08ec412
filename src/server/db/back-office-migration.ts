// Migration 014: the back office's operators, their set-up links and sessions, and the audit log
// (docs/decisions/030). The audit log is append-only in the database itself: a trigger refuses
// every UPDATE and DELETE, whoever sends it.
import { PostgresAdapter, sql, type Kysely, type Migration } from 'kysely';

export const backOfficeMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('operators')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('email', 'text', (c) => c.notNull().unique())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('password_hash', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('operator_setup_links')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id'))
      .addColumn('key_hash', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .execute();
    await db.schema.createIndex('operator_setup_links_operator').on('operator_setup_links').columns(['operator_id', 'created_at']).execute();
    await db.schema
      .createTable('operator_sessions')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id'))
      .addColumn('csrf_token', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('ends_at', 'text', (c) => c.notNull())
      .addColumn('revoked_at', 'text')
      .execute();
    await db.schema.createIndex('operator_sessions_operator').on('operator_sessions').columns(['operator_id', 'revoked_at']).execute();
    await db.schema
      .createTable('audit_log')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('actor_type', 'text', (c) => c.notNull())
      .addColumn('operator_id', 'text')
      .addColumn('actor_label', 'text', (c) => c.notNull())
      .addColumn('actor_role', 'text')
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('member_id', 'text')
      .addColumn('target', 'text')
      .addColumn('detail', 'text', (c) => c.notNull().defaultTo('{}'))
      .addColumn('ip', 'text')
      .execute();
    // The log's own orders: newest first overall, per member, per operator, per action.
    await db.schema.createIndex('audit_log_list').on('audit_log').columns(['at desc', 'id desc']).execute();
    await db.schema.createIndex('audit_log_member').on('audit_log').columns(['member_id', 'at desc', 'id desc']).execute();
    await db.schema.createIndex('audit_log_operator').on('audit_log').columns(['operator_id', 'at desc', 'id desc']).execute();
    await db.schema.createIndex('audit_log_action').on('audit_log').columns(['action', 'at desc', 'id desc']).execute();

    if (db.getExecutor().adapter instanceof PostgresAdapter) {
      await sql`
        create function audit_log_append_only() returns trigger language plpgsql as $$
        begin
          raise exception 'audit_log is append-only';
        end $$`.execute(db);
      await sql`create trigger audit_log_no_update before update or delete on audit_log for each row execute function audit_log_append_only()`.execute(db);
      await sql`create trigger audit_log_no_truncate before truncate on audit_log for each statement execute function audit_log_append_only()`.execute(db);
      return;
    }
    await sql`create trigger audit_log_no_update before update on audit_log begin select raise(abort, 'audit_log is append-only'); end`.execute(db);
    await sql`create trigger audit_log_no_delete before delete on audit_log begin select raise(abort, 'audit_log is append-only'); end`.execute(db);
  },
};
