// npm start: build the client if it is missing, then start the production-mode stack.
import { existsSync } from 'node:fs';
import { build } from 'vite';
import { DIST_DIR, startStack } from '../src/server/main';

if (!existsSync(DIST_DIR + 'index.html')) {
  console.log('Building the client into dist/ …');
  await build({ logLevel: 'warn' });
}
const stack = await startStack();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void stack.close().then(() => process.exit(0)));
}
