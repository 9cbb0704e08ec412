// Master option lists: stored in the database, seeded (and kept in step) at every start from
// schemas/masters/options.json, the file product owners edit.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Db } from './db/connect';

import { MASTER_NAMES, type MasterName } from '../shared/api-types';

export { MASTER_NAMES, type MasterName };
export interface MasterOption {
  value: string;
  label: string;
}

const FILE = fileURLToPath(new URL('../../schemas/masters/options.json', import.meta.url));

export function masterFile(): Record<MasterName, MasterOption[]> {
  return JSON.parse(readFileSync(FILE, 'utf8'));
}

// The lists change only when seedMasters runs (at every start), yet every profile answer needs
// two of them: keep each list per database handle, and forget them when the lists are reseeded.
const cache = new WeakMap<Db, Map<MasterName, Promise<MasterOption[]>>>();

export async function seedMasters(db: Db, lists = masterFile()): Promise<void> {
  await db.transaction().execute(async (tx) => {
    for (const name of MASTER_NAMES) {
      const options = lists[name] ?? [];
      await tx.deleteFrom('master_options').where('master_name', '=', name).execute();
      if (options.length === 0) continue;
      await tx
        .insertInto('master_options')
        .values(options.map((o, i) => ({ master_name: name, value: o.value, label: o.label, sort_order: i + 1 })))
        .execute();
    }
  });
  // after the commit: a read that raced the reseed must not stay cached
  cache.delete(db);
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

/** Field errors for master codes that are not in their lists (undefined when all are known). */
export async function unknownMasterFields(
  db: Db,
  codes: { job: string; industry: string; mail_opt: string; purpose: string[] },
  message: string,
): Promise<Record<string, string[]> | undefined> {
  const fields: Record<string, string[]> = {};
  for (const name of ['job', 'industry', 'mail_opt'] as const) {
    if ((await unknownValues(db, name, [codes[name]])).length) fields[name] = [message];
  }
  if ((await unknownValues(db, 'purpose', codes.purpose)).length) fields.purpose = [message];
  return Object.keys(fields).length ? fields : undefined;
}
