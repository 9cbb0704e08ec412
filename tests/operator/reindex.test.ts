// npm run operator -- reindex rebuilds everything kept beside the tables (issue 34 point 2): the
// member search keys and the statistics' snapshot of the previous day, each saying what it did,
// so members loaded by SQL are found and counted.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { endOfJapanDay, statsDayOf } from '../../src/server/admin/services/stats';
import { statsSnapshot } from '../../src/server/admin/services/stats-snapshot';
import { denshijitiList } from '../../src/server/denshijiti';
import { REBUILDS } from '../../src/server/operator/reindex';
import { say } from '../../src/server/operator/text';
import { applicant } from '../support/admin-records';
import { DATABASES, Harness, setUpOrFail } from '../support/api-harness';
import { clearOperatorTables, operator, operatorText as text } from './operator-support';

describe.each(DATABASES)('operator: reindex ($name)', ({ kind }) => {
  let h: Harness;

  setUpOrFail(async () => {
    h = await Harness.start(kind);
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(async () => {
    await clearOperatorTables(h.db);
    await h.db.deleteFrom('stats_snapshots').execute();
  });

  it('lists every rebuild: the member search keys, then the statistics', () => {
    expect(REBUILDS.map((r) => r.name)).toEqual(['memberSearch', 'stats']);
    for (const rebuild of REBUILDS) expect(text.reindex.names).toHaveProperty(rebuild.name);
  });

  it('members loaded by SQL into yesterday are counted in the statistics after reindex, which says so', async () => {
    const day = statsDayOf(new Date());
    const yesterday = new Date(Date.parse(endOfJapanDay(day)) - 60_000).toISOString();
    const municipalities = denshijitiList();
    const before = await statsSnapshot(h.db, { municipalities });
    expect(before.asOf).toBe(day);
    // Loaded by SQL after the day's figures were computed: the snapshot does not see them yet.
    for (let i = 0; i < 12; i++) await applicant(h, { address_current: '北海道札幌市1-1' }, yesterday);
    expect(await statsSnapshot(h.db, { municipalities })).toEqual(before);

    const res = await operator(h, 'reindex');
    expect(res.code, res.stderr).toBe(0);
    const after = await statsSnapshot(h.db, { municipalities });
    expect(after.total).toBe((before.total ?? 0) + 12);
    const name = text.reindex.names.stats;
    expect(res.out).toContain(say(text.reindex.started, { name }));
    expect(res.out.at(-1)).toBe(say(text.reindex.statsDone, { name, asOf: day, total: say(text.reindex.statsTotal, { count: after.total! }) }));
    // The member search keys first, with their count.
    const members = Number((await h.db.selectFrom('users').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    expect(res.out).toContain(say(text.reindex.done, { name: text.reindex.names.memberSearch, count: members }));
  });
});
