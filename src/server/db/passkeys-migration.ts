// Migration 017: passkeys (docs/decisions/031). A passkey is a credential of its own beside the
// password, as Ory Kratos keeps credentials by type: one row per WebAuthn credential, owned by a
// member or an operator. WebAuthn challenges are kept here too, so that any instance on the
// database can check the answer to a challenge another one made; each is single use, lives a few
// minutes and is bound to its purpose (and, where known, its owner and login flow).
import type { Kysely, Migration } from 'kysely';

export const passkeysMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('passkeys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('owner_type', 'text', (c) => c.notNull())
      .addColumn('owner_id', 'text', (c) => c.notNull())
      // The credential id and the COSE public key, both base64url.
      .addColumn('credential_id', 'text', (c) => c.notNull().unique())
      .addColumn('public_key', 'text', (c) => c.notNull())
      .addColumn('counter', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('transports', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_used_at', 'text')
      .execute();
    await db.schema.createIndex('passkeys_owner').on('passkeys').columns(['owner_type', 'owner_id', 'created_at', 'id']).execute();
    await db.schema
      .createTable('webauthn_challenges')
      .addColumn('challenge', 'text', (c) => c.primaryKey())
      .addColumn('purpose', 'text', (c) => c.notNull())
      .addColumn('owner_id', 'text')
      .addColumn('flow_hash', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .execute();
    await db.schema.createIndex('webauthn_challenges_expires').on('webauthn_challenges').column('expires_at').execute();
  },
};
