// Builds the API against a throw-away database (SQLite in a temp dir, or PostgreSQL in a fresh
// schema) with a fake mailer that records every mail, so tests drive it with app.inject() and
// read login codes from the recorded mail.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { SelectQueryNode, TableNode, type KyselyPlugin, type PluginTransformQueryArgs, type PluginTransformResultArgs, type QueryId, type QueryResult, type RootOperationNode, type UnknownRow } from 'kysely';
import { beforeAll, beforeEach, expect } from 'vitest';
import { build, type BuildOptions } from '../../src/server/app';
import { migrate, openDb, type Db } from '../../src/server/db/connect';
import type { NewUser } from '../../src/server/db/types';
import type { AppConfig } from '../../src/server/context';
import type { MailLinks, Mailer, MailTemplate } from '../../src/server/mail/mailer';
import { loadConfig, mailLinksOf } from '../../src/server/config';
import type { ErrorCode } from '../../src/server/errors';
import { createMember } from '../../src/server/seed';
import messages from '../../messages/ja.json';
import { DEFAULT_LIMITS } from '../../src/server/limits/rate-limits';
import { canonicalEmail } from '../../src/shared/canonical-email';
import { masterFile, seedMasters } from '../../src/server/masters';
import { createAjv } from '../../src/shared/validation/ajv-setup';
import { toFieldErrors } from '../../src/shared/validation/field-errors';
import { loadMasterLists, SCHEMAS_DIR } from '../../src/shared/validation/schema-files';
import type { JsonObject } from '../../src/shared/validation/schema-bundle';
import { asLeft, FormSamples } from './schema-samples';
import { registrationWire, type RegistrationPayload as WireRegistration } from '../../src/shared/wire/registration';
import { profileUpdateWire, type ProfileUpdate } from '../../src/shared/wire/profile-update';
import { schemaSet } from './schema-messages';

export const CLIENT_KEY = 'test-client-key-4f7a1c2e9b';
export const SECRET = 'test-secret-0c3d5e7f9a1b3c5d7e9f';
export const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const TRUSTED_COOKIE = 'ms_trusted_device';

/** The slow-down after wrong passwords at a millisecond, and combined notices sent at once: for
 *  suites that build their own limits from DEFAULT_LIMITS (the slow-down and the combining have
 *  tests of their own with the real numbers). */
export const QUICK_LIMITS = { slowStepMs: 1, slowMaxMs: 2, attemptNoticeDelaySeconds: 0 } as const;

export const testConfig: AppConfig = {
  sessionSeconds: 3600,
  sessionMaxSeconds: 43200,
  codeTtlSeconds: 600,
  codeMaxAttempts: 5,
  codesPerHour: 10,
  trustedDeviceDays: 90,
  verifiedEmailSeconds: 3600,
  parentOrigins: ['http://localhost:8080'],
  siteTopUrl: 'http://localhost:8080/',
  monitorUrl: 'http://localhost:8080/monitor',
  surveyUrl: 'http://localhost:8080/survey',
  mailDomain: 'nichiiki.example.jp',
  publicUrl: 'http://localhost:3000',
  registrationLinkSeconds: 86400,
  // Suites send thousands of requests from one address; the per-IP and per-network limits have
  // their own tests (tests/api/rate-limits.test.ts, tests/abuse/).
  limits: {
    ...DEFAULT_LIMITS,
    ipRequests: 1_000_000,
    mailsPerNetworkHour: 1_000_000,
    earliestLoginPerNetworkHour: 1_000_000,
    ...QUICK_LIMITS,
  },
};

/** What the mails link to and name with the default configuration (no SUPPORT_* set). */
export const testMailLinks: MailLinks = mailLinksOf(loadConfig({}));

/** The Japanese text each error code must answer with: the catalogue's (messages/ja.json "api"),
 *  so a reworded message keeps the tests that check it green. */
export const API_MESSAGES: Partial<Record<ErrorCode, string>> = messages.api;

// ---------------------------------------------------------------------------------------------
// Mail

export interface SentMail {
  to: string;
  template: MailTemplate;
  values: Record<string, string | number>;
}

