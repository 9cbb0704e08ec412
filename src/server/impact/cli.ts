// npm run impact: reads the command line, opens the database the site would use (read-only) and
// prints the report. The process wiring is in scripts/impact.ts, so tests call runImpact() with
// a test database and a recording output.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import texts from '../../../messages/impact.ja.json';
import { format } from '../../shared/format';
import type { ImpactReport } from '../../shared/impact';
import { loadSchemaSet, SCHEMAS_DIR, type SchemaSet } from '../../shared/validation/schema-files';
import type { Config } from '../config';
import { openDb, sqliteFile, type Db } from '../db/connect';
import type { Output } from '../operator/output';
import { JUDGED_FORMS } from './form-judge';
import { measureImpact } from './measure';
import { renderImpact } from './render';

/** 0: every stored record passes; 1: some are refused; 2: bad usage, or nothing could be read. */
export const EXIT = { passed: 0, refused: 1, failed: 2 } as const;

export interface StoredData {
  db: Db;
  /** Which database, for the report (no credentials). */
  description: string;
  close(): Promise<void>;
}

class ImpactError extends Error {}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The database the site would use with `config` (DATABASE_URL, or the SQLite file in
 *  DATA_DIR), opened so that nothing can be written and nothing is created. */
export function openStoredData(config: Pick<Config, 'databaseUrl' | 'dataDir'>): StoredData {
  if (config.databaseUrl) {
    const url = new URL(config.databaseUrl);
    const db = openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, readOnly: true, applicationName: 'member-site-impact', onPoolError: () => {} });
    return { db, description: format(texts.postgres, { target: `${url.host}${url.pathname}` }), close: () => db.destroy() };
  }
  const file = sqliteFile(config.dataDir);
  if (!existsSync(file)) throw new ImpactError(format(texts.errors.noDatabaseFile, { file }));
  const db = openDb({ dataDir: config.dataDir, readOnly: true });
  return { db, description: format(texts.sqlite, { file }), close: () => db.destroy() };
}

export async function runImpact(argv: string[], output: Output, open: () => StoredData): Promise<number> {
  let options: { schemas?: string; form?: string[]; json?: boolean; help?: boolean };
  try {
    options = parseArgs({
      args: argv,
      options: { schemas: { type: 'string' }, form: { type: 'string', multiple: true }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    }).values;
    const unknown = options.form?.filter((name) => !JUDGED_FORMS.some((f) => f.form === name));
    if (unknown?.length) throw new Error(format(texts.errors.unknownForm, { forms: unknown.join(', '), known: JUDGED_FORMS.map((f) => f.form).join(', ') }));
  } catch (error) {
    output.err(format(texts.errors.usage, { message: describe(error) }));
    output.err(texts.help[0]);
    return EXIT.failed;
  }
  if (options.help) {
    for (const line of texts.help) output.out(format(line, { forms: JUDGED_FORMS.map((f) => f.form).join(texts.formSeparator) }));
    return EXIT.passed;
  }

  let set: SchemaSet;
  try {
    set = loadSchemaSet(options.schemas ? resolve(options.schemas) : SCHEMAS_DIR);
  } catch (error) {
    output.err(format(texts.errors.schemas, { message: describe(error) }));
    return EXIT.failed;
  }

  let stored: StoredData;
  try {
    stored = open();
  } catch (error) {
    output.err(error instanceof ImpactError ? error.message : format(texts.errors.read, { message: describe(error) }));
    return EXIT.failed;
  }
  try {
    const report: ImpactReport = { database: stored.description, ...(await measureImpact(stored.db, set, { forms: options.form })) };
    if (options.json) output.out(JSON.stringify(report, null, 2));
    else for (const line of renderImpact(report)) output.out(line);
    return report.failed ? EXIT.refused : EXIT.passed;
  } catch (error) {
    output.err(format(texts.errors.read, { message: describe(error) }));
    return EXIT.failed;
  } finally {
    await stored.close();
  }
}
