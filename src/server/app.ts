// build(opts) assembles the API (and, given distDir, the client) without listening, so tests
// drive it with inject(); src/server/main.ts does the listening.
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import helmet from 'helmet';
import fastifyCompress from '@fastify/compress';
import { constants as zlib } from 'node:zlib';
import messages from '../../messages/ja.json';
import type { Db } from './db/connect';
import type { Mailer } from './mail/mailer';
import { ApiError } from './errors';
import { installAuth } from './auth';
import { createCodes } from './services/codes';
import { createSessions } from './services/sessions';
import { createPasskeys } from './services/passkeys';
import { passkeyRoutes } from './routes/passkeys';
import { createServerValidation } from './validation';
import { assertDeclaredChecks } from './server-checks';
import { installRouteValidation } from './route-schemas';
import { loadSchemaSet } from '../shared/validation/schema-files';
import { codeLength } from './schema-settings';
import { unknownMasterFields } from './masters';
import type { AppConfig, AppContext } from './context';
import { serveClient } from './client-files';
import type { ClientSettings, Municipality } from '../shared/api-types';
import { denshijitiList } from './denshijiti';
import { userAuthRoutes } from './routes/user-auth';
import { userInfoRoutes } from './routes/user-info';
import { registrationRoutes } from './routes/registration';
import { masterRoutes } from './routes/masters';
import { memberRoutes } from './routes/member';
import { accountRoutes } from './routes/account';
import { disclosureRoutes } from './routes/disclosure';
import { contactRoutes } from './routes/contact';
import { passwordResetRoutes } from './routes/password-reset';
import { oldRegistrationRoutes } from './routes/old-registration';
import { healthRoutes } from './routes/health';
import { adminRoutes } from './admin';
import type { AdminSettings } from './admin/settings';
import { isBadData, isDatabaseUnavailable } from './db/errors';
import { TextGuardPlugin } from './db/text-guard';
import { officeReads } from './db/office-reads';
import { createRateLimits } from './limits/rate-limits';
import { installIpLimit } from './limits/ip-limit';
import { createPasswordGuard } from './limits/password-guard';
import { sweepRateLimits } from './limits/kysely-store';
import { createOutbox } from './mail/outbox';
import { createAttemptNotices } from './mail/attempt-notices';
import { keyedLink } from '../shared/parent-link';
import catalogue from '../../schemas/catalogue.json';
import type { Redis } from 'ioredis';
import { verifyRoutes } from './routes/verify';
import { startStatsJob } from './admin/services/stats-snapshot';
import { startRetentionJob } from './retention/job';
import { DEFAULT_RETENTION, type RetentionPeriods } from './retention/periods';
import { answerClientError, closeIfBodyUnread, requestTimeouts } from './transport';

export interface BuildOptions {
  db: Db;
  mailer: Mailer;
  clientKey: string;
  secret: string;
  config: AppConfig;
  /** The built client; when given it is served under /user/. */
  distDir?: string;
  /** Instead of distDir: mounts the client some other way (npm run dev mounts Vite). */
  mountClient?: (app: FastifyInstance, settings: ClientSettings) => Promise<void>;
  /** Vite's dev client needs an inline preamble script and a websocket; never in production. */
  devCsp?: boolean;
  logger?: boolean;
  /** The denshijiti master; by default the official list narrowed by schemas/masters/denshijiti.json. */
  municipalities?: readonly Municipality[];
  /** Milliseconds a client has to send a whole request (slower ones are answered 408 and closed). */
  requestTimeoutMs?: number;
  /** Fastify trustProxy: whose X-Forwarded-For names the client (the per-IP limit counts it).
   *  Default: loopback only (TRUST_PROXY in config.ts). */
  trustProxy?: string | boolean;
  /** Attempt counters in Redis instead of the database (REDIS_URL). */
  redis?: Redis;
  /** Namespace of the attempt counters' keys (tests sharing one Redis use their own). */
  limitPrefix?: string;
  /** How often the outbox worker looks for mail due for another try; 0: no worker. */
  outboxIntervalMs?: number;
  /** The schemas folder (default: the project's schemas/); tests run the stack on an edited copy. */
  schemasDir?: string;
  /** False until the database has been reached and migrated (main.ts retries at start-up while
   *  it is unreachable). Until then the API and /readyz answer 503 DB_UNAVAILABLE, /healthz and
   *  the client's pages are served, and the outbox worker waits. Default: always ready. */
  ready?: () => boolean;
  /** The back office's session lengths (default: 30 minutes idle, 8 hours in all). */
  adminSettings?: AdminSettings;
  /** How long personal data is kept (RETENTION_DAYS_*; default DEFAULT_RETENTION, ADR 041). */
  retention?: RetentionPeriods;
}

