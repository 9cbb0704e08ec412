// Starts the whole stack: database (migrated), mail (embedded catcher unless SMTP_URL), the
// API with the built client, and the stand-in parent site. Safe to run repeatedly.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadConfig, smtpUrlOf, type Config } from './config';
import { openDb, migrate } from './db/connect';
import { createMailer } from './mail/mailer';
import { startMailCatcher } from './mail/catcher';
import { build, type BuildOptions } from './app';
import { seedDemoMember } from './seed';
import { dataSecrets } from './data-secrets';
import { startParentSite } from './parent-site';
import messages from '../../messages/ja.json';
import { Redis } from 'ioredis';

export const DIST_DIR = fileURLToPath(new URL('../../dist/', import.meta.url));

export interface StackOptions {
  /** Serve the client from Vite (npm run dev) instead of dist/. */
  mountClient?: BuildOptions['mountClient'];
}

export async function startStack(config: Config = loadConfig(), { mountClient }: StackOptions = {}, distDir = DIST_DIR) {
  if (!mountClient && !existsSync(distDir + 'index.html')) throw new Error('dist/ is missing: run npm run build (npm start does it for you)');
  const { clientKey, secret } = dataSecrets(config.dataDir, config.clientKey, config.secret);
  const db = openDb({ ...config, onPoolError: (error) => console.error(`database connection lost (the pool reconnects): ${error.message}`) });
  const redis = config.redisUrl ? new Redis(config.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 }) : undefined;
  // While Redis is unreachable the counters fall back to the database; say so, do not crash.
  redis?.on('error', (error) => console.error(`redis: ${error.message}`));
  await migrate(db);
  const catcher = config.smtpUrl ? undefined : await startMailCatcher(config.mailCatcherSmtpPort, config.mailCatcherWebPort);
  if (config.seedDemo) await seedDemoMember(db, config.demoEmail, config.demoPassword);

  const app = await build({
    db,
    mailer: createMailer(smtpUrlOf(config), config.mailFrom, config.smtpTimeoutSeconds * 1000),
    redis,
    trustProxy: config.trustProxy,
    requestTimeoutMs: config.requestTimeoutSeconds * 1000,
    outboxIntervalMs: 5000,
    clientKey,
    secret,
    config,
    distDir,
    mountClient,
    devCsp: !!mountClient,
    logger: true,
  });
  await app.listen({ port: config.port, host: config.host });
  const parent = await startParentSite(config.parentSitePort, config.host, config.publicUrl);

  const lines = [
    '',
    `  ${messages.site.name} is running`,
    `  Site in its parent frame:  http://localhost:${config.parentSitePort}/`,
    `  The app on its own:        ${config.publicUrl}/user/`,
    `  API:                       ${config.publicUrl}/v1/`,
    catcher ? `  Mail view (caught mail):   http://localhost:${config.mailCatcherWebPort}/` : `  Mail goes to:              ${config.smtpUrl}`,
    `  Database:                  ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `SQLite in ${config.dataDir}`}`,
    config.seedDemo ? `  Demo member:               ${config.demoEmail} / ${config.demoPassword}` : '',
    '',
  ];
  console.log(lines.filter((l) => l !== null).join('\n'));

  const close = async () => {
    await parent.close();
    await app.close();
    await catcher?.close();
    redis?.disconnect();
    await db.destroy();
  };
  return { app, close };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const stack = await startStack();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void stack.close().then(() => process.exit(0)));
  }
}
