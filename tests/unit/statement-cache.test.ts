// SQLite statements are prepared once and reused (ADR 017): the cache hands back the same
// statement for the same SQL, forgets the oldest beyond its size, and a cached statement still
// answers right after the schema under it changed.
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { withStatementCache } from '../../src/server/db/statement-cache';

let database: SQLite.Database;
afterEach(() => database?.close());

describe('withStatementCache', () => {
  it('prepares a statement once and reuses it', () => {
    database = new SQLite(':memory:');
    const cached = withStatementCache(database);
    const first = cached.prepare('select 1 as one');
    expect(cached.prepare('select 1 as one')).toBe(first);
    expect(cached.prepare('select 2 as two')).not.toBe(first);
  });

  it('keeps at most `max` statements, dropping the oldest', () => {
    database = new SQLite(':memory:');
    const cached = withStatementCache(database, 2);
    const a = cached.prepare('select 1');
    const b = cached.prepare('select 2');
    cached.prepare('select 3');
    expect(cached.prepare('select 2')).toBe(b);
    expect(cached.prepare('select 1')).not.toBe(a);
  });

  it('a cached statement sees a column added after it was prepared', () => {
    database = new SQLite(':memory:');
    const cached = withStatementCache(database);
    cached.prepare('create table t (a integer)').run([]);
    cached.prepare('insert into t (a) values (?)').run([1]);
    const select = cached.prepare('select * from t');
    expect(select.all([])).toEqual([{ a: 1 }]);
    cached.prepare('alter table t add column b text').run([]);
    expect(cached.prepare('select * from t')).toBe(select);
    expect(select.all([])).toEqual([{ a: 1, b: null }]);
  });
});