/** Seconds a 503 DB_UNAVAILABLE asks the client to wait (Retry-After). */
const RETRY_AFTER_SECONDS = '5';

/** The requests that need the database: the API, and /readyz, which reports on it. */
const needsDatabase = (url: string) => url.startsWith('/v1/') || url.startsWith('/readyz');

/** Browser features the app never uses, switched off for it and anything it might embed. */
export const PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()';

export function securityPolicy(parentOrigins: string[], dev = false) {
  return {
    defaultSrc: ["'self'"],
    scriptSrc: dev ? ["'self'", "'unsafe-inline'"] : ["'self'"],
    styleSrc: dev ? ["'self'", "'unsafe-inline'"] : ["'self'"],
    imgSrc: ["'self'", 'data:'],
    fontSrc: ["'self'"],
    connectSrc: dev ? ["'self'", 'ws:'] : ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'self'", ...parentOrigins],
    objectSrc: ["'none'"],
    baseUri: ["'none'"],
    upgradeInsecureRequests: null,
  };
}

/** Every header each answer carries, in the order helmet sets them, then the Permissions-Policy. */
export function staticHeaders(parentOrigins: string[], dev = false): Array<[string, string]> {
  const recorded: Array<[string, string]> = [];
  const response = {
    setHeader: (name: string, value: string | number | string[]) => void recorded.push([name.toLowerCase(), String(value)]),
    removeHeader: (name: string) => recorded.splice(0, recorded.length, ...recorded.filter(([n]) => n !== name.toLowerCase())),
  };
  const middleware = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: securityPolicy(parentOrigins, dev) },
    frameguard: false, // X-Frame-Options cannot name a cross-origin parent; frame-ancestors does
    crossOriginEmbedderPolicy: false,
  });
  middleware({} as never, response as never, (error?: unknown) => {
    if (error) throw error;
  });
  return [...recorded, ['permissions-policy', PERMISSIONS_POLICY]];
}

export interface RouteSummary {
  method: string;
  url: string;
  auth: string;
  /** Which count the route's requests go to (limits/ip-limit.ts), or false. */
  limited: string | false;
}

const ROUTES = new WeakMap<FastifyInstance, RouteSummary[]>();

/** Every route the app registered (the fuzz suite and the limits tests walk them). */
export function routesOf(app: FastifyInstance): RouteSummary[] {
  return ROUTES.get(app) ?? [];
}

