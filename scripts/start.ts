// npm start: build the client if dist/ is missing or older than its sources, then start the
// production-mode stack.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'vite';
import { DIST_DIR, startFromCommandLine } from '../src/server/main';

const SOURCES = ['src', 'schemas', 'messages', 'public', 'tools', 'index.html', 'vite.config.ts'];

function newestChange(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, entry) => Math.max(newest, newestChange(join(path, entry))), stat.mtimeMs);
}

const built = existsSync(DIST_DIR + 'index.html') ? statSync(DIST_DIR + 'index.html').mtimeMs : 0;
if (Math.max(...SOURCES.map(newestChange)) > built) {
  console.log('Building the client into dist/ …');
  await build({ logLevel: 'warn' });
}
await startFromCommandLine();
