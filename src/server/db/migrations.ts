// Schema migrations, run at every start (idempotent: Kysely records what has run).
// Types are chosen to mean the same in SQLite and PostgreSQL: text, integer.
import { type Kysely, type Migration, type MigrationProvider, sql } from 'kysely';
import { canonicalEmailsMigration } from './canonical-emails-migration';
import { listIndexesMigration } from './list-indexes-migration';
import { backOfficeMigration } from './back-office-migration';
import { recordsMigration } from './records-migration';
import { passkeysMigration } from './passkeys-migration';
import { memberSearchMigration } from './member-search-migration';
import { officeListsMigration } from './office-lists-migration';
import { statsSnapshotsMigration } from './stats-snapshots-migration';
import { memberRequestsMigration } from './member-requests-migration';
import { retentionMigration } from './retention-migration';
import { requestListMigration } from './request-list-migration';

// The profile's columns as migration 001 created them (history: never edited). Fields of the
// member record added since live in users.attributes (010), so a new field needs no migration.
const profileColumns = [
  'last_name_kanji', 'first_name_kanji', 'last_name_alpha', 'first_name_alpha', 'birthday', 'gender',
  'job', 'industry', 'industry_other', 'zip_current', 'address_current', 'zip_second', 'address_second',
  'amc', 'phone', 'purpose', 'purpose_detail', 'purpose_other', 'mail_opt',
] as const;

/** Every text column of users that holds a profile field (001's, and 007's desired municipality):
 *  a field of the member record with one of these names is stored there, any other in
 *  users.attributes (src/server/member-store.ts). */
