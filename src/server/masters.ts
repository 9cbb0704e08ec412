// Master option lists: stored in the database, seeded (and kept in step) at every start from
// schemas/masters/options.json, the file product owners edit.
import type { Kysely } from 'kysely';
import { loadMasterLists } from '../shared/validation/schema-files';
import type { Database } from './db/types';
import type { MasterName } from '../shared/api-types';

// Kysely<Database> rather than connect.ts's Db: connect.ts seeds the masters, so importing it
// back would be a cycle.
type Db = Kysely<Database>;

export type { MasterName };

/** The lists of an options file: its keys (annotations such as `$comment` aside), in its order. */
export function masterNames(lists: Record<string, unknown>): MasterName[] {
  return Object.keys(lists).filter((key): key is MasterName => !key.startsWith('$'));
}

/** The lists GET /v1/master/options serves and every start seeds: the keys of
 *  schemas/masters/options.json, so a list added there needs no code change. */
export const MASTER_NAMES: readonly MasterName[] = masterNames(loadMasterLists());
export interface MasterOption {
  value: string;
  label: string;
}

/** The option lists as product owners wrote them (schemas/masters/options.json, or that file
 *  under another schemas folder). */
export function masterFile(dir?: string): Record<MasterName, MasterOption[]> {
  return loadMasterLists(dir) as Record<MasterName, MasterOption[]>;
}

// The lists change only when seedMasters runs (at every start), yet every profile answer needs
// two of them: keep each list per database handle, and forget every handle's lists when any
// reseed runs (the app reads through a plugin-wrapped handle, not the one a reseed is given).
let cache = new WeakMap<Db, Map<MasterName, Promise<MasterOption[]>>>();

/** Brings the stored lists in step with `lists`: options no longer there are deleted, new ones
 *  inserted, changed labels and order updated, the rest left alone. Idempotent, and safe when
 *  several instances run it at once on one database (an upsert, never delete-then-insert, which
 *  made a second start fail on master_options_pk; docs/decisions/027). */
export async function seedMasters(db: Db, lists = masterFile()): Promise<void> {
  await db.transaction().execute(async (tx) => {
    // The project's lists and those of the file given (another schemas folder may add one).
    for (const name of new Set([...MASTER_NAMES, ...masterNames(lists)])) {
      const options = lists[name] ?? [];
      let removed = tx.deleteFrom('master_options').where('master_name', '=', name);
      if (options.length) removed = removed.where('value', 'not in', options.map((o) => o.value));
      await removed.execute();
      if (options.length === 0) continue;
      await tx
        .insertInto('master_options')
        .values(options.map((o, i) => ({ master_name: name, value: o.value, label: o.label, sort_order: i + 1 })))
        .onConflict((oc) =>
          oc
            .columns(['master_name', 'value'])
            .doUpdateSet((eb) => ({ label: eb.ref('excluded.label'), sort_order: eb.ref('excluded.sort_order') }))
            // an unchanged row is not written again
            .where((eb) => eb.or([eb('master_options.label', '<>', eb.ref('excluded.label')), eb('master_options.sort_order', '<>', eb.ref('excluded.sort_order'))])),
        )
        .execute();
    }
  });
  // after the commit: a read that raced the reseed must not stay cached
  cache = new WeakMap();
}

export function masterOptions(db: Db, name: MasterName): Promise<MasterOption[]> {
  let lists = cache.get(db);
  if (!lists) cache.set(db, (lists = new Map()));
  let options = lists.get(name);
  if (!options) {
    options = db.selectFrom('master_options').select(['value', 'label']).where('master_name', '=', name).orderBy('sort_order').execute();
    lists.set(name, options);
    // a failed read (database down) is not kept: the next call tries again
    options.catch(() => lists.delete(name));
  }
  return options;
}

/** The values of `name` that are not in its list (empty when all are known). */
export async function unknownValues(db: Db, name: MasterName, values: string[]): Promise<string[]> {
  if (values.length === 0) return [];
  const known = await db.selectFrom('master_options').select('value').where('master_name', '=', name).where('value', 'in', values).execute();
  const set = new Set(known.map((k) => k.value));
  return values.filter((v) => !set.has(v));
}

/** Field errors for values not in the option list their field names (`fields`: field → list;
 *  undefined when all are known). */
export async function unknownMasterFields(
  db: Db,
  fields: Record<string, string>,
  data: Record<string, unknown>,
  message: string,
): Promise<Record<string, string[]> | undefined> {
  const errors: Record<string, string[]> = {};
  for (const [field, master] of Object.entries(fields)) {
    const value = data[field];
    const values = (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');
    if ((await unknownValues(db, master as MasterName, values)).length) errors[field] = [message];
  }
  return Object.keys(errors).length ? errors : undefined;
}
