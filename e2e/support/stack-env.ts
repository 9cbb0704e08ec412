import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where the browser tests' stack runs: ports apart from `npm start`'s, its own data folder. */
export const E2E = {
  port: 3100,
  parentPort: 8180,
  mailSmtpPort: 1125,
  mailWebPort: 1180,
  dataDir: join(tmpdir(), 'member-site-e2e'),
  appUrl: 'http://localhost:3100',
  parentUrl: 'http://localhost:8180',
  mailUrl: 'http://localhost:1180',
};

/** A second stack whose sessions last seconds (SESSION_SECONDS), for the expiry tests. */
export const SHORT = {
  port: 3200,
  parentPort: 8280,
  mailSmtpPort: 1225,
  mailWebPort: 1280,
  dataDir: join(tmpdir(), 'member-site-e2e-short'),
  appUrl: 'http://localhost:3200',
  parentUrl: 'http://localhost:8280',
  mailUrl: 'http://localhost:1280',
  sessionSeconds: 8,
};

export type Stack = typeof E2E;

export function stackEnv(stack: Stack = E2E, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PORT: String(stack.port),
    PARENT_SITE_PORT: String(stack.parentPort),
    MAIL_CATCHER_SMTP_PORT: String(stack.mailSmtpPort),
    MAIL_CATCHER_WEB_PORT: String(stack.mailWebPort),
    DATA_DIR: stack.dataDir,
    PUBLIC_URL: stack.appUrl,
    DATABASE_URL: '',
    SMTP_URL: '',
    ...extra,
  };
}
