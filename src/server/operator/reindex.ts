// reindex: everything the site keeps beside its tables rebuilt from them, for after data was
// loaded or changed by SQL (an import, a restore, a hand-made fix): the back office's member
// search keys (docs/decisions/032), in batches of members (keyset on the id, one transaction each,
// a turn of the event loop between), with the count as it goes; then the statistics' snapshot of
// the previous day (docs/decisions/033), computed again from the tables so members loaded by SQL
// are counted. Each says what it did. Another rebuild is one more entry in REBUILDS.
import { parseArgs } from 'node:util';
import type { Db } from '../db/connect';
import { reindexMembers } from '../member-search-keys';
import { recomputeStats } from '../admin/services/stats-snapshot';
import { denshijitiList } from '../denshijiti';
import type { Command, CommandRun } from './command';
import type { Output } from './output';
import { parseOrFail, say, text, usageError } from './text';

const USAGE = 'reindex [--batch <members>]';

/** A rebuild: its name in messages/operator.ja.json reindex.names, and the work, which reports
 *  its progress (rows so far) and returns the line that says what it rebuilt. */
export interface Rebuild {
  name: string;
  run(db: Db, options: { name: string; batch?: number; progress: (count: number) => void }): Promise<string>;
}

export const REBUILDS: Rebuild[] = [
  {
    name: 'memberSearch',
    run: async (db, { name, batch, progress }) => {
      const { members } = await reindexMembers(db, { ...(batch ? { batch } : {}), onBatch: (p) => progress(p.members) });
      return say(text.reindex.done, { name, count: members });
    },
  },
  {
    // The served municipalities (schemas/masters/denshijiti.json), as the site computes them.
    name: 'stats',
    run: async (db, { name }) => {
      const stats = await recomputeStats(db, denshijitiList());
      const total = stats.total === null ? say(text.reindex.statsTotalHidden, { floor: stats.floor }) : say(text.reindex.statsTotal, { count: stats.total });
      return say(text.reindex.statsDone, { name, asOf: stats.asOf, total });
    },
  },
];

/** A progress line every this many rows. */
const PROGRESS_EVERY = 10_000;

export const reindex: CommandRun = async (db, _mailer, args, output: Output) => {
  const { values, positionals } = parseOrFail(() => parseArgs({ args, options: { batch: { type: 'string' } }, allowPositionals: true, strict: true }), USAGE);
  if (positionals.length > 0) throw usageError(say(text.errors.unexpectedArguments, { args: positionals.join(' ') }), USAGE);
  const batch = values.batch === undefined ? undefined : Number(values.batch);
  if (batch !== undefined && !(Number.isInteger(batch) && batch >= 1 && batch <= 5000)) throw usageError(text.reindex.badBatch, USAGE);
  const names = text.reindex.names as Record<string, string>;
  for (const rebuild of REBUILDS) {
    const name = names[rebuild.name] ?? rebuild.name;
    output.out(say(text.reindex.started, { name }));
    let reported = 0;
    const done = await rebuild.run(db, {
      name,
      ...(batch ? { batch } : {}),
      progress: (sofar) => {
        if (sofar - reported < PROGRESS_EVERY) return;
        reported = sofar;
        output.out(say(text.reindex.progress, { name, count: sofar }));
      },
    });
    output.out(done);
  }
};

export const reindexCommands: Command[] = [{ group: 'reindex', usage: [USAGE], summary: 'reindex', run: reindex }];
