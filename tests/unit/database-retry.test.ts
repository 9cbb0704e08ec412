// The start-up retry (src/server/main.ts): only "the database cannot be reached" is waited out,
// with a doubling, bounded wait; anything else (a broken migration, a bug) rejects at once.
import { describe, expect, it } from 'vitest';
import { retryWhileDatabaseUnavailable } from '../../src/server/main';

const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

/** An attempt that throws the given errors in turn, then succeeds. */
function attempts(...errors: Error[]) {
  let calls = 0;
  const attempt = async () => {
    const error = errors[calls++];
    if (error) throw error;
  };
  return { attempt, calls: () => calls };
}

describe('retryWhileDatabaseUnavailable', () => {
  it('waits out an unreachable database, doubling the wait up to the bound', async () => {
    const { attempt, calls } = attempts(refused(), refused(), refused(), new Error('Connection terminated unexpectedly'));
    const waits: number[] = [];
    const done = await retryWhileDatabaseUnavailable(attempt, { firstDelayMs: 5, maxDelayMs: 15, onUnavailable: (_e, tries, delayMs) => waits.push(tries, delayMs) });
    expect(done).toBe(true);
    expect(calls()).toBe(5);
    expect(waits).toEqual([1, 5, 2, 10, 3, 15, 4, 15]);
  });

  it.each([
    ['a failed migration', new Error('Migration 0007_x failed: error: syntax error at or near "tabel"')],
    ['bad SQL (SQLSTATE 42601)', Object.assign(new Error('syntax error'), { code: '42601' })],
    ['a missing database (3D000)', Object.assign(new Error('database "x" does not exist'), { code: '3D000' })],
  ])('rejects at once on %s', async (_name, error) => {
    const { attempt, calls } = attempts(error);
    const seen: unknown[] = [];
    await expect(retryWhileDatabaseUnavailable(attempt, { firstDelayMs: 5, onUnavailable: (e) => seen.push(e) })).rejects.toBe(error);
    expect(calls()).toBe(1);
    expect(seen).toEqual([]);
  });

  it('rejects on a real failure after having waited for the database', async () => {
    const broken = new Error('Migration 0007_x failed');
    const { attempt, calls } = attempts(refused(), broken);
    await expect(retryWhileDatabaseUnavailable(attempt, { firstDelayMs: 5 })).rejects.toBe(broken);
    expect(calls()).toBe(2);
  });

  it('stops trying once aborted (the stack was closed)', async () => {
    const stop = new AbortController();
    let calls = 0;
    const done = retryWhileDatabaseUnavailable(
      async () => {
        calls++;
        throw refused();
      },
      { firstDelayMs: 60_000, signal: stop.signal },
    );
    await new Promise((r) => setTimeout(r, 20));
    stop.abort();
    expect(await done).toBe(false);
    expect(calls).toBe(1);
  });
});
