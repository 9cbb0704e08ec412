// Migration 022: the back office's lists read one index range in their own order at any size
// (issue 34, docs/decisions/026). Members are filtered by status, prefecture and mail consent,
// each newest (or oldest) first: one index per filter, over the list's order (created_at, id).
// The prefecture of the current address is a column the database derives from address_current
// (generated: SQLite virtual, PostgreSQL stored), so every way a member is written (the site, the
// seed, an import by SQL, a restore) has it, and nothing can leave it stale. Its names are the 47
// of the municipality list (schemas/masters/denshijiti.json), as the statistics read them.
import { PostgresAdapter, sql, type Kysely, type Migration } from 'kysely';
import { allMunicipalities } from '../denshijiti';

export const officeListsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    const names = [...new Set(allMunicipalities().map((m) => m.prefecture))];
    const address = sql`ltrim(address_current)`;
    const branches = sql.join(
      names.map((name) => sql`when ${address} like ${sql.lit(`${name}%`)} then ${sql.lit(name)}`),
      sql` `,
    );
    const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
    await sql`alter table users add column prefecture text generated always as (case ${branches} else null end) ${postgres ? sql`stored` : sql`virtual`}`.execute(db);
    await db.schema.createIndex('users_status_list').on('users').columns(['status', 'created_at', 'id']).execute();
    await db.schema.createIndex('users_prefecture_list').on('users').columns(['prefecture', 'created_at', 'id']).execute();
    await db.schema.createIndex('users_mail_list').on('users').columns(['mail_opt', 'created_at', 'id']).execute();
  },
};