export async function build(opts: BuildOptions): Promise<FastifyInstance> {
  // No log line per request: under load writing them was the largest single cost (ADR 017).
  // Errors are still logged (the error handler below, mail failures).
  const requestTimeout = opts.requestTimeoutMs ?? 15_000;
  const app = Fastify({
    logger: opts.logger ?? false,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 64 * 1024,
    trustProxy: opts.trustProxy ?? 'loopback',
    // A request must arrive whole within requestTimeout (then 408 and the connection closed),
    // and a silent socket is closed after twice that: half-sent bodies cannot hold connections
    // open.
    requestTimeout,
    http: requestTimeouts(requestTimeout),
    clientErrorHandler: answerClientError,
    connectionTimeout: requestTimeout * 2,
  });
  // An empty body sent as JSON is no body, not malformed JSON: clients' libraries add
  // `Content-Type: application/json` to body-less calls, and logout must end the session
  // whatever headers it carries. A route with a body schema still refuses the missing body
  // (400 BAD_REQUEST from the schema, as with no Content-Type at all).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser<string>('application/json', { parseAs: 'string' }, (request, body, done) => (body === '' ? done(null, undefined) : parseJson(request, body, done)));
  const routes: RouteSummary[] = [];
  ROUTES.set(app, routes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url, auth: route.config?.auth ?? 'none', limited: route.config?.limited ?? false });
  });
  // Cookies are parsed only where one is read (the trusted-device login), not on every request.
  await app.register(fastifyCookie, { hook: false });
  // The same security headers on every answer, worked out once: helmet's (run once against a
  // recording response; @fastify/helmet rebuilt them, re-parsing the CSP, on every request) and
  // the Permissions-Policy; under load these were 5% of a profile (ADR 017).
  const headers = staticHeaders(opts.config.parentOrigins, opts.devCsp);
  const ready = opts.ready ?? (() => true);
  app.addHook('onRequest', (request, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    // A member's answers carry their personal data: no browser or proxy may keep a copy.
    if (request.headers.authorization) reply.raw.setHeader('cache-control', 'no-store');
    // Before the start-up migration has run, the schema may be missing or stale: the API gives
    // the same 503 as a database outage (through the error handler), before any other hook
    // (client key, session, IP count) reads the database.
    if (!ready() && needsDatabase(request.url)) return done(new ApiError('DB_UNAVAILABLE'));
    done();
  });
  // Answers over 1 KB go out compressed (before @fastify/static, which serves the build's own
  // .br/.gz files). Brotli at quality 4: near gzip's speed, smaller output; request bodies are
  // not decompressed (bodyLimit then still bounds what a client can make the server hold).
  await app.register(fastifyCompress, {
    threshold: 1024,
    globalDecompression: false,
    brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } },
  });

  const db = opts.db.withPlugin(new TextGuardPlugin());
  const officeDb = officeReads(opts.db).withPlugin(new TextGuardPlugin());
  const schemas = loadSchemaSet(opts.schemasDir);
  // A form may only declare the checks this server makes (the QA spec lists what it declares).
  assertDeclaredChecks(schemas);
  const validation = createServerValidation(schemas, messages.form.fallbackFieldError);
  const mailer: Mailer = {
    async send(to, template, values) {
      try {
        await opts.mailer.send(to, template, values);
      } catch (error) {
        app.log.error({ err: error, template }, 'mail send failed');
        throw new ApiError('MAIL_FAILED');
      }
    },
    async touch() {
      try {
        await opts.mailer.touch?.();
      } catch (error) {
        app.log.error({ err: error }, 'mail relay round trip failed');
        throw new ApiError('MAIL_FAILED');
      }
    },
  };
  const outbox = createOutbox(db, opts.mailer, (message, error, level = 'warn') => app.log[level]({ err: error }, message));
  const stopWorker = opts.outboxIntervalMs ? outbox.startWorker(opts.outboxIntervalMs, ready) : undefined;
  // Ended attempt windows are forgotten now and then (the same process that runs the outbox).
  const sweeper = opts.outboxIntervalMs ? setInterval(() => ready() && void sweepRateLimits(db).catch(() => {}), 600_000).unref() : undefined;
  // The statistics of the day that has just ended are computed soon after midnight in Japan, by
  // the first instance to look (docs/decisions/033), not by the first operator to open them; its
  // aggregates read on the office's reader thread on SQLite (db/office-reads.ts).
  const municipalities = opts.municipalities ?? denshijitiList();
  const stopStats = opts.outboxIntervalMs ? startStatsJob(officeDb, municipalities, 600_000, ready, (error) => app.log.warn({ err: error }, 'statistics snapshot failed')) : undefined;
  // Once a day, on one instance, withdrawn members and visitors' inquiries past their retention
  // period are erased (docs/decisions/041), after the day's statistics are made.
  const stopRetention = opts.outboxIntervalMs
    ? startRetentionJob(db, { periods: opts.retention ?? DEFAULT_RETENTION, municipalities, statsDb: officeDb }, 600_000, ready, (error) => app.log.error({ err: error }, 'retention run failed'))
    : undefined;
  app.addHook('onClose', async () => {
    stopWorker?.();
    stopStats?.();
    stopRetention?.();
    clearInterval(sweeper);
  });
  const limits = createRateLimits(opts.config.limits, opts.config.codesPerHour, { db, redis: opts.redis, prefix: opts.limitPrefix });
  const sessions = createSessions(db, opts.config);
  const notices = createAttemptNotices(db, outbox, mailer, opts.config.limits.attemptNoticeDelaySeconds);
  const ctx: AppContext = {
    db,
    officeDb,
    mailer,
    outbox,
    notices,
    sessions,
    passkeys: createPasskeys(db, opts.config.publicUrl),
    limits,
    passwords: createPasswordGuard(limits, opts.config.limits),
    codes: createCodes(
      db,
      {
        ...opts.config,
        secret: opts.secret,
        codeLength: codeLength(schemas),
        // The parent site's page with the screen in its frame, as the old flow's link (old-flow.ts).
        linkUrl: (route, key) => keyedLink(opts.config.siteTopUrl, `${catalogue.basePath}/${route}`, key),
      },
      limits,
      mailer,
      notices,
    ),
    config: opts.config,
    secret: opts.secret,
    municipalities,
    schemas,
    parse<T>(schemaId: string, raw: unknown): T {
      const result = validation.parse(schemaId, raw);
      if (result.ok) return result.data as T;
      // A body that is not an object at all has nothing to show under a field.
      if (!result.fields || '' in result.fields) throw new ApiError('BAD_REQUEST');
      throw new ApiError('VALIDATION', result.fields);
    },
    async checkMasters(schemaId: string, data: Record<string, unknown>) {
      const fields = await unknownMasterFields(db, validation.masterFieldsOf(schemaId), data, messages.api.MASTER_UNKNOWN);
      if (fields) throw new ApiError('VALIDATION', fields);
    },
  };

  installIpLimit(app, limits);
  installAuth(app, opts.clientKey, sessions);
  installRouteValidation(app, validation, messages.form.fallbackFieldError);
  app.setErrorHandler((thrown: Error & { statusCode?: number }, request, reply) => {
    closeIfBodyUnread(request, reply);
    let error = thrown;
    // An outage answers as the DB_UNAVAILABLE error the start-up gate throws: one 503, one Retry-After.
    if (!(error instanceof ApiError) && isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      error = new ApiError('DB_UNAVAILABLE');
    }
    if (error instanceof ApiError) {
      if (error.code === 'DB_UNAVAILABLE') reply.header('retry-after', RETRY_AFTER_SECONDS);
      return reply.code(error.status).send(error.toBody());
    }
    if (isBadData(error)) return reply.code(400).send(new ApiError('BAD_REQUEST').toBody());
    const status = error.statusCode ?? 500;
    if (status < 500) return reply.code(status).send(new ApiError('BAD_REQUEST').toBody());
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send(new ApiError('INTERNAL').toBody());
  });
  app.setNotFoundHandler((request, reply) => {
    closeIfBodyUnread(request, reply);
    return reply.code(404).send(new ApiError('NOT_FOUND').toBody());
  });

  healthRoutes(app, ctx);
  userAuthRoutes(app, ctx);
  passkeyRoutes(app, ctx);
  verifyRoutes(app, ctx);
  userInfoRoutes(app, ctx);
  registrationRoutes(app, ctx);
  oldRegistrationRoutes(app, ctx);
  masterRoutes(app, ctx);
  memberRoutes(app, ctx);
  accountRoutes(app, ctx);
  disclosureRoutes(app, ctx);
  contactRoutes(app, ctx);
  passwordResetRoutes(app, ctx);
  adminRoutes(app, ctx, opts.adminSettings);

  const settings: ClientSettings = {
    clientKey: opts.clientKey,
    parentOrigin: opts.config.parentOrigins[0] ?? '',
    siteTopUrl: opts.config.siteTopUrl,
    monitorUrl: opts.config.monitorUrl,
    surveyUrl: opts.config.surveyUrl,
    mailDomain: opts.config.mailDomain,
    sessionSeconds: opts.config.sessionSeconds,
    sessionMaxSeconds: opts.config.sessionMaxSeconds,
  };
  if (opts.mountClient) await opts.mountClient(app, settings);
  else if (opts.distDir) await serveClient(app, opts.distDir, settings);
  return app;
}
