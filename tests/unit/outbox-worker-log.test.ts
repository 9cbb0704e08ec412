// The outbox worker during a database outage: one log line when its rounds start failing (with
// the error), one every FAILURES_PER_LOG failed rounds, one when they work again; not one per
// round (at the site's 5 s, an hour's outage used to be 720 stack traces).
import { describe, expect, it, vi } from 'vitest';
import type { Db } from '../../src/server/db/connect';
import { createOutbox, FAILURES_PER_LOG } from '../../src/server/mail/outbox';
import type { Mailer } from '../../src/server/mail/mailer';

/** A database whose queue reads fail while `down` is set, and find nothing due otherwise. */
function database() {
  const state = { down: true, rounds: 0, failed: 0 };
  const query = { select: () => query, where: () => query, orderBy: () => query, limit: () => query, execute: async () => [] };
  const db = {
    selectFrom: () => {
      state.rounds++;
      if (state.down && ++state.failed) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
      return query;
    },
  } as unknown as Db;
  return { db, state };
}

describe('outbox worker logging', () => {
  it('logs an outage when it starts, then every FAILURES_PER_LOG rounds, then when it ends', async () => {
    const { db, state } = database();
    const log = vi.fn();
    const stop = createOutbox(db, {} as Mailer, log).startWorker(1);
    try {
      await vi.waitFor(() => expect(state.rounds).toBeGreaterThanOrEqual(FAILURES_PER_LOG + 5), { timeout: 5000 });
      state.down = false;
      await vi.waitFor(() => expect(log.mock.calls.at(-1)?.[0]).toMatch(/work again/), { timeout: 5000 });
    } finally {
      stop();
    }
    const messages = log.mock.calls.map(([message]) => message as string);
    expect(messages[0]).toMatch(/failed/);
    expect(log.mock.calls[0][1]).toBeInstanceOf(Error);
    expect(state.failed).toBeGreaterThan(FAILURES_PER_LOG);
    expect(messages.filter((m) => /still failing/.test(m))).toHaveLength(Math.floor(state.failed / FAILURES_PER_LOG));
    expect(messages).toHaveLength(2 + Math.floor(state.failed / FAILURES_PER_LOG));
    expect(messages.at(-1)).toBe(`outbox rounds work again after ${state.failed} failed round(s)`);
  });
});
