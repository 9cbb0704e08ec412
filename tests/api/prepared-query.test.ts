// A hot query compiled once and run with new values (ADR 017) answers as the same query built
// anew would, on both databases, and refuses a query whose parameters are not all its values.
import { afterAll, describe, expect, it } from 'vitest';
import { DATABASES, openTestDb, setUpOrFail, type TestDb } from '../support/api-harness';
import { preparedQuery } from '../../src/server/db/prepared-query';
import type { Database } from '../../src/server/db/types';

const optionsOf = preparedQuery<Database, { value: string }, [string, string]>(
  (db, name, notValue) => db.selectFrom('master_options').select('value').where('master_name', '=', name).where('value', '!=', notValue).orderBy('sort_order'),
  2,
);

describe.each(DATABASES)('$name', ({ kind }) => {
  let t: TestDb;
  setUpOrFail(async () => {
    t = await openTestDb(kind);
  });
  afterAll(() => t?.close());

  it('answers each call with its own values, as the query built anew does', async () => {
    for (const [name, notValue] of [['job', '1'], ['industry', '2'], ['job', '3'], ['nothing', '']]) {
      const built = await t.db.selectFrom('master_options').select('value').where('master_name', '=', name).where('value', '!=', notValue).orderBy('sort_order').execute();
      expect(await optionsOf(t.db, name, notValue)).toEqual(built);
    }
    expect((await optionsOf(t.db, 'job', '1')).length).toBeGreaterThan(1);
  });

  it('refuses a query with a parameter that is not one of its values', async () => {
    const withConstant = preparedQuery<Database, { value: string }, [string]>(
      (db, name) => db.selectFrom('master_options').select('value').where('master_name', '=', name).where('value', '!=', 'fixed'),
      1,
    );
    await expect(withConstant(t.db, 'job')).rejects.toThrow(/every parameter/);
  });
});
