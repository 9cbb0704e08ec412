// reindex: everything the site keeps beside its tables rebuilt from them, for after data was
// loaded or changed by SQL (an import, a restore, a hand-made fix). Today the back office's member
// search keys (docs/decisions/032), in batches of members (keyset on the id, one transaction each,
// a turn of the event loop between), with the count as it goes. Another rebuild is one more
// entry in REBUILDS.
import { parseArgs } from 'node:util';
import type { Db } from '../db/connect';
import { reindexMembers } from '../member-search-keys';
import type { Command, CommandRun } from './command';
import type { Output } from './output';
import { parseOrFail, say, text, usageError } from './text';

const USAGE = 'reindex [--batch <members>]';

/** A rebuild: its name in messages/operator.ja.json reindex.names, and the work, which reports
 *  its progress (rows so far) and returns how many rows it rebuilt. */
export interface Rebuild {
  name: string;
  run(db: Db, options: { batch?: number; progress: (count: number) => void }): Promise<number>;
}

export const REBUILDS: Rebuild[] = [
  {
    name: 'memberSearch',
    run: async (db, { batch, progress }) => (await reindexMembers(db, { ...(batch ? { batch } : {}), onBatch: (p) => progress(p.members) })).members,
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
    const count = await rebuild.run(db, {
      ...(batch ? { batch } : {}),
      progress: (sofar) => {
        if (sofar - reported < PROGRESS_EVERY) return;
        reported = sofar;
        output.out(say(text.reindex.progress, { name, count: sofar }));
      },
    });
    output.out(say(text.reindex.done, { name, count }));
  }
};

export const reindexCommands: Command[] = [{ group: 'reindex', usage: [USAGE], summary: 'reindex', run: reindex }];
