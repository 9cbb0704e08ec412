// The test databases themselves: each suite gets its own migrated database (a temp dir for
// SQLite, a fresh schema for PostgreSQL), and one must not disturb another — two runs side by
// side, or a schema left behind by a crashed run, must not break migrating a new one.
import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { migrate } from '../../src/server/db/connect';
import { DATABASES, openTestDb, type DbKind, type TestDb } from '../support/api-harness';

const APP_TABLES = ['email_codes', 'sessions', 'trusted_devices', 'users'] as const;

/** Runs `work` with the databases `open` yields, and closes every one opened, whatever happens. */
async function withDbs(kind: DbKind, work: (open: () => Promise<TestDb>) => Promise<void>): Promise<void> {
  const opened: TestDb[] = [];
  try {
    await work(async () => {
      const t = await openTestDb(kind);
      opened.push(t);
      return t;
    });
  } finally {
    for (const t of opened.reverse()) await t.close();
  }
}

describe.each(DATABASES)('test databases ($name)', ({ kind }) => {
  it('a fresh database is migrated, empty, and can be migrated again (idempotent)', async () => {
    await withDbs(kind, async (open) => {
      const t = await open();
      for (const table of APP_TABLES) expect(await t.db.selectFrom(table).selectAll().execute(), table).toEqual([]);
      await migrate(t.db);
      await migrate(t.db);
    });
  });

  it('two fresh databases can be open and migrated side by side', async () => {
    await withDbs(kind, async (open) => {
      const first = await open();
      const second = await open(); // PostgreSQL: a second schema in the same database
      await first.db
        .insertInto('email_codes')
        .values({ id: 'a', purpose: 'login', email: 'a@example.com', user_id: null, code_hash: 'h', created_at: 't', expires_at: 't', consumed_at: null })
        .execute();
      // What one holds, the other does not see.
      expect(await second.db.selectFrom('email_codes').selectAll().execute()).toEqual([]);
      expect(await first.db.selectFrom('email_codes').select('id').execute()).toEqual([{ id: 'a' }]);
    });
  });

  if (kind === 'sqlite') {
    it('SQLite writes ahead (WAL) and commits without waiting for the disk (synchronous NORMAL: no fsync on the event loop, ADR 026)', async () => {
      await withDbs(kind, async (open) => {
        const t = await open();
        const { rows } = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(t.db);
        expect(rows[0]?.journal_mode).toBe('wal');
        const sync = await sql<{ synchronous: number }>`pragma synchronous`.execute(t.db);
        expect(sync.rows[0]?.synchronous).toBe(1);
      });
    });
  }

  if (kind === 'postgres') {
    it('migrate() creates its tables, its own bookkeeping included, in the given schema', async () => {
      await withDbs(kind, async (open) => {
        const t = await open();
        const { rows } = await sql<{ table_schema: string; table_name: string }>`
          select table_schema, table_name from information_schema.tables
          where table_schema = current_schema() order by table_name`.execute(t.db);
        const names = rows.map((r) => r.table_name);
        for (const table of APP_TABLES) expect(names).toContain(table);
        expect(names).toContain('kysely_migration');
        expect(names).toContain('kysely_migration_lock');
        expect(rows[0].table_schema).toMatch(/^t_[0-9a-f]+$/);
      });
    });
  }
});
