// When CLIENT_KEY or APP_SECRET are not configured, they are generated once and kept in the
// data folder, so restarts keep sessions and codes valid and no secret is written in source.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function dataSecrets(dataDir: string, clientKey?: string, secret?: string) {
  const file = join(dataDir, 'secrets.json');
  const stored: { clientKey?: string; secret?: string } = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  const next = {
    clientKey: stored.clientKey ?? randomBytes(24).toString('base64url'),
    secret: stored.secret ?? randomBytes(32).toString('base64url'),
  };
  if (next.clientKey !== stored.clientKey || next.secret !== stored.secret) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, JSON.stringify(next, null, 2), { mode: 0o600 });
  }
  return { clientKey: clientKey ?? next.clientKey, secret: secret ?? next.secret };
}
