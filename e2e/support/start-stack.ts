// Started by Playwright's webServer: a clean data folder, then the real stack (dist/ must be
// built: `npm test` builds it first).
import { rmSync } from 'node:fs';
import { loadConfig } from '../../src/server/config';
import { startStack } from '../../src/server/main';
import { E2E, stackEnv } from './stack-env';

rmSync(E2E.dataDir, { recursive: true, force: true });
const stack = await startStack(loadConfig(stackEnv()));
process.once('SIGTERM', () => void stack.close().then(() => process.exit(0)));
process.once('SIGINT', () => void stack.close().then(() => process.exit(0)));
