// Kysely's SQLite driver prepares every statement anew; under load that was a tenth of the
// server's CPU time (ADR 017). The app runs a few dozen distinct statements, so keep the
// prepared ones: better-sqlite3 re-prepares a cached statement by itself after a schema change,
// and Kysely runs one query at a time on its single connection, so a statement is never in use
// twice at once.
import type SQLite from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/** Distinct statements kept; `in (…)` lists of varying length make new ones, the oldest go. */
const MAX_STATEMENTS = 500;

export function withStatementCache(database: SQLite.Database, max = MAX_STATEMENTS): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => database.close(),
    prepare(sql: string) {
      const cached = statements.get(sql);
      if (cached) return cached;
      const statement = database.prepare(sql);
      statements.set(sql, statement);
      if (statements.size > max) statements.delete(statements.keys().next().value!);
      return statement;
    },
  };
}
