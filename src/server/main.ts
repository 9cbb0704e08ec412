// Starts the whole stack: database (migrated), mail (embedded catcher unless SMTP_URL), the
// API with the built client, and the stand-in parent site. Safe to run repeatedly.
import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { loadConfig, smtpUrlOf, mailLinksOf, adminSettingsOf, retentionOf, type Config } from './config';
import { openDb, migrate } from './db/connect';
import { isDatabaseUnavailable, isMissingDatabase } from './db/errors';
import { createMailer } from './mail/mailer';
import { startMailCatcher } from './mail/catcher';
import { build, type BuildOptions } from './app';
import { seedDemoMember } from './seed';
import { indexUnsearchedMembers } from './member-search-keys';
import { dataSecrets, storedDataSecrets, type Secrets } from './data-secrets';
import { databaseSecrets, StartRefused } from './instance-secrets';
import { startParentSite } from './parent-site';
import messages from '../../messages/ja.json';
import { Redis } from 'ioredis';

export const DIST_DIR = fileURLToPath(new URL('../../dist/', import.meta.url));

export interface RetryOptions {
  /** Wait after the first failed try; it doubles after each further one. Default 1 s. */
  firstDelayMs?: number;
  /** The longest wait between two tries. Default 30 s. */
  maxDelayMs?: number;
}

export interface StackOptions {
  /** Serve the client from Vite (npm run dev) instead of dist/. */
  mountClient?: BuildOptions['mountClient'];
  /** How often start-up tries an unreachable database again (tests shorten the waits). */
  databaseRetry?: RetryOptions;
}

/** Runs `attempt` until it succeeds and resolves true. A failure because the database cannot
 *  be reached (isDatabaseUnavailable) is reported to `onUnavailable` and tried again after a
 *  wait that doubles up to maxDelayMs; any other failure (a broken migration, a bug, a database
 *  that does not exist) rejects.
 *  Resolves false, without another try, once `signal` aborts. */
export async function retryWhileDatabaseUnavailable(
  attempt: () => Promise<void>,
  { firstDelayMs = 1000, maxDelayMs = 30_000, signal, onUnavailable }: RetryOptions & { signal?: AbortSignal; onUnavailable?: (error: unknown, tries: number, delayMs: number) => void } = {},
): Promise<boolean> {
  for (let tries = 1, delayMs = firstDelayMs; ; tries++, delayMs = Math.min(delayMs * 2, maxDelayMs)) {
    if (signal?.aborted) return false;
    try {
      await attempt();
      return true;
    } catch (error) {
      if (signal?.aborted) return false; // the stack was closed under the attempt
      if (!isDatabaseUnavailable(error) || isMissingDatabase(error)) throw error;
      onUnavailable?.(error, tries, delayMs);
    }
    // ref: false: a pending retry alone does not keep a closed process alive
    await sleep(delayMs, undefined, { signal, ref: false }).catch(() => {});
  }
}

/** One line for a failed try: the driver's reason, never a stack trace. `listening`: whether the
 *  server listens meanwhile (it does not while it waits for the secrets the database holds). */
function unreachableLine(error: unknown, tries: number, delayMs: number, listening: boolean): string {
  const e = error as { message?: unknown; code?: unknown } | null;
  const reason = (typeof e?.message === 'string' && e.message) || (typeof e?.code === 'string' && e.code) || String(error);
  const meanwhile = listening ? 'the API answers 503 until it is' : 'the server listens once it is (the client key and code secret are stored there)';
  return `database not reachable at start-up (try ${tries}: ${reason}); ${meanwhile}; next try in ${delayMs / 1000} s`;
}

