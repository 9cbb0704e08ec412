// When CLIENT_KEY or APP_SECRET are not configured and the database is SQLite (one file, one
// machine), they are generated once and kept in the data folder, so restarts keep sessions and
// codes valid and no secret is written in source. With DATABASE_URL the database keeps them
// instead (instance-secrets.ts), so every instance on it has the same.
import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Secrets {
  /** The client credential unauthenticated calls carry (X-Client-Key). */
  clientKey: string;
  /** Key for hashing e-mail codes and registration links. */
  secret: string;
}

export const newClientKey = () => randomBytes(24).toString('base64url');
export const newSecret = () => randomBytes(32).toString('base64url');

const secretsFile = (dataDir: string) => join(dataDir, 'secrets.json');

/** What the data folder holds (nothing when it has no secrets file). */
export function storedDataSecrets(dataDir: string): Partial<Secrets> {
  const file = secretsFile(dataDir);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Partial<Secrets>) : {};
}

export function dataSecrets(dataDir: string, clientKey?: string, secret?: string): Secrets {
  const file = secretsFile(dataDir);
  let stored = storedDataSecrets(dataDir);
  if (!stored.clientKey || !stored.secret) {
    const next = { clientKey: stored.clientKey ?? newClientKey(), secret: stored.secret ?? newSecret() };
    mkdirSync(dataDir, { recursive: true });
    // Written whole under another name, then put in place: a start beside this one on the same
    // folder either sees no file or a complete one, and when both write, the first one's wins
    // (link refuses an existing name) and both use it.
    const draft = `${file}.${process.pid}-${randomBytes(4).toString('hex')}`;
    writeFileSync(draft, JSON.stringify(next, null, 2), { mode: 0o600 });
    try {
      if (existsSync(file)) renameSync(draft, file); // an incomplete file of an older version
      else linkSync(draft, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      rmSync(draft, { force: true });
    }
    stored = storedDataSecrets(dataDir);
  }
  return { clientKey: clientKey ?? stored.clientKey!, secret: secret ?? stored.secret! };
}
