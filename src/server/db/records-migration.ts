// Migration 015: the back office's records (docs/decisions/030, issue 23). Decisions on an
// application keep their history (a reversal returns the application to pending and is a row
// of its own); notices say who posted them, when, and whether they were taken back; inquiries
// may be assigned to an operator and keep every answer and correction sent.
//
// A notice's created_at stays the time it shows on my page (its place in the member's list, the
// index notifications_member's order): a scheduled notice is written with created_at = the time
// it is to appear, and my page reads only notices whose time has come and that were not
// retracted (src/server/notices.ts). posted_at is when an operator posted it (null: posted for
// at once, before this migration or by code that does not schedule).
import { sql, type Kysely, type Migration } from 'kysely';

export const recordsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('application_decisions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('application_id', 'text', (c) => c.notNull().references('applications.id'))
      // 'decision' (pending → approved/declined) or 'reversal' (approved/declined → pending).
      .addColumn('kind', 'text', (c) => c.notNull())
      // The status the application had after this row: approved, declined or pending.
      .addColumn('decision', 'text', (c) => c.notNull())
      .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('operator_id', 'text')
      .addColumn('actor_label', 'text', (c) => c.notNull())
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('mail_id', 'text')
      .execute();
    await db.schema.createIndex('application_decisions_application').on('application_decisions').columns(['application_id', 'at', 'id']).execute();

    await db.schema.alterTable('notifications').addColumn('posted_at', 'text').execute();
    await db.schema.alterTable('notifications').addColumn('retracted_at', 'text').execute();
    await db.schema.alterTable('notifications').addColumn('created_by', 'text').execute();
    await db.schema.alterTable('notifications').addColumn('created_by_label', 'text').execute();
    // My page reads live notices only: the member's own, and those to everyone.
    await db.schema
      .createIndex('notifications_member_live')
      .on('notifications')
      .columns(['user_id', 'created_at', 'id'])
      .where(sql.ref('retracted_at'), 'is', null)
      .execute();
    await db.schema
      .createIndex('notifications_everyone_live')
      .on('notifications')
      .columns(['created_at', 'id'])
      .where(sql<boolean>`user_id is null and retracted_at is null`)
      .execute();

    await db.schema.alterTable('inquiries').addColumn('assigned_to', 'text').execute();
    await db.schema
      .createTable('inquiry_answers')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('inquiry_id', 'text', (c) => c.notNull().references('inquiries.id'))
      .addColumn('answer', 'text', (c) => c.notNull())
      // Why a correction was sent (null for a first answer).
      .addColumn('note', 'text')
      // The answer this one corrects (null for a first answer).
      .addColumn('corrects_id', 'text')
      .addColumn('operator_id', 'text')
      .addColumn('actor_label', 'text', (c) => c.notNull())
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('mail_id', 'text')
      .execute();
    await db.schema.createIndex('inquiry_answers_inquiry').on('inquiry_answers').columns(['inquiry_id', 'at', 'id']).execute();

    // The back office's member list, newest first, and its search by name.
    await db.schema.createIndex('users_list').on('users').columns(['created_at', 'id']).execute();
    await db.schema.createIndex('users_family_name').on('users').columns(['last_name_kanji', 'first_name_kanji']).execute();
    await db.schema.createIndex('users_given_name').on('users').columns(['first_name_kanji']).execute();
  },
};
