// The back office's SQLite reads run on their own thread (src/server/db/office-reads.ts, ADR 034):
// while an office select runs, the server's event loop goes on turning (a member's request is
// served), where a select on the server's own connection holds it whole; a transaction's
// statements stay on the server's connection (they see its uncommitted writes); a reader thread
// that dies costs no request; and an operator's list is read there.
import { afterAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import { OfficeReader, officeReaderOf, officeReads } from '../../src/server/db/office-reads';
import { Harness, setUpOrFail } from '../support/api-harness';
import { asOperator } from '../support/admin-records';
import { operatorSession, type TestOperator } from '../support/admin-session';
import type { Db } from '../../src/server/db/connect';

/** A select that takes a while on any machine: counts to two million in a recursive CTE. */
const slowCount = (db: Db) =>
  db.selectNoFrom(sql<number>`(with recursive c(x) as (select 1 union all select x + 1 from c where x < 2000000) select count(*) from c)`.as('n')).executeTakeFirstOrThrow();

/** How many turns the event loop made while `work` ran. */
async function turnsDuring(work: () => Promise<unknown>): Promise<number> {
  let turns = 0;
  let running = true;
  const turn = () => {
    if (!running) return;
    turns++;
    setImmediate(turn);
  };
  setImmediate(turn);
  try {
    await work();
  } finally {
    running = false;
  }
  return turns;
}

describe('office reads on their own thread (SQLite)', () => {
  let h: Harness;
  let operator: TestOperator;
  setUpOrFail(async () => {
    h = await Harness.start('sqlite');
    operator = await operatorSession(h.db, 'secretariat');
  });
  afterAll(async () => {
    await h?.close();
  });

  it('the loop turns while an office select runs, and does not while the same select runs on the server connection', async () => {
    const office = officeReads(h.db);
    expect(office).not.toBe(h.db);
    const reader = officeReaderOf(h.db)!;
    const before = reader.ran;
    expect(await turnsDuring(() => slowCount(office))).toBeGreaterThan(0);
    expect(reader.ran).toBe(before + 1);
    expect(await turnsDuring(() => slowCount(h.db))).toBe(0);
  });

  it('a transaction reads on the server connection: it sees its own writes, and the reader sees them after commit', async () => {
    const office = officeReads(h.db);
    const reader = officeReaderOf(h.db)!;
    const before = reader.ran;
    const key = `office-reads-${Date.now()}`;
    await office.transaction().execute(async (tx) => {
      await tx.insertInto('instance_secrets').values({ name: key, value: 'x', created_at: new Date().toISOString() }).execute();
      expect(await tx.selectFrom('instance_secrets').select('value').where('name', '=', key).executeTakeFirst()).toEqual({ value: 'x' });
      // Outside the transaction the row is not there yet (the reader sees committed writes only).
      expect(await office.selectFrom('instance_secrets').select('value').where('name', '=', key).executeTakeFirst()).toBeUndefined();
    });
    expect(reader.ran).toBe(before + 1);
    expect(await office.selectFrom('instance_secrets').select('value').where('name', '=', key).executeTakeFirst()).toEqual({ value: 'x' });
    expect(reader.ran).toBe(before + 2);
  });

  it('a reader thread that stops mid-read costs no answer: the read runs on the server connection, and the next one on a new thread', async () => {
    const office = officeReads(h.db);
    const reader = officeReaderOf(h.db)!;
    const reading = slowCount(office);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await (reader as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
    expect(Number((await reading).n)).toBe(2_000_000);
    const before = reader.ran;
    expect(await office.selectFrom('instance_secrets').select('name').limit(1).execute()).toHaveLength(1);
    expect(reader.ran).toBe(before + 1);
  });

  it("an operator's members list is read on the reader thread, and its audit entry is written", async () => {
    const reader = officeReaderOf(h.db)!;
    const before = reader.ran;
    const entries = async () => (await h.db.selectFrom('audit_log').select('id').where('action', '=', 'members.search').execute()).length;
    const logged = await entries();
    const res = await asOperator(h, operator, 'GET', '/v1/admin/members');
    expect(res.statusCode, res.body).toBe(200);
    expect(reader.ran).toBeGreaterThan(before);
    expect(await entries()).toBe(logged + 1);
  });
});

describe('a reader thread that cannot start', () => {
  it('is tried three times, then the reads stay on the server connection without a thread each', async () => {
    const reader = new OfficeReader('/nonexistent/member-site.sqlite');
    const starts = vi.spyOn(reader as unknown as { start: () => unknown }, 'start');
    const warned = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    for (let i = 0; i < 3; i++) await expect(reader.all('select 1', [])).rejects.toThrow(/reader/);
    expect(starts).toHaveBeenCalledTimes(3);
    await expect(reader.all('select 1', [])).rejects.toThrow(/does not start/);
    expect(starts).toHaveBeenCalledTimes(3);
    expect(warned).toHaveBeenCalledTimes(1);
    await reader.close();
    warned.mockRestore();
    starts.mockRestore();
  });
});