export async function startStack(config: Config = loadConfig(), { mountClient, databaseRetry }: StackOptions = {}, distDir = DIST_DIR) {
  if (!mountClient && !existsSync(distDir + 'index.html')) throw new Error('dist/ is missing: run npm run build (npm start does it for you)');
  // The client key and the code secret. SQLite: the data folder's (one file, one machine).
  // PostgreSQL: the database's, the same for every instance on it (instance-secrets.ts), read
  // after the migrations; when CLIENT_KEY and APP_SECRET are both set they are known before and
  // only checked against the database's.
  const given = { clientKey: config.clientKey, secret: config.secret };
  let secrets: Secrets | undefined = !config.databaseUrl
    ? dataSecrets(config.dataDir, config.clientKey, config.secret)
    : given.clientKey && given.secret
      ? { clientKey: given.clientKey, secret: given.secret }
      : undefined;
  const secretsSource = !config.databaseUrl ? `${config.dataDir}/secrets.json` : 'the database (shared by every instance)';
  const db = openDb({ ...config, checkpointThread: true, onPoolError: (error) => console.error(`database connection lost (the pool reconnects): ${error.message}`) });
  const redis = config.redisUrl ? new Redis(config.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 }) : undefined;
  // While Redis is unreachable the counters fall back to the database; say so, do not crash.
  redis?.on('error', (error) => console.error(`redis: ${error.message}`));

  // The schema and the seeds. A database that cannot be reached does not stop the start: the
  // server listens, the API answers 503 (the ready gate in build()) and this is tried again in
  // the background until it succeeds. Any other failure stops the process, as it always has.
  let ready = false;
  let waited = false;
  const stopRetrying = new AbortController();
  let firstTryFailed!: () => void;
  const waiting = new Promise<void>((resolve) => (firstTryFailed = resolve));
  const listening = !!secrets;
  const prepared = retryWhileDatabaseUnavailable(
    async () => {
      // All under the start-up lock: instances starting together take turns (docs/decisions/027).
      const shared = await migrate(db, async () => {
        const stored = config.databaseUrl ? await databaseSecrets(db, given, storedDataSecrets(config.dataDir)) : undefined;
        if (config.seedDemo) await seedDemoMember(db, config.demoEmail, config.demoPassword);
        return stored;
      });
      secrets ??= shared;
    },
    {
      ...databaseRetry,
      signal: stopRetrying.signal,
      onUnavailable(error, tries, delayMs) {
        console.error(unreachableLine(error, tries, delayMs, listening));
        waited = true;
        firstTryFailed();
      },
    },
  ).then((done) => {
    ready = done;
    if (done && waited) console.log('database reached: migrated and seeded; the API answers again');
    return done;
  });
  // Members without search keys (rows an import or a restore wrote by SQL) are indexed once the
  // database is ready, in the background, batch by batch with a turn of the event loop between:
  // the site serves meanwhile, and another instance doing the same at once is harmless
  // (member-search-keys.ts). A failure is reported; `npm run operator -- reindex` does it again.
  let indexing: Promise<void> | undefined;
  const searchIndexed = prepared.then((done) => {
    if (!done || stopRetrying.signal.aborted) return;
    indexing = indexUnsearchedMembers(db, { signal: stopRetrying.signal }).then(
      ({ members }) => void (members > 0 && console.log(`member search: indexed ${members} members that had no search keys (loaded by SQL?)`)),
      (error: unknown) => console.error('member search: indexing members without keys failed (npm run operator -- reindex rebuilds them):', error),
    );
    return indexing;
    // A start that failed says so where `prepared` is awaited below; nothing is left to index.
  }, () => undefined);
  try {
    // The first try settles how start-up goes on: done, waiting, or (a broken migration, a secret
    // that contradicts the database's) failed. Without its secrets the server cannot serve a
    // page (each carries the client key): then it waits for the database before listening.
    await (listening ? Promise.race([prepared, waiting]) : prepared);
  } catch (error) {
    redis?.disconnect();
    await db.destroy();
    throw error;
  }
  // Later tries run after start-up: a failure there that is not the database's absence stops
  // the process with the error, as a failed first try does.
  prepared.catch((error: unknown) => {
    console.error('database set-up failed; stopping:', error instanceof StartRefused ? error.message : error);
    process.exit(1);
  });

  if (!secrets) throw new Error('start-up ended before the database gave the secrets');
  const { clientKey, secret } = secrets;

  const catcher = config.smtpUrl ? undefined : await startMailCatcher(config.mailCatcherSmtpPort, config.mailCatcherWebPort);
  const app = await build({
    db,
    mailer: createMailer(smtpUrlOf(config), config.mailFrom, config.smtpTimeoutSeconds * 1000, mailLinksOf(config)),
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
    ready: () => ready,
    adminSettings: adminSettingsOf(config),
    retention: retentionOf(config),
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
    `  Database:                  ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `SQLite in ${config.dataDir}`}${ready ? '' : ' (not reachable yet: retrying)'}`,
    `  Client key, code secret:   ${config.clientKey && config.secret ? 'CLIENT_KEY and APP_SECRET' : secretsSource}`,
    config.seedDemo ? `  Demo member:               ${config.demoEmail} / ${config.demoPassword}` : '',
    '',
  ];
  console.log(lines.filter((l) => l !== null).join('\n'));

  const close = async () => {
    stopRetrying.abort();
    // An indexing under way stops after its batch (a start still waiting for the database has none).
    await indexing;
    await parent.close();
    await app.close();
    await catcher?.close();
    redis?.disconnect();
    await db.destroy();
  };
  // databaseReady: resolves once the database is migrated and seeded (already so when it was
  // reachable at start).
  // searchIndexed: resolves once members without search keys have been indexed.
  return { app, close, databaseReady: prepared, searchIndexed };
}

/** startStack for a command (npm start, `tsx src/server/main.ts`): stops on SIGINT and SIGTERM,
 *  and a start refused for its configuration ends the process with one line and exit code 1. */
export async function startFromCommandLine(options?: StackOptions): Promise<void> {
  try {
    const stack = await startStack(loadConfig(), options);
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => void stack.close().then(() => process.exit(0)));
    }
  } catch (error) {
    if (!(error instanceof StartRefused)) throw error;
    console.error(`start-up refused: ${error.message}`);
    process.exit(1);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await startFromCommandLine();
