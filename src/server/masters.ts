// Master option lists: stored in the database, seeded (and kept in step) at every start from
// schemas/masters/options.json, the file product owners edit.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Kysely } from 'kysely';
import type { Database } from './db/types';
import { MASTER_NAMES, type MasterName } from '../shared/api-types';

// Kysely<Database> rather than connect.ts's Db: connect.ts seeds the masters, so importing it
// back would be a cycle.
type Db = Kysely<Database>;

export { MASTER_NAMES, type MasterName };
export interface MasterOption {
  value: string;
  label: string;
}

const FILE = fileURLToPath(new URL('../../schemas/masters/options.json', import.meta.url));

export function masterFile(): Record<MasterName, MasterOption[]> {
  return JSON.parse(readFileSync(FILE, 'utf8'));
}

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
}

export async function masterOptions(db: Db, name: MasterName): Promise<MasterOption[]> {
  return db.selectFrom('master_options').select(['value', 'label']).where('master_name', '=', name).orderBy('sort_order').execute();
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