export const PROFILE_COLUMNS = [...profileColumns, 'city'] as const;
export type ProfileColumn = (typeof PROFILE_COLUMNS)[number];

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
  '002-registration-masters-applications': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('master_options')
        .addColumn('master_name', 'text', (c) => c.notNull())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('label', 'text', (c) => c.notNull())
        .addColumn('sort_order', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('master_options_pk', ['master_name', 'value'])
        .execute();

      // An address proven by a registration code, usable once within the registration window.
      await db.schema
        .createTable('email_verifications')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('verified_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .execute();
      await db.schema.createIndex('email_verifications_email').on('email_verifications').column('email').execute();

      await db.schema
        .createTable('applications')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('register_number', 'text', (c) => c.notNull().unique())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('applied_at', 'text', (c) => c.notNull())
        .addColumn('decided_at', 'text')
        .execute();
      await db.schema.createIndex('applications_user').on('applications').column('user_id').execute();
    },
  },
  '003-notifications-withdrawals': {
    async up(db: Kysely<unknown>) {
      // A notice to one member (user_id) or to every member (user_id null).
      await db.schema
        .createTable('notifications')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.references('users.id'))
        .addColumn('message', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('notifications_user').on('notifications').column('user_id').execute();

      await db.schema
        .createTable('withdrawals')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
    },
  },
  '004-inquiries-throttle': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('inquiries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('ticket_no', 'text', (c) => c.notNull().unique())
        .addColumn('user_id', 'text', (c) => c.references('users.id'))
        .addColumn('last_name_kanji', 'text', (c) => c.notNull())
        .addColumn('first_name_kanji', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('inquiry_user_type', 'text', (c) => c.notNull())
        .addColumn('inquiry_type', 'text', (c) => c.notNull())
        .addColumn('job', 'text', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('answer', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('inquiries_user').on('inquiries').columns(['user_id', 'status', 'created_at']).execute();

      // Failed attempts of checks that must not be guessed at (password-reset identity).
      await db.schema
        .createTable('failed_attempts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('failed_attempts_lookup').on('failed_attempts').columns(['scope', 'subject', 'created_at']).execute();
    },
  },
  '005-canonical-emails': canonicalEmailsMigration,
  '006-rate-limits-mail-outbox': {
    async up(db: Kysely<unknown>) {
      // rate-limiter-flexible's counters (src/server/services/rate-limits.ts): key, points used
      // in the current window, and when the window ends (epoch milliseconds).
      await db.schema
        .createTable('rate_limits')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('points', 'integer', (c) => c.notNull())
        .addColumn('expire', 'bigint')
        .execute();
      await db.schema.createIndex('rate_limits_expire').on('rate_limits').column('expire').execute();

      // Mail that must not be lost (notices, acknowledgements, operator mail): written in the
      // database first, sent by the outbox worker with retry and backoff.
      await db.schema
        .createTable('mail_outbox')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('to_address', 'text', (c) => c.notNull())
        .addColumn('template', 'text', (c) => c.notNull())
        .addColumn('values_json', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'text', (c) => c.notNull())
        .addColumn('locked_until', 'text')
        .addColumn('last_error', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('sent_at', 'text')
        .execute();
      await db.schema.createIndex('mail_outbox_due').on('mail_outbox').columns(['sent_at', 'next_attempt_at']).execute();
    },
  },
  '007-registration-links-city': {
    async up(db: Kysely<unknown>) {
      // The old flow's registration links: only a keyed hash of the key is kept, so a database
      // copy opens no link; used_at makes each link single use.
      await db.schema
        .createTable('registration_links')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .execute();
      await db.schema.createIndex('registration_links_email').on('registration_links').columns(['email', 'created_at']).execute();
      // The desired municipality (local-government code) the old registration form asks for.
      await db.schema.alterTable('users').addColumn('city', 'text', (c) => c.notNull().defaultTo('')).execute();
    },
  },
  '008-code-flows': {
    async up(db: Kysely<unknown>) {
      // A code belongs to the flow (the browser tab or client) that asked for it, and so does the
      // registration ticket its check gives (docs/decisions/015). Codes pending before this
      // migration belong to no flow and can no longer be used: a member asks for a new one.
      await db.schema.alterTable('email_codes').addColumn('flow_hash', 'text').execute();
      await db.schema.createIndex('email_codes_flow').on('email_codes').columns(['flow_hash', 'purpose']).execute();
      await db.schema.alterTable('email_verifications').addColumn('flow_hash', 'text').execute();
    },
  },
  '009-acknowledgement-counts': {
    async up(db: Kysely<unknown>) {
      // How many contact acknowledgements each address got on a day in Japan: one row, raised by
      // an atomic upsert in the transaction that stores the inquiry (routes/contact.ts).
      await db.schema
        .createTable('acknowledgement_counts')
        .addColumn('recipient', 'text', (c) => c.notNull())
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('sent', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('acknowledgement_counts_pk', ['recipient', 'day'])
        .execute();
      await db.schema.createIndex('acknowledgement_counts_day').on('acknowledgement_counts').column('day').execute();
    },
  },
  '010-member-attributes': {
    async up(db: Kysely<unknown>) {
      // Every field of the member record that has no column of its own, as one JSON object
      // (docs/decisions/020): a field added to a form's schema is stored without a migration.
      await db.schema.alterTable('users').addColumn('attributes', 'text', (c) => c.notNull().defaultTo('{}')).execute();
    },
  },
  '011-session-absolute-end': {
    async up(db: Kysely<unknown>) {
      // A session slides with the member's requests (expires_at moves) up to an end fixed at
      // login (docs/decisions/024). Sessions opened before this end where they would have.
      await db.schema.alterTable('sessions').addColumn('ends_at', 'text').execute();
      await sql`update sessions set ends_at = expires_at`.execute(db);
    },
  },
  '012-instance-secrets': {
    async up(db: Kysely<unknown>) {
      // With DATABASE_URL, the client key and the code secret live here, so every instance on
      // the database uses the same ones: the first to start stores them (docs/decisions/027).
      await db.schema
        .createTable('instance_secrets')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
    },
  },
  '013-list-indexes': listIndexesMigration,
  '014-back-office': backOfficeMigration,
  // 015 is the operator accounts' (branch i23-accounts).
  '015-back-office-records': recordsMigration,
  '016-attempt-notices-known-networks': {
    async up(db: Kysely<unknown>) {
      // Unrequested notices combined (docs/decisions/015): one row per address, kind and day in
      // Japan, counting the attempts; the first of the day queues the one mail of that kind,
      // which says how many there were when it goes out.
      await db.schema
        .createTable('attempt_notices')
        .addColumn('recipient', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('mail_id', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('attempt_notices_pk', ['recipient', 'kind', 'day'])
        .execute();
      await db.schema.createIndex('attempt_notices_day').on('attempt_notices').column('day').execute();
      // The requesting networks an operator has logged in from: past the account-wide cap of
      // wrong passwords only these are heard, so strangers cannot lock the office out.
      await db.schema
        .createTable('known_networks')
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('network', 'text', (c) => c.notNull())
        .addColumn('last_seen_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('known_networks_pk', ['subject', 'network'])
        .execute();
      // The link mailed beside a registration or password-reset code (256 random bits, kept as a
      // hash): what the mailbox's owner can always use, whatever strangers spent of the address's
      // code ceilings (docs/decisions/015).
      await db.schema.alterTable('email_codes').addColumn('link_hash', 'text').execute();
      await db.schema.alterTable('email_codes').addColumn('from_link', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.createIndex('email_codes_link').on('email_codes').column('link_hash').unique().where(sql.ref('link_hash'), 'is not', null).execute();
    },
  },
  '017-passkeys': passkeysMigration,
  '018-outbox-send-once': {
    async up(db: Kysely<unknown>) {
      // A mail is sent at most once (docs/decisions/016): its state is written before the SMTP
      // transaction starts, and a send whose claim ran out without a result is set aside as
      // uncertain for the operator instead of being sent again.
      // status: queued → sending → sent, or sending → uncertain (→ queued by the operator's
      // resend, or sent when the operator marks it done). One column per statement: SQLite adds
      // one column at a time.
      await db.schema.alterTable('mail_outbox').addColumn('status', 'text', (c) => c.notNull().defaultTo('queued')).execute();
      await db.schema.alterTable('mail_outbox').addColumn('attempt_id', 'text').execute();
      await db.schema.alterTable('mail_outbox').addColumn('send_started_at', 'text').execute();
      await db.schema.alterTable('mail_outbox').addColumn('uncertain_at', 'text').execute();
      await sql`update mail_outbox set status = 'sent' where sent_at is not null`.execute(db);
      // A row the previous version had claimed may be in the middle of its send: the sweep sets
      // it aside like any other claim that runs out.
      await sql`update mail_outbox set status = 'sending' where sent_at is null and locked_until is not null`.execute(db);
      // The worker's due mail and the sweep for claims that ran out each read an index range;
      // uncertain and sent rows are in neither range.
      await db.schema.dropIndex('mail_outbox_due').execute();
      await db.schema.createIndex('mail_outbox_status_due').on('mail_outbox').columns(['status', 'next_attempt_at']).execute();
      await db.schema.createIndex('mail_outbox_status_claim').on('mail_outbox').columns(['status', 'locked_until']).execute();
    },
  },
  '019-member-search': memberSearchMigration,
  '020-stats-snapshots': statsSnapshotsMigration,
  '022-office-lists': officeListsMigration,
  '023-member-data-requests': memberRequestsMigration,
  '024-retention': retentionMigration,
  '025-request-list': requestListMigration,
};

export const migrationProvider: MigrationProvider = {
  async getMigrations() {
    return migrations;
  },
};
