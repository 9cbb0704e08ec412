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

export function stackEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PORT: String(E2E.port),
    PARENT_SITE_PORT: String(E2E.parentPort),
    MAIL_CATCHER_SMTP_PORT: String(E2E.mailSmtpPort),
    MAIL_CATCHER_WEB_PORT: String(E2E.mailWebPort),
    DATA_DIR: E2E.dataDir,
    PUBLIC_URL: E2E.appUrl,
    DATABASE_URL: '',
    SMTP_URL: '',
  };
}
