// Started by Playwright's webServer: a clean data folder, then the real stack (dist/ must be
// built: `npm test` builds it first). `--short` starts the short-session stack.
import { rmSync } from 'node:fs';
import { loadConfig } from '../../src/server/config';
import { startStack } from '../../src/server/main';
import { E2E, SHORT, stackEnv } from './stack-env';

const short = process.argv.includes('--short');
const stack = short ? SHORT : E2E;
rmSync(stack.dataDir, { recursive: true, force: true });
const running = await startStack(loadConfig(stackEnv(stack, short ? { SESSION_SECONDS: String(SHORT.sessionSeconds) } : {})));
process.once('SIGTERM', () => void running.close().then(() => process.exit(0)));
process.once('SIGINT', () => void running.close().then(() => process.exit(0)));
