// With DATABASE_URL the client key and the code secret belong to the database: every instance on
// it must use the same ones (a code mailed by one is checked by another, every page carries the
// one client key). The first start stores them (its CLIENT_KEY and APP_SECRET, else those its
// data folder already had, else new ones) and every start reads them back; a start configured
// with other values is refused. docs/decisions/027.
import type { Db } from './db/connect';
import { newClientKey, newSecret, type Secrets } from './data-secrets';
import { iso, now } from './services/clock';

const ROWS = { clientKey: 'client_key', secret: 'app_secret' } as const;
const VARIABLES = { clientKey: 'CLIENT_KEY', secret: 'APP_SECRET' } as const;
const KINDS = Object.keys(ROWS) as Array<keyof Secrets>;

/** A start whose configuration contradicts the database: it must stop, saying why. */
export class StartRefused extends Error {}

/** The secrets stored in the database, stored first when it has none (run under the start-up
 *  lock, after the migrations). `given`: CLIENT_KEY and APP_SECRET as configured; `folder`: what
 *  the data folder holds from before the database kept them. */
export async function databaseSecrets(db: Db, given: Partial<Secrets>, folder: Partial<Secrets>): Promise<Secrets> {
  const offered: Secrets = {
    clientKey: given.clientKey ?? folder.clientKey ?? newClientKey(),
    secret: given.secret ?? folder.secret ?? newSecret(),
  };
  const at = iso(now());
  await db
    .insertInto('instance_secrets')
    .values(KINDS.map((kind) => ({ name: ROWS[kind], value: offered[kind], created_at: at })))
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const rows = await db.selectFrom('instance_secrets').select(['name', 'value']).where('name', 'in', Object.values(ROWS)).execute();
  const stored = new Map(rows.map((r) => [r.name, r.value]));
  const secrets = Object.fromEntries(KINDS.map((kind) => [kind, stored.get(ROWS[kind])])) as Partial<Secrets>;
  for (const kind of KINDS) {
    if (!secrets[kind]) throw new Error(`instance_secrets has no ${ROWS[kind]} row after storing it`);
    if (given[kind] !== undefined && given[kind] !== secrets[kind]) {
      throw new StartRefused(
        `${VARIABLES[kind]} differs from the one stored in the database (table instance_secrets, row ${ROWS[kind]}), which every instance on it must share. ` +
          `Leave ${VARIABLES[kind]} unset to use the stored one, or give every instance the same value; to replace it, stop every instance, ` +
          `delete that row and start them all with the new value.`,
      );
    }
  }
  return secrets as Secrets;
}
