// Schema migrations, run at every start (idempotent: Kysely records what has run).
// Types are chosen to mean the same in SQLite and PostgreSQL: text, integer.
import { type Kysely, type Migration, type MigrationProvider, sql } from 'kysely';

const profileColumns = [
  'last_name_kanji', 'first_name_kanji', 'last_name_alpha', 'first_name_alpha', 'birthday', 'gender',
  'job', 'industry', 'industry_other', 'zip_current', 'address_current', 'zip_second', 'address_second',
  'amc', 'phone', 'purpose', 'purpose_detail', 'purpose_other', 'mail_opt',
] as const;

const migrations: Record<string, Migration> = {
  '001-members-sessions-codes': {
    async up(db: Kysely<unknown>) {
      let users = db.schema
        .createTable('users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text', (c) => c.notNull());
      for (const column of profileColumns) users = users.addColumn(column, 'text', (c) => c.notNull().defaultTo(''));
      await users
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('withdrawn_at', 'text')
        .execute();
      // One active member per address; a withdrawn member's row does not block the address.
      await db.schema
        .createIndex('users_active_email')
        .on('users')
        .column('email')
        .unique()
        .where(sql.ref('status'), '=', 'active')
        .execute();

      await db.schema
        .createTable('sessions')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('revoked_at', 'text')
        .execute();
      await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

      await db.schema
        .createTable('email_codes')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text')
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('consumed_at', 'text')
        .execute();
      await db.schema.createIndex('email_codes_lookup').on('email_codes').columns(['email', 'purpose']).execute();

      await db.schema
        .createTable('trusted_devices')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .execute();
    },
  },
};

export const migrationProvider: MigrationProvider = {
  async getMigrations() {
    return migrations;
  },
};
