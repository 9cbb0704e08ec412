// Migration 019: the back office's member search keys (docs/decisions/032). Several short keys a
// member (the name folded, the roman name in both orders, the address, the phone's digits, the
// register numbers), each row (kind, key, user_id); a search is one range of the (kind, key)
// index, a prefix of what the clerk typed, folded the same way (src/server/member-search-keys.ts).
// The keys are compared in code-point order on both databases (SQLite's BINARY; PostgreSQL's "C"
// collation, whatever the database's own), so a prefix's range is the same everywhere. The table
// starts empty: start-up indexes every member without keys (main.ts), in batches.
import { PostgresAdapter, sql, type Kysely, type Migration } from 'kysely';

export const memberSearchMigration: Migration = {
  async up(db: Kysely<unknown>) {
    const collation = db.getExecutor().adapter instanceof PostgresAdapter ? sql`collate "C"` : sql`collate binary`;
    await db.schema
      .createTable('member_search')
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
      // 'name', 'email', 'phone' or 'number'.
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('key', 'text', (c) => c.notNull().modifyEnd(collation))
      // A member's keys are replaced together (by user_id), and no key is stored twice.
      .addPrimaryKeyConstraint('member_search_pk', ['user_id', 'kind', 'key'])
      .execute();
    // The search: one kind's keys from a prefix on, each with its member (covering).
    await db.schema.createIndex('member_search_key').on('member_search').columns(['kind', 'key', 'user_id']).execute();
  },
};
