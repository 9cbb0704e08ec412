// Every environment variable the server reads, checked once at start-up (fail fast).
// README lists them with their defaults.
import { join, resolve } from 'node:path';
import mail from '../../messages/mail.ja.json';
import { DEFAULT_LIMITS, type LimitNumbers } from './limits/rate-limits';
import { inParent } from '../shared/parent-link';
import catalogue from '../../schemas/catalogue.json';
import type { MailLinks } from './mail/mailer';
import { DEFAULT_ADMIN_SETTINGS, type AdminSettings } from './admin/settings';
import { DEFAULT_RETENTION, type RetentionPeriods } from './retention/periods';

export interface Config {
  port: number;
  host: string;
  /** postgres://… switches persistence to PostgreSQL; otherwise SQLite under dataDir. */
  databaseUrl: string | undefined;
  dataDir: string;
  /** smtp://… of a real relay; unset means the embedded mail catcher. */
  smtpUrl: string | undefined;
  mailFrom: string;
  /** The domain part of MAIL_FROM. */
  mailDomain: string;
  mailCatcherSmtpPort: number;
  mailCatcherWebPort: number;
  /** The fixed credential unauthenticated calls carry in X-Client-Key. Unset: generated once into dataDir. */
  clientKey: string | undefined;
  /** Key for hashing e-mail codes. Unset: generated once into dataDir. */
  secret: string | undefined;
  /** Origins allowed to frame the app (CSP frame-ancestors); the first receives postMessage. */
  parentOrigins: string[];
  /** The parent site's top page: where logout and registration send the member. */
  siteTopUrl: string;
  parentSitePort: number;
  /** The monitor programme's application page (opens in a new tab from my page). */
  monitorUrl: string;
  /** The survey page members answer (opens in a new tab from my page). */
  surveyUrl: string;
  /** How members reach the secretariat; every mail ends with these (messages/mail.ja.json footer). */
  supportUrl: string;
  /** Stand-in default: an example number that must be replaced by the real one. */
  supportPhone: string;
  supportHours: string;
  publicUrl: string;
  /** A session ends this long after the member's last request (it slides; docs/decisions/024). */
  sessionSeconds: number;
  /** ...and at the latest this long after login, however active the member is (024). */
  sessionMaxSeconds: number;
  /** A back-office session ends this long after the operator's last request (issue 23: 30 minutes). */
  adminSessionSeconds: number;
  /** ...and at the latest this long after login (8 hours). */
  adminSessionMaxSeconds: number;
  codeTtlSeconds: number;
  codeMaxAttempts: number;
  codesPerHour: number;
  trustedDeviceDays: number;
  /** How long a verified registration address may be used to complete the registration. */
  verifiedEmailSeconds: number;
  /** How long a registration link mailed by the old e-mail authentication screen stays valid. */
  registrationLinkSeconds: number;
  /** redis://… keeps the attempt counters in Redis; unset: in the database. */
  redisUrl: string | undefined;
  /** Which proxies' X-Forwarded-For is believed (Fastify trustProxy): the per-IP limit counts
   *  the address they report. Loopback only unless set: behind Docker, Kubernetes or a LAN every
   *  peer has a private address, and believing them all lets any client pick its own key. */
  trustProxy: string;
  /** Attempt limits (docs/decisions/015). */
  limits: LimitNumbers;
  /** A request must arrive whole within this; a slower one is answered 408 and closed. */
  requestTimeoutSeconds: number;
  /** SMTP connect, greeting and socket timeouts. */
  smtpTimeoutSeconds: number;
  /** Days after withdrawal until a member's personal data is erased (docs/decisions/041; 0: at the next daily run). */
  retentionDaysAfterWithdrawal: number;
  /** Days after a visitor's inquiry last changed until its personal fields are erased (041). */
  retentionDaysVisitorInquiries: number;
  seedDemo: boolean;
  demoEmail: string;
  demoPassword: string;
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 1): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer ≥ ${min}, got "${raw}"`);
  return value;
}

function origin(name: string, raw: string): string {
  try {
    return new URL(raw).origin;
  } catch {
    throw new Error(`${name} must be an absolute URL, got "${raw}"`);
  }
}

/** What every mail may link to or name: the secretariat's contact and the login page, both
 *  opened in the parent site with the app in its frame. */
export function mailLinksOf(config: Pick<Config, 'siteTopUrl' | 'supportUrl' | 'supportPhone' | 'supportHours'>): MailLinks {
  return {
    supportUrl: config.supportUrl,
    supportPhone: config.supportPhone,
    supportHours: config.supportHours,
    loginUrl: inParent(config.siteTopUrl, `${catalogue.basePath}/login`),
  };
}

/** The back office's session lengths (src/server/admin/settings.ts). */
export function adminSettingsOf(config: Pick<Config, 'adminSessionSeconds' | 'adminSessionMaxSeconds'>): AdminSettings {
  return { sessionSeconds: config.adminSessionSeconds, sessionMaxSeconds: config.adminSessionMaxSeconds };
}

/** The retention periods (src/server/retention/). */
export function retentionOf(config: Pick<Config, 'retentionDaysAfterWithdrawal' | 'retentionDaysVisitorInquiries'>): RetentionPeriods {
  return { afterWithdrawalDays: config.retentionDaysAfterWithdrawal, visitorInquiryDays: config.retentionDaysVisitorInquiries };
}

/** Where mail goes: the configured relay, or the mail catcher `npm start` embeds. */
export function smtpUrlOf(config: Pick<Config, 'smtpUrl' | 'mailCatcherSmtpPort'>): string {
  return config.smtpUrl ?? `smtp://127.0.0.1:${config.mailCatcherSmtpPort}`;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = int(env, 'PORT', 3000);
  const parentSitePort = int(env, 'PARENT_SITE_PORT', 8080);
  const parentOrigins = (env.PARENT_ORIGINS ?? `http://localhost:${parentSitePort}`)
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean)
    .map((o) => origin('PARENT_ORIGINS', o));
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new Error('DATABASE_URL must be a postgres:// URL (leave it unset for the embedded SQLite)');
  }
  const smtpUrl = env.SMTP_URL || undefined;
  if (smtpUrl && !/^smtps?:\/\//.test(smtpUrl)) throw new Error('SMTP_URL must be an smtp:// or smtps:// URL');
  const redisUrl = env.REDIS_URL || undefined;
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) throw new Error('REDIS_URL must be a redis:// or rediss:// URL');
  const siteTopUrl = env.SITE_TOP_URL ?? `${parentOrigins[0] ?? `http://localhost:${parentSitePort}`}/`;
  // Mails link to it (src/shared/parent-link.ts): it must be absolute.
  origin('SITE_TOP_URL', siteTopUrl);
  if (env.SUPPORT_URL) origin('SUPPORT_URL', env.SUPPORT_URL);
  const mailFrom = env.MAIL_FROM ?? mail.from;
  const mailDomain = /@([^>\s]+)>?\s*$/.exec(mailFrom)?.[1];
  if (!mailDomain) throw new Error(`MAIL_FROM must contain an address, got "${mailFrom}"`);
  const sessionSeconds = int(env, 'SESSION_SECONDS', 3600);
  const sessionMaxSeconds = int(env, 'SESSION_MAX_SECONDS', 43200);
  if (sessionMaxSeconds < sessionSeconds) throw new Error(`SESSION_MAX_SECONDS (${sessionMaxSeconds}) must be at least SESSION_SECONDS (${sessionSeconds})`);
  const adminSessionSeconds = int(env, 'ADMIN_SESSION_SECONDS', DEFAULT_ADMIN_SETTINGS.sessionSeconds);
  const adminSessionMaxSeconds = int(env, 'ADMIN_SESSION_MAX_SECONDS', DEFAULT_ADMIN_SETTINGS.sessionMaxSeconds);
  if (adminSessionMaxSeconds < adminSessionSeconds) {
    throw new Error(`ADMIN_SESSION_MAX_SECONDS (${adminSessionMaxSeconds}) must be at least ADMIN_SESSION_SECONDS (${adminSessionSeconds})`);
  }
  return {
    port,
    host: env.HOST ?? '127.0.0.1',
    databaseUrl,
    dataDir: resolve(env.DATA_DIR ?? join(process.cwd(), 'data')),
    smtpUrl,
    mailFrom,
    mailDomain,
    mailCatcherSmtpPort: int(env, 'MAIL_CATCHER_SMTP_PORT', 1025),
    mailCatcherWebPort: int(env, 'MAIL_CATCHER_WEB_PORT', 1080),
    clientKey: env.CLIENT_KEY || undefined,
    secret: env.APP_SECRET || undefined,
    parentOrigins,
    siteTopUrl,
    parentSitePort,
    monitorUrl: env.MONITOR_URL ?? `http://localhost:${parentSitePort}/monitor`,
    surveyUrl: env.SURVEY_URL ?? `http://localhost:${parentSitePort}/survey`,
    supportUrl: env.SUPPORT_URL || inParent(siteTopUrl, `${catalogue.basePath}/contact`),
    supportPhone: env.SUPPORT_PHONE || '0120-000-000',
    supportHours: env.SUPPORT_HOURS || mail.supportHours,
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
    sessionSeconds,
    sessionMaxSeconds,
    adminSessionSeconds,
    adminSessionMaxSeconds,
    codeTtlSeconds: int(env, 'CODE_TTL_SECONDS', 600),
    codeMaxAttempts: int(env, 'CODE_MAX_ATTEMPTS', 5),
    codesPerHour: int(env, 'CODES_PER_HOUR', 10),
    trustedDeviceDays: int(env, 'TRUSTED_DEVICE_DAYS', 90),
    verifiedEmailSeconds: int(env, 'VERIFIED_EMAIL_SECONDS', 3600),
    registrationLinkSeconds: int(env, 'REGISTRATION_LINK_SECONDS', 86400),
    redisUrl,
    trustProxy: env.TRUST_PROXY ?? 'loopback',
    limits: {
      ...DEFAULT_LIMITS,
      ipRequests: int(env, 'RATE_LIMIT_IP', DEFAULT_LIMITS.ipRequests),
      ipWindowSeconds: int(env, 'RATE_LIMIT_IP_WINDOW_SECONDS', DEFAULT_LIMITS.ipWindowSeconds),
      passwordFailures: int(env, 'LOGIN_FAILURE_LIMIT', DEFAULT_LIMITS.passwordFailures),
      codeFailures: int(env, 'CODE_FAILURE_LIMIT', DEFAULT_LIMITS.codeFailures),
      mailsPerNetworkHour: int(env, 'MAIL_PER_NETWORK_HOUR', DEFAULT_LIMITS.mailsPerNetworkHour),
      acknowledgementsPerDay: int(env, 'CONTACT_ACKS_PER_DAY', DEFAULT_LIMITS.acknowledgementsPerDay, 0),
      passwordSlowAfter: int(env, 'LOGIN_SLOW_AFTER', DEFAULT_LIMITS.passwordSlowAfter, 0),
      slowMaxMs: int(env, 'LOGIN_SLOW_MAX_MS', DEFAULT_LIMITS.slowMaxMs, 0),
      operatorPasswordCap: int(env, 'OPERATOR_LOGIN_FAILURE_CAP', DEFAULT_LIMITS.operatorPasswordCap),
      operatorRequestsPerHour: int(env, 'OPERATOR_REQUESTS_PER_HOUR', DEFAULT_LIMITS.operatorRequestsPerHour),
      attemptNoticeDelaySeconds: int(env, 'ATTEMPT_NOTICE_DELAY_SECONDS', DEFAULT_LIMITS.attemptNoticeDelaySeconds, 0),
    },
    requestTimeoutSeconds: int(env, 'REQUEST_TIMEOUT_SECONDS', 15),
    smtpTimeoutSeconds: int(env, 'SMTP_TIMEOUT_SECONDS', 5),
    retentionDaysAfterWithdrawal: int(env, 'RETENTION_DAYS_AFTER_WITHDRAWAL', DEFAULT_RETENTION.afterWithdrawalDays, 0),
    retentionDaysVisitorInquiries: int(env, 'RETENTION_DAYS_VISITOR_INQUIRIES', DEFAULT_RETENTION.visitorInquiryDays, 0),
    seedDemo: (env.SEED_DEMO ?? 'true') !== 'false',
    demoEmail: env.DEMO_EMAIL ?? 'demo@example.com',
    demoPassword: env.DEMO_PASSWORD ?? 'Demo-Pass1!',
  };
}
