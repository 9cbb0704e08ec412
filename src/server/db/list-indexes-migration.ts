// Migration 013: every list a member or the operator tool reads is served by an index in its own
// order, so a page costs the same at any depth and on any size of table (docs/decisions/026);
// and each member's inquiry list carries a version the database raises on every change to it,
// so the server may remember where its pages start (src/server/inquiry-list.ts).
import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

async function createIndexes(db: Kysely<unknown>) {
  // The member's inquiry history: all statuses, and one status, newest first, ties by id.
  await db.schema.dropIndex('inquiries_user').execute();
  await db.schema.createIndex('inquiries_member_list').on('inquiries').columns(['user_id', 'created_at desc', 'id']).execute();
  await db.schema.createIndex('inquiries_member_status_list').on('inquiries').columns(['user_id', 'status', 'created_at desc', 'id']).execute();
  // The operator tool's inquiry list, all or one status, newest first, ties by ticket number.
  await db.schema.createIndex('inquiries_list').on('inquiries').columns(['created_at', 'ticket_no']).execute();
  await db.schema.createIndex('inquiries_status_list').on('inquiries').columns(['status', 'created_at', 'ticket_no']).execute();

  // My page's application block, and the operator tool's application list.
  await db.schema.dropIndex('applications_user').execute();
  await db.schema.createIndex('applications_member').on('applications').columns(['user_id', 'applied_at']).execute();
  await db.schema.createIndex('applications_list').on('applications').columns(['applied_at', 'register_number']).execute();
  await db.schema.createIndex('applications_status_list').on('applications').columns(['status', 'applied_at', 'register_number']).execute();

  // My page's notices (the member's own, and those to everyone: user_id null), and the operator's list.
  await db.schema.dropIndex('notifications_user').execute();
  await db.schema.createIndex('notifications_member').on('notifications').columns(['user_id', 'created_at', 'id']).execute();
  // Notices to everyone on their own: "user_id is null" is no equality, so PostgreSQL would not
  // take the member index's order for it and would walk every notice instead.
  await db.schema.createIndex('notifications_everyone').on('notifications').columns(['created_at', 'id']).where(sql.ref('user_id'), 'is', null).execute();
  await db.schema.createIndex('notifications_list').on('notifications').columns(['created_at', 'id']).execute();

  // Logging out everywhere, changing the address or the password forgets the member's devices.
  await db.schema.createIndex('trusted_devices_member').on('trusted_devices').column('user_id').execute();
  // Every account an address has had (the operator's members show); the unique index on active
  // members' addresses is partial, and a partial index serves no query for other rows.
  await db.schema.createIndex('users_email').on('users').columns(['email', 'created_at']).execute();
  // A flow's live code for an address, the newest first (code checks; replaces 008's index).
  await db.schema.dropIndex('email_codes_flow').execute();
  await db.schema.createIndex('email_codes_flow_latest').on('email_codes').columns(['flow_hash', 'purpose', 'email', 'created_at']).execute();
  // The outbox's unsent mail, oldest first (the worker and the operator's list).
  await db.schema.createIndex('mail_outbox_unsent').on('mail_outbox').columns(['sent_at', 'created_at']).execute();
}

/** One row per member with inquiries: a number raised, in the same transaction, by every insert,
 *  delete and change of status, owner or time of one of their inquiries, whoever writes it. */
async function createListVersions(db: Kysely<unknown>) {
  await db.schema
    .createTable('inquiry_list_versions')
    .addColumn('user_id', 'text', (c) => c.primaryKey())
    .addColumn('version', 'integer', (c) => c.notNull())
    .execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    // Once per statement, over its transition tables: a bulk insert raises each member's number
    // once, not once a row (row triggers would pile up a row version per inserted inquiry).
    await sql`
      create function inquiry_list_bump() returns trigger language plpgsql as $$
      begin
        if tg_op <> 'INSERT' then
          insert into inquiry_list_versions as v (user_id, version)
            select distinct user_id, 1 from old_rows where user_id is not null
            on conflict (user_id) do update set version = v.version + 1;
        end if;
        if tg_op <> 'DELETE' then
          insert into inquiry_list_versions as v (user_id, version)
            select distinct user_id, 1 from new_rows where user_id is not null
            on conflict (user_id) do update set version = v.version + 1;
        end if;
        return null;
      end $$`.execute(db);
    const each = sql.raw('for each statement execute function inquiry_list_bump()');
    await sql`create trigger inquiries_list_insert after insert on inquiries referencing new table as new_rows ${each}`.execute(db);
    await sql`create trigger inquiries_list_delete after delete on inquiries referencing old table as old_rows ${each}`.execute(db);
    await sql`create trigger inquiries_list_update after update on inquiries referencing old table as old_rows new table as new_rows ${each}`.execute(db);
    return;
  }
  const bump = (row: 'old' | 'new') => sql.raw(`
    insert into inquiry_list_versions (user_id, version) select ${row}.user_id, 1 where ${row}.user_id is not null
      on conflict (user_id) do update set version = version + 1;`);
  await sql`create trigger inquiries_list_insert after insert on inquiries begin ${bump('new')} end`.execute(db);
  await sql`create trigger inquiries_list_delete after delete on inquiries begin ${bump('old')} end`.execute(db);
  await sql`create trigger inquiries_list_update after update of user_id, status, created_at, id on inquiries begin ${bump('old')} ${bump('new')} end`.execute(db);
}

export const listIndexesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await createIndexes(db);
    await createListVersions(db);
  },
};