export class FakeMailer implements Mailer {
  readonly sent: SentMail[] = [];
  /** When set, send() throws (the SMTP relay is down). */
  failing = false;

  async send(to: string, template: MailTemplate, values: Record<string, string | number> = {}): Promise<void> {
    if (this.failing) throw new Error('SMTP relay unavailable (fake)');
    this.sent.push({ to, template, values });
  }

  async touch(): Promise<void> {
    if (this.failing) throw new Error('SMTP relay unavailable (fake)');
  }

  /** Mail to `address` in any spelling (the server writes addresses in canonical form). */
  to(address: string): SentMail[] {
    return this.sent.filter((m) => canonicalEmail(m.to) === canonicalEmail(address));
  }

  /** The code in the latest mail to `address`. */
  lastCode(address: string): string {
    const mail = this.to(address).at(-1);
    if (!mail) throw new Error(`No mail was sent to ${address}`);
    return String(mail.values.code);
  }

  clear(): void {
    this.sent.length = 0;
  }
}

// ---------------------------------------------------------------------------------------------
// Databases

export type DbKind = 'sqlite' | 'postgres';

/** What every API suite runs over: `describe.each(DATABASES)('$name', ({ kind }) => …)`. */
export const DATABASES: { name: string; kind: DbKind }[] = [
  { name: 'SQLite', kind: 'sqlite' },
  { name: 'PostgreSQL', kind: 'postgres' },
];

export interface TestDb {
  db: Db;
  kind: DbKind;
  close(): Promise<void>;
}

async function pgAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 5000 });
  await client.connect(); // unreachable PostgreSQL fails the suite: it must never be skipped
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Runs `work` holding the advisory lock between the test schemas' migrations (shared: they run
 *  side by side) and their drops (exclusive). */
async function holdingSchemasLock<T>(client: pg.Client, mode: 'shared' | 'exclusive', work: () => Promise<T>): Promise<T> {
  const [lock, unlock] = mode === 'shared' ? ['pg_advisory_lock_shared', 'pg_advisory_unlock_shared'] : ['pg_advisory_lock', 'pg_advisory_unlock'];
  const call = (fn: string) => client.query(`SELECT ${fn}(hashtext('member-site-tests:schemas'))`);
  await call(lock);
  try {
    return await work();
  } finally {
    await call(unlock);
  }
}

