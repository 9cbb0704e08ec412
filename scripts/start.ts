// npm start: build the client if dist/ is missing or older than its sources, then start the
// production-mode stack.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DIST_DIR, startFromCommandLine } from '../src/server/main';
import { buildClient } from '../tools/build-client';

const SOURCES = ['src', 'schemas', 'messages', 'public', 'tools', 'index.html', 'vite.config.ts', 'admin.html', 'vite.admin.config.ts'];
/** The member site's page and the back office's (vite.admin.config.ts builds it into dist/admin/). */
const PAGES = [DIST_DIR + 'index.html', DIST_DIR + 'admin/admin.html'];

function newestChange(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, entry) => Math.max(newest, newestChange(join(path, entry))), stat.mtimeMs);
}

const built = Math.min(...PAGES.map((page) => (existsSync(page) ? statSync(page).mtimeMs : 0)));
if (Math.max(...SOURCES.map(newestChange)) > built) {
  console.log('Building the client into dist/ …');
  await buildClient();
}
await startFromCommandLine();
