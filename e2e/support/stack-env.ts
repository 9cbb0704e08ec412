import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Shifts every port (and the data folders) so two checkouts can run the browser tests at once. */
const offset = Number(process.env.E2E_PORT_OFFSET ?? 0);

function stackAt(base: { port: number; parentPort: number; mailSmtpPort: number; mailWebPort: number }, name: string) {
  const port = base.port + offset;
  const parentPort = base.parentPort + offset;
  const mailWebPort = base.mailWebPort + offset;
  return {
    port,
    parentPort,
    mailSmtpPort: base.mailSmtpPort + offset,
    mailWebPort,
    dataDir: join(tmpdir(), `${name}${offset ? `-${offset}` : ''}`),
    appUrl: `http://localhost:${port}`,
    parentUrl: `http://localhost:${parentPort}`,
    mailUrl: `http://localhost:${mailWebPort}`,
  };
}

/** Where the browser tests' stack runs: ports apart from `npm start`'s, its own data folder. */
export const E2E = stackAt({ port: 3100, parentPort: 8180, mailSmtpPort: 1125, mailWebPort: 1180 }, 'member-site-e2e');

/** A second stack whose sessions last seconds (SESSION_SECONDS), for the expiry tests: 60 s, a
 *  session under 100 s, whose warning comes 20 s before the end (WCAG 2.2.1's least) rather than
 *  a fifth of it. The tests move the page's clock and the sessions' times rather than wait. */
export const SHORT = {
  ...stackAt({ port: 3200, parentPort: 8280, mailSmtpPort: 1225, mailWebPort: 1280 }, 'member-site-e2e-short'),
  sessionSeconds: 60,
};

export type Stack = ReturnType<typeof stackAt>;

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
    // Every browser test comes from 127.0.0.1: the per-IP attempt limit and the per-network mail
    // budget (60 code mails an hour, which the suite passes about two thirds through) would hold it.
    RATE_LIMIT_IP: '1000000',
    MAIL_PER_NETWORK_HOUR: '1000000',
    // The day's one notice of an attempt goes out at once rather than ten minutes later, so a
    // test reads it (the combining has its own API test, tests/abuse/limits.test.ts).
    ATTEMPT_NOTICE_DELAY_SECONDS: '0',
    ...extra,
  };
}