/** A migrated, empty database: SQLite in a fresh temp dir, or a fresh PostgreSQL schema. */
export async function openTestDb(kind: DbKind, { applicationName }: { applicationName?: string } = {}): Promise<TestDb> {
  const dataDir = await mkdtemp(join(tmpdir(), 'member-site-api-'));
  if (kind === 'sqlite') {
    const db = openDb({ dataDir });
    try {
      await migrate(db);
    } catch (error) {
      await db.destroy();
      await rm(dataDir, { recursive: true, force: true });
      throw error;
    }
    return {
      db,
      kind,
      async close() {
        await db.destroy();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  }

  // A fresh schema, migrated. Kysely's migrator looks for its tables through the catalogue of every
  // schema (has_schema_privilege and pg_get_serial_sequence on each), which fails with "schema t_…
  // does not exist" when another worker drops its schema during that scan (seen in CI three times,
  // once on both tries of a retry): a migration holds the schemas lock shared and a drop holds it
  // exclusively.
  const pgSchema = `t_${randomBytes(6).toString('hex')}`;
  const dropSchema = () => pgAdmin((c) => holdingSchemasLock(c, 'exclusive', () => c.query(`DROP SCHEMA IF EXISTS "${pgSchema}" CASCADE`)));
  let db: Db;
  try {
    db = await pgAdmin(async (c) => {
      await c.query(`CREATE SCHEMA "${pgSchema}"`);
      const opened = openDb({ databaseUrl: PG_URL, dataDir, pgSchema, applicationName, onPoolError: () => {} });
      try {
        await holdingSchemasLock(c, 'shared', () => migrate(opened));
        return opened;
      } catch (error) {
        await opened.destroy();
        throw error;
      }
    });
  } catch (error) {
    await dropSchema();
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    db,
    kind,
    async close() {
      try {
        await db.destroy();
      } finally {
        await dropSchema();
        await rm(dataDir, { recursive: true, force: true });
      }
    },
  };
}

/** beforeAll for a block's setup, except that a failure (PostgreSQL unreachable, a migration
 *  that fails) fails every test of the block: vitest would otherwise report them as skipped. */
export function setUpOrFail(setup: () => Promise<void>, timeoutMs?: number): void {
  let failed = false;
  let failure: unknown;
  beforeAll(async () => {
    try {
      await setup();
    } catch (error) {
      failed = true;
      failure = error;
    }
  }, timeoutMs);
  beforeEach(() => {
    if (failed) throw failure;
  });
}

// ---------------------------------------------------------------------------------------------
// Registration and profile payloads

/** The body of POST /v1/user/register (the registration form's fields as they travel). */
export type RegistrationPayload = WireRegistration;
/** The body of PUT /v1/user/info (the edit form's fields as they travel). */
export type ProfileUpdatePayload = ProfileUpdate;

/** `n` characters of plain Japanese prose (no URL, tag or emoji), for length boundaries. */
export function japaneseText(n: number): string {
  const prose = '週末は地方の農家で手伝いをしながら、平日は都内で働く二地域での暮らしを試してみたいと考えています。';
  return prose.repeat(Math.ceil(n / prose.length)).slice(0, n);
}

/** The valid form data a test's payload starts from: made from the form's schema in `dir`
 *  (tests/support/schema-samples.ts), taking the `preferred` values (a member's plausible data)
 *  wherever the field accepts them and its option list offers them. A field a product owner
 *  makes required, a condition that asks for a field, an option taken off a list: the payload
 *  follows the JSON by itself. */
const baselines = new Map<string, { data: Record<string, unknown>; schema: JsonObject }>();
const formSamples = new Map<string, FormSamples>();

function formBaseline(form: string, dir: string, preferred: Record<string, unknown>): { data: Record<string, unknown>; schema: JsonObject } {
  const key = `${dir}\u0000${form}\u0000${JSON.stringify(preferred)}`;
  const known = baselines.get(key);
  if (known) return { data: { ...known.data }, schema: known.schema };
  const { schema } = schemaSet(dir).forms[form];
  let samples = formSamples.get(`${dir}\u0000${form}`);
  if (!samples) {
    const validate = createAjv().compile(schema);
    const judge = (data: Record<string, unknown>) => (validate(asLeft(schema, data)) ? {} : toFieldErrors(validate.errors ?? [], ''));
    samples = new FormSamples(schema, loadMasterLists(dir), judge);
    const problems = samples.problems(form);
    if (problems.length) throw new Error(problems.join('\n'));
    formSamples.set(`${dir}\u0000${form}`, samples);
  }
  const made = { data: samples.valid(preferred), schema };
  baselines.set(key, made);
  return { data: { ...made.data }, schema };
}

/** `base` with `overrides` (an override of `undefined` leaves the field out). */
function overridden<T>(base: Record<string, unknown>, overrides: Record<string, unknown>): T {
  const merged: Record<string, unknown> = { ...base, ...overrides };
  for (const key of Object.keys(overrides)) if (overrides[key] === undefined) delete merged[key];
  return merged as T;
}

/** A complete registration that the server accepts, for `email` verified with `code`;
 *  `overrides` replace fields (an override of `undefined` leaves the field out). */
export function validRegistration(email: string, code: string, overrides: Record<string, unknown> = {}, dir = SCHEMAS_DIR): RegistrationPayload {
  const { data, schema } = formBaseline('register-profile', dir, {
    password: 'Sora-Umi-2025!',
    password_confirm: 'Sora-Umi-2025!',
    last_name_kanji: '山田',
    first_name_kanji: '太郎',
    last_name_alphabet: 'Yamada',
    first_name_alphabet: 'Taro',
    birthday: '1988-07-15',
    gender: 'male',
    job: '1',
    industry: '8',
    zip_current: '100-0001',
    address_current: '東京都千代田区千代田1-1',
    phone: '090-1234-5678',
    mail_opt: '1',
    purpose: ['1', '3'],
    purpose_detail: japaneseText(40),
    condition_checked: true,
  });
  return overridden(registrationWire.toWire!(data, { email, verification_code: code }, schema), overrides);
}

/** A complete profile update that the server accepts, carrying `email` and `birthday` (which the
 *  server must not change); `overrides` replace fields (an override of `undefined` leaves the
 *  field out). Made from the edit form's schema in `dir` as validRegistration is. */
export function validProfileUpdate(email: string, birthday: string, overrides: Record<string, unknown> = {}, dir = SCHEMAS_DIR): ProfileUpdatePayload {
  const { data, schema } = formBaseline('edit-profile', dir, {
    last_name_kanji: '鈴木',
    first_name_kanji: '一郎',
    last_name_alpha: 'Suzuki',
    first_name_alpha: 'Ichiro',
    birthday,
    gender: 'other',
    job: '6',
    industry: '7',
    zip_current: '060-0001',
    address_current: '北海道札幌市中央区北一条西1丁目',
    amc: '1234567890',
    phone: '011-123-4567',
    purpose: ['2', '5'],
    purpose_detail: japaneseText(60),
    mail_opt: '0',
  });
  return overridden(profileUpdateWire.toWire!({ ...data, birthday }, { email }, schema), overrides);
}

/** The body of POST /v1/contact (schemas/api/contact.json); purpose_detail is the inquiry text. */
export interface ContactPayload {
  last_name_kanji: string;
  first_name_kanji: string;
  email: string;
  inquiry_user_type: string;
  inquiry_type: string;
  job: string;
  purpose_detail: string;
  privacy_checked: boolean;
  agree_privacy: boolean;
}

/** A complete inquiry that the server accepts, sent from `email`; `overrides` replace fields (an
 *  override of `undefined` leaves the field out). */
export function validContact(email: string, overrides: Record<string, unknown> = {}): ContactPayload {
  const base: ContactPayload = {
    last_name_kanji: '佐藤',
    first_name_kanji: '次郎',
    email,
    inquiry_user_type: '2',
    inquiry_type: '1',
    job: '1',
    purpose_detail: japaneseText(60),
    privacy_checked: true,
    agree_privacy: true,
  };
  return overridden(base as unknown as Record<string, unknown>, overrides);
}

/** The identity of POST /v1/user/verify {flow: 'password_change'}: birthday YYYY-MM-DD, phone digits. */
export interface ResetIdentity {
  email: string;
  birthday: string;
  phone: string;
}

// ---------------------------------------------------------------------------------------------
// The app

export interface Member {
  id: string;
  email: string;
  password: string;
}

export interface LoginInput {
  email: string;
  password: string;
  code?: string;
  /** The trusted-device cookie value to send. */
  device?: string;
  /** Headers to add (e.g. another client's `x-code-flow`, or undefined for none). */
  headers?: Record<string, string | undefined>;
}

export class Harness {
  private constructor(
    readonly app: FastifyInstance,
    readonly db: Db,
    readonly kind: DbKind,
    readonly mailer: FakeMailer,
    private readonly testDb: TestDb,
    /** The schemas folder the API runs on (an edited copy, or schemas/). */
    readonly schemasDir: string = SCHEMAS_DIR,
  ) {}

  /** `plugins` are applied to the app's view of the database only; `harness.db` stays plain. */
  /** `schemasDir`: run the API on another schemas folder (an edited copy), its option lists too. */
  static async start(
    kind: DbKind,
    {
      config = {},
      plugins = [],
      applicationName,
      extra = {},
      schemasDir,
    }: { config?: Partial<AppConfig>; plugins?: KyselyPlugin[]; applicationName?: string; extra?: Pick<BuildOptions, 'redis' | 'limitPrefix' | 'municipalities' | 'requestTimeoutMs'>; schemasDir?: string } = {},
  ): Promise<Harness> {
    const testDb = await openTestDb(kind, { applicationName });
    const mailer = new FakeMailer();
    try {
      if (schemasDir) await seedMasters(testDb.db, masterFile(schemasDir));
      const appDb = plugins.reduce<Db>((db, plugin) => db.withPlugin(plugin), testDb.db);
      const app = await build({ db: appDb, mailer, clientKey: CLIENT_KEY, secret: SECRET, config: { ...testConfig, ...config }, schemasDir, ...extra });
      await app.ready();
      return new Harness(app, testDb.db, kind, mailer, testDb, schemasDir);
    } catch (error) {
      await testDb.close();
      throw error;
    }
  }

  async close(): Promise<void> {
    await this.app.close();
    await this.testDb.close();
  }

  private counter = 0;

  /** The code flow this harness carries, as a browser tab does (X-Code-Flow: the server names it
   *  when it mails a code, the client sends it back). Tests acting as another client pass their
   *  own `x-code-flow` header (or undefined for none), or set this. */
  flow: string | undefined;

  /** app.inject with the harness's code flow (unless the request names its own) and keeping the
   *  flow an answer names. */
  async inject(options: { method: 'GET' | 'PUT' | 'POST'; url: string; headers?: Record<string, string | undefined>; payload?: string; cookies?: Record<string, string>; remoteAddress?: string }) {
    const given = options.headers ?? {};
    const headers = dropUndefined('x-code-flow' in given ? given : { ...given, 'x-code-flow': this.flow });
    const res = await this.app.inject({ ...options, headers });
    const named = res.headers['x-code-flow'];
    if (typeof named === 'string' && !('x-code-flow' in given)) this.flow = named;
    return res;
  }

  /** A fresh, unique address (per harness) for a test that needs its own member. */
  uniqueEmail(label = 'member'): string {
    this.counter += 1;
    return `${label}-${this.counter}-${randomBytes(3).toString('hex')}@example.com`;
  }

  async createMember(email = this.uniqueEmail(), password = 'Correct-Horse-9!', profile: Partial<NewUser> = {}): Promise<Member> {
    const id = await createMember(this.db, email, password, profile);
    return { id, email, password };
  }

  /** POST `raw` as the body, with the client key and JSON content type unless `headers` overrides them
   *  (a header given as undefined is left out). */
  postRaw(url: string, raw: string | undefined, headers: Record<string, string | undefined> = {}) {
    const all = { 'x-client-key': CLIENT_KEY, ...(raw === undefined ? {} : { 'content-type': 'application/json' }), ...headers };
    return this.inject({ method: 'POST', url, headers: all, ...(raw === undefined ? {} : { payload: raw }) });
  }

  /** POST `value` as JSON (any JSON value: object, array, string, null …). */
  post(url: string, value: unknown, headers: Record<string, string | undefined> = {}) {
    return this.postRaw(url, JSON.stringify(value), headers);
  }

  verify(email: string, password: string) {
    return this.post('/v1/user/verify', { email, password });
  }

  login({ email, password, code, device, headers = {} }: LoginInput) {
    return this.inject({
      method: 'POST',
      url: '/v1/user/login',
      headers: { 'content-type': 'application/json', 'x-client-key': CLIENT_KEY, ...headers },
      payload: JSON.stringify({ email, password, ...(code === undefined ? {} : { code }) }),
      ...(device === undefined ? {} : { cookies: { [TRUSTED_COOKIE]: device } }),
    });
  }

  /** verify → read the mailed code. */
  async requestCode(member: Pick<Member, 'email' | 'password'>): Promise<string> {
    const before = this.mailer.to(member.email).length;
    const res = await this.verify(member.email, member.password);
    expect(res.statusCode, res.body).toBe(200);
    const mails = this.mailer.to(member.email);
    expect(mails).toHaveLength(before + 1);
    return this.mailer.lastCode(member.email);
  }

  /** The full coded login: the session token and the trusted-device cookie value. */
  async loginWithCode(member: Member): Promise<{ token: string; device: string }> {
    const code = await this.requestCode(member);
    const res = await this.login({ email: member.email, password: member.password, code });
    expect(res.statusCode, res.body).toBe(200);
    const device = res.cookies.find((c) => c.name === TRUSTED_COOKIE)?.value;
    if (!device) throw new Error('No trusted-device cookie was set');
    return { token: res.json<{ token: string }>().token, device };
  }

  /** POST /v1/email/register: mail a registration code to `email`. */
  sendRegistrationCode(email: string) {
    return this.post('/v1/email/register', { email });
  }

  /** POST /v1/email/verify with the mailed `key`. */
  verifyEmail(email: string, key: string) {
    return this.post('/v1/email/verify', { key, email });
  }

  /** STEP1 done: a fresh address (or `email`) with a registration code sent and verified. */
  async verifiedEmail(email = this.uniqueEmail('register')): Promise<{ email: string; code: string }> {
    const sent = await this.sendRegistrationCode(email);
    expect(sent.statusCode, sent.body).toBe(200);
    const code = this.mailer.lastCode(email);
    const verified = await this.verifyEmail(email, code);
    expect(verified.statusCode, verified.body).toBe(200);
    return { email, code };
  }

  /** POST /v1/user/register. */
  register(payload: unknown) {
    return this.post('/v1/user/register', payload);
  }

  /** Rows in `table` (users, applications, …). */
  async count(table: 'users' | 'applications' | 'sessions' | 'email_verifications' | 'email_codes' | 'inquiries' | 'failed_attempts'): Promise<number> {
    const row = await this.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  info(token?: string) {
    return this.app.inject({ method: 'GET', url: '/v1/user/info', headers: token === undefined ? {} : { authorization: `Bearer ${token}` } });
  }

  logout(token: string) {
    return this.app.inject({ method: 'POST', url: '/v1/user/logout', headers: { authorization: `Bearer ${token}` } });
  }

  /** A call as the member holding `token` (no Authorization header when it is undefined), with
   *  `body` as JSON; `headers` are added (a header given as undefined is left out). */
  asMember(method: 'GET' | 'PUT' | 'POST', url: string, token: string | undefined, body?: unknown, headers: Record<string, string | undefined> = {}) {
    const all = {
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    };
    return this.inject({ method, url, headers: all, ...(body === undefined ? {} : { payload: JSON.stringify(body) }) });
  }

  /** GET /v1/user/application. */
  applications(token?: string) {
    return this.asMember('GET', '/v1/user/application', token);
  }

  /** GET /v1/user/notification. */
  notifications(token?: string) {
    return this.asMember('GET', '/v1/user/notification', token);
  }

  /** PUT /v1/user/info. */
  updateInfo(token: string | undefined, payload: unknown) {
    return this.asMember('PUT', '/v1/user/info', token, payload);
  }

  /** POST /v1/user/verify {flow: 'email_change', email}: mail a code to the new address. */
  requestEmailChange(token: string | undefined, email: string, headers: Record<string, string | undefined> = {}) {
    return this.asMember('POST', '/v1/user/verify', token, { flow: 'email_change', email }, headers);
  }

  /** POST /v1/user/email/change {flow: 'email_change', email, code}. */
  confirmEmailChange(token: string | undefined, email: string, code: string) {
    return this.asMember('POST', '/v1/user/email/change', token, { flow: 'email_change', email, code });
  }

  /** POST /v1/user/withdraw. */
  withdraw(token: string | undefined, body: unknown) {
    return this.asMember('POST', '/v1/user/withdraw', token, body);
  }

  /** POST /v1/contact with `body`: as the member holding `token`, or (token undefined) as a
   *  visitor with the client key; `headers` are added (a header given as undefined is left out). */
  contact(token: string | undefined, body: unknown, headers: Record<string, string | undefined> = {}) {
    return this.asMember('POST', '/v1/contact', token, body, token === undefined ? { 'x-client-key': CLIENT_KEY, ...headers } : headers);
  }

  /** GET /v1/user/contact/list with `query` (page, size, status). */
  contactList(token: string | undefined, query: Record<string, string | number> = {}) {
    const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
    return this.asMember('GET', `/v1/user/contact/list${search ? `?${search}` : ''}`, token);
  }

  /** GET /v1/user/contact/:id: one inquiry in full. */
  contactDetail(token: string | undefined, id: string) {
    return this.asMember('GET', `/v1/user/contact/${encodeURIComponent(id)}`, token);
  }

  /** POST /v1/user/verify {flow: 'password_change', email, birthday, phone} with the client key. */
  requestPasswordReset(identity: ResetIdentity, headers: Record<string, string | undefined> = {}) {
    return this.post('/v1/user/verify', { flow: 'password_change', ...identity }, headers);
  }

  /** POST /v1/user/set-password {email, code, new_password} with the client key. */
  setPassword(email: string, code: string, newPassword: string, headers: Record<string, string | undefined> = {}) {
    return this.post('/v1/user/set-password', { email, code, new_password: newPassword }, headers);
  }

  /** The identity check passes for `identity` → the password-reset code mailed to its address. */
  async requestResetCode(identity: ResetIdentity, headers: Record<string, string | undefined> = {}): Promise<string> {
    const before = this.mailer.to(identity.email).length;
    const res = await this.requestPasswordReset(identity, headers);
    expect(res.statusCode, res.body).toBe(200);
    const mails = this.mailer.to(identity.email);
    expect(mails).toHaveLength(before + 1);
    expect(mails.at(-1)?.template).toBe('passwordResetCode');
    return this.mailer.lastCode(identity.email);
  }

  /** The real registration (STEP1 code, verify, register) of a fresh address (or `email`): the
   *  member, the session token the registration answered with, and the mailed application number. */
  async registerMember(email = this.uniqueEmail('register'), overrides: Record<string, unknown> = {}): Promise<Member & { token: string; registerNumber: string }> {
    const verified = await this.verifiedEmail(email);
    const payload = validRegistration(verified.email, verified.code, overrides, this.schemasDir);
    const res = await this.register(payload);
    expect(res.statusCode, res.body).toBe(200);
    const user = await this.db.selectFrom('users').select('id').where('email', '=', email).where('status', '=', 'active').executeTakeFirstOrThrow();
    const welcome = this.mailer.to(email).filter((m) => m.template === 'welcome').at(-1);
    if (!welcome) throw new Error(`No welcome mail was sent to ${email}`);
    return { id: user.id, email, password: String(payload.password), token: res.json<{ token: string }>().token, registerNumber: String(welcome.values.registerNumber) };
  }
}

function dropUndefined(headers: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter((e): e is [string, string] => e[1] !== undefined));
}

/** A database under load: every SELECT from `table` answers `ms` later than it would. Lets a test
 *  make concurrent requests overlap deterministically (read-then-write races). */
export class SlowReads implements KyselyPlugin {
  private readonly slow = new WeakSet<QueryId>();

  constructor(
    private readonly table: string,
    private readonly ms: number,
  ) {}

  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    if (SelectQueryNode.is(node) && node.from?.froms.some((f) => TableNode.is(f) && f.table.identifier.name === this.table)) {
      this.slow.add(queryId);
    }
    return node;
  }

  async transformResult({ result, queryId }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (this.slow.has(queryId)) await new Promise((resolve) => setTimeout(resolve, this.ms));
    return result;
  }
}

// ---------------------------------------------------------------------------------------------
// Assertions

export interface ErrorBody {
  error: string;
  code: string;
  fields?: Record<string, string[]>;
}

/** Every human-readable message in an answer: `error` and each field message. */
export function messagesOf(body: ErrorBody): string[] {
  return [body.error, ...Object.values(body.fields ?? {}).flat()];
}

/** Latin words the Japanese messages use on purpose ("STEP1からやり直してください", "URL、絵文字、HTMLタグ"). */
const JAPANESE_LOANWORDS = /URL|HTML|STEP(?=[0-9])/g;

/** No Latin letters (ajv's English "must be …", Fastify's "Body cannot be empty …"), apart from
 *  the few Latin words of JAPANESE_LOANWORDS. */
export function expectJapaneseOnly(body: ErrorBody): void {
  for (const message of messagesOf(body)) {
    expect(typeof message, JSON.stringify(body)).toBe('string');
    expect(message.replace(JAPANESE_LOANWORDS, ''), JSON.stringify(body)).not.toMatch(/[A-Za-z]/);
  }
}

/** The answer is the API error `code` with its status and exact Japanese message. */
export function expectError(res: LightMyRequestResponse, status: number, code: ErrorCode, fields?: Record<string, string[]>): ErrorBody {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.json<ErrorBody>();
  expect(body.code).toBe(code);
  expect(body.error).toBe(API_MESSAGES[code]);
  if (fields) expect(body.fields).toEqual(fields);
  expectJapaneseOnly(body);
  return body;
}
