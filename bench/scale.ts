// Flat cost as data grows (docs/decisions/026): the production server (src/server/main.ts) on a
// database seeded with 100,000 members and 100,000 inquiries of one member, on SQLite and on
// PostgreSQL (a database of its own, created and dropped here). Medians of several requests:
// login, info, the inquiry history at page 1 / 500 / 5000 of two tabs, the operator tool's list
// deep down; then the event loop's delay (measured inside the server, bench/loop-delay-probe.ts)
// and GET /v1/master/options while five clients page deep into the history.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { migrate, openDb, type Db } from '../src/server/db/connect';
import type { InquiryStatus } from '../src/server/db/types';
import type { Mailer } from '../src/server/mail/mailer';
import { runOperator } from '../src/server/operator/run';
import { reindexMembers } from '../src/server/member-search-keys';
import { createSessions } from '../src/server/services/sessions';
import { hashPassword } from '../src/server/services/passwords';
import { DEMO, ROOT, freePort, waitFor } from './stack';

export const MEMBERS = Number(process.env.SCALE_MEMBERS ?? 100_000);
export const INQUIRIES = Number(process.env.SCALE_INQUIRIES ?? 100_000);
/** Requests per figure; the median is shown. */
const RUNS = Number(process.env.SCALE_RUNS ?? 9);
const WINDOW_S = Number(process.env.BENCH_SECONDS ?? 8);
const PAGERS = 5;
const SIZE = 20;
const BATCH = 500;
const PG_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const CLIENT_KEY = 'scale-bench-client-key';

/** Of every 20 inquiries: 12 open, 5 answered, 3 closed (so the open tab has 3/5 of them). */
const statusOf = (i: number): InquiryStatus => (i % 20 < 12 ? 'open' : i % 20 < 17 ? 'answered' : 'closed');
const OPEN = Math.floor(INQUIRIES / 20) * 12 + Math.min(INQUIRIES % 20, 12);

/** The event loop's delay in a window, and how long SQLite statements held it (none on PostgreSQL). */
export interface LoopDelay {
  p50: number;
  p99: number;
  max: number;
  statements: number;
  statementP50: number;
  statementP99: number;
  statementMax: number;
  /** The largest resident set of the server in the window (bytes). */
  rssMax: number;
  /** The window's slowest statements, [milliseconds, SQL]. */
  slowest: Array<[number, string]>;
}

export interface ScaleFigures {
  /** How much of the time something waited for a CPU on this machine (Linux PSI, last minute), at the end. */
  cpuPressure: string;
  seedSeconds: number;
  loginMs: number;
  infoMs: number;
  history: Array<{ label: string; ms: number }>;
  operatorFirstMs: number;
  operatorDeepMs: number;
  idleOptions: { p50: number; p99: number; loop: LoopDelay };
  loaded: { p50: number; p99: number; loop: LoopDelay; pagesPerSecond: number };
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
export const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))]!;

export async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/** The median of RUNS timings after one unmeasured warm-up. */
async function medianOf(work: () => Promise<unknown>): Promise<number> {
  await work();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) times.push(await timed(work));
  return median(times);
}

// A fixed seed: every run pages the same way.
export function random(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const profile = JSON.parse(readFileSync(join(ROOT, 'src/server/demo-profile.json'), 'utf8')) as Record<string, string>;
const PROSE = '週末は地方の農家で手伝いをしながら、平日は都内で働く二地域での暮らしを試してみたいと考えています。';

/** The bench member (DEMO) and MEMBERS - 1 others, then INQUIRIES inquiries of the bench member,
 *  a minute apart with every fourth at the same time as the one before; multi-row inserts in
 *  one transaction each. */
async function seed(db: Db): Promise<string> {
  const at = new Date('2025-04-01T00:00:00.000Z').getTime();
  const memberId = randomUUID();
  const sharedHash = await hashPassword(DEMO.password);
  await db.transaction().execute(async (tx) => {
    for (let done = 0; done < MEMBERS; done += BATCH) {
      const rows = Array.from({ length: Math.min(BATCH, MEMBERS - done) }, (_, k) => {
        const i = done + k;
        const created = new Date(at - i * 60_000).toISOString();
        return { ...profile, id: i === 0 ? memberId : randomUUID(), email: i === 0 ? DEMO.email : `scale-${i}@example.com`, status: 'active' as const, password_hash: sharedHash, created_at: created, updated_at: created, withdrawn_at: null };
      });
      await tx.insertInto('users').values(rows).execute();
    }
  });
  await db.transaction().execute(async (tx) => {
    for (let done = 0; done < INQUIRIES; done += BATCH) {
      const rows = Array.from({ length: Math.min(BATCH, INQUIRIES - done) }, (_, k) => {
        const i = done + k;
        const created = new Date(at - (i - Math.floor(i / 4)) * 60_000).toISOString();
        return {
          id: randomUUID(), ticket_no: `QS-${String(i).padStart(6, '0')}`, user_id: memberId, last_name_kanji: profile.last_name_kanji!, first_name_kanji: profile.first_name_kanji!,
          email: DEMO.email, inquiry_user_type: '1', inquiry_type: String((i % 8) + 1), job: '1', content: PROSE.repeat(3).slice(0, 40 + (i % 100)),
          status: statusOf(i), answer: statusOf(i) === 'open' ? null : '回答', created_at: created, updated_at: created,
        };
      });
      await tx.insertInto('inquiries').values(rows).execute();
    }
  });
  return memberId;
}

/** "some avg60" of /proc/pressure/cpu: the share of the last minute in which a task waited for a CPU. */
export function cpuPressure(): string {
  try {
    return `${/some avg10=[\d.]+ avg60=([\d.]+)/.exec(readFileSync('/proc/pressure/cpu', 'utf8'))?.[1] ?? '?'}%`;
  } catch {
    return '?';
  }
}

export interface Database {
  name: string;
  env: NodeJS.ProcessEnv;
  open(): Db;
  drop(): Promise<void>;
}

export async function sqliteDatabase(): Promise<Database> {
  const dataDir = mkdtempSync(join(tmpdir(), 'member-site-scale-'));
  return { name: 'SQLite', env: { DATA_DIR: dataDir }, open: () => openDb({ dataDir }), drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
}

export async function postgresDatabase(): Promise<Database> {
  const name = `member_site_scale_${process.pid}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'member-site-scale-pg-'));
  return {
    name: 'PostgreSQL',
    env: { DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    open: () => openDb({ databaseUrl: url.toString(), dataDir }),
    async drop() {
      rmSync(dataDir, { recursive: true, force: true });
      await admin(`drop database if exists ${name} with (force)`);
    },
  };
}

export interface Server {
  url: string;
  ask(message: string): Promise<LoopDelay>;
  stop(): Promise<void>;
}

export async function startServer(env: NodeJS.ProcessEnv, stdout: 'ignore' | 'inherit' = 'ignore'): Promise<Server> {
  const [port, parent, smtp, web] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const child: ChildProcess = spawn(process.execPath, [...(process.env.BENCH_SERVER_FLAGS?.split(' ').filter(Boolean) ?? []), '--import', 'tsx', '--import', './bench/loop-delay-probe.ts', 'src/server/main.ts'], {
    cwd: ROOT,
    stdio: ['ignore', stdout, 'inherit', 'ipc'],
    env: { ...process.env, ...env, NODE_ENV: 'production', PORT: String(port), PARENT_SITE_PORT: String(parent), MAIL_CATCHER_SMTP_PORT: String(smtp), MAIL_CATCHER_WEB_PORT: String(web), CLIENT_KEY, APP_SECRET: 'scale-bench-secret-0123456789abcdef', SEED_DEMO: 'false' },
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/healthz`, 120_000);
  return {
    url,
    ask: (message) =>
      new Promise((resolve) => {
        child.once('message', (answer) => resolve(answer as LoopDelay));
        child.send(message);
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

async function get(url: string, headers: Record<string, string>, expectItems?: number) {
  const res = await fetch(url, { headers });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status} ${await res.text()}`);
  const body = (await res.json()) as unknown;
  if (expectItems !== undefined && (!Array.isArray(body) || body.length !== expectItems)) throw new Error(`${url}: ${JSON.stringify(body).slice(0, 200)}`);
  return body;
}

async function measure(database: Database): Promise<ScaleFigures> {
  const db = database.open();
  let server: Server | undefined;
  try {
    const started = performance.now();
    await migrate(db);
    const memberId = await seed(db);
    // The members were written by SQL: their search keys are built here, as `npm run operator --
    // reindex` does, so the server's start-up check finds none missing and adds no load to the
    // figures (ADR 032).
    await reindexMembers(db);
    if (database.env.DATABASE_URL) await sql`vacuum analyze`.execute(db);
    const seedSeconds = (performance.now() - started) / 1000;

    const sessions = createSessions(db, { sessionSeconds: 3600, sessionMaxSeconds: 43200, trustedDeviceDays: 90 });
    const tokens = await Promise.all(Array.from({ length: PAGERS + 1 }, async () => (await sessions.open(memberId)).token));
    const device = (await sessions.trustDevice(memberId)).token;
    const deepTicket = (await db.selectFrom('inquiries').select('ticket_no').orderBy('created_at', 'desc').orderBy('ticket_no', 'desc').offset(INQUIRIES - 1000).limit(1).executeTakeFirstOrThrow()).ticket_no;

    server = await startServer(database.env);
    const member = (token: string) => ({ authorization: `Bearer ${token}` });
    const history = (token: string, status: string, page: number, items = SIZE) =>
      get(`${server!.url}/v1/user/contact/list?status=${status}&page=${page}&size=${SIZE}`, member(token), items);
    const lastAll = Math.ceil(INQUIRIES / SIZE);
    const lastOpen = Math.ceil(OPEN / SIZE);
    const lastItems = (count: number) => count - (Math.ceil(count / SIZE) - 1) * SIZE;

    // First reads of the deep pages after start (the server warmed up on page 1): their anchors
    // are found now, once per list version.
    for (const status of ['all', 'open']) await history(tokens[0]!, status, 1);
    await get(`${server.url}/v1/user/info`, member(tokens[0]!));
    const coldAll = await timed(() => history(tokens[0]!, 'all', lastAll, lastItems(INQUIRIES)));
    const coldOpen = await timed(() => history(tokens[0]!, 'open', lastOpen, lastItems(OPEN)));

    const login = () =>
      fetch(`${server!.url}/v1/user/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-client-key': CLIENT_KEY, cookie: `ms_trusted_device=${device}` },
        body: JSON.stringify({ email: DEMO.email, password: DEMO.password }),
      }).then(async (res) => {
        if (!res.ok) throw new Error(`login: HTTP ${res.status} ${await res.text()}`);
      });
    const loginMs = await medianOf(login);
    const infoMs = await medianOf(() => get(`${server!.url}/v1/user/info`, member(tokens[0]!)));
    const rows: ScaleFigures['history'] = [];
    for (const [status, pages, count] of [['all', [1, 500, lastAll], INQUIRIES], ['open', [1, 500, lastOpen], OPEN]] as const) {
      for (const page of new Set(pages.filter((p) => p <= Math.ceil(count / SIZE)))) {
        rows.push({ label: `${status}, page ${page}${page === Math.ceil(count / SIZE) ? ' (last)' : ''}`, ms: await medianOf(() => history(tokens[0]!, status, page, page * SIZE <= count ? SIZE : lastItems(count))) });
      }
    }
    rows.push({ label: `all, page ${lastAll}, first read after start`, ms: coldAll }, { label: `open, page ${lastOpen}, first read after start`, ms: coldOpen });

    // The operator tool, in this process as `npm run operator` runs it: the first page, and one
    // from the 99,000th inquiry (--after).
    const quiet = { out: () => {}, err: (line: string) => console.error(line) };
    const operator = (...argv: string[]) => runOperator(argv, quiet, async () => ({ db, mailer: {} as Mailer, close: async () => {} }));
    const operatorFirstMs = await medianOf(() => operator('inquiries', 'list', '--status', 'all'));
    const operatorDeepMs = await medianOf(() => operator('inquiries', 'list', '--status', 'all', '--after', deepTicket));

    // GET /v1/master/options alone, then while five clients page deep into every tab.
    const options = () => get(`${server!.url}/v1/master/options?master_name=industry`, { 'x-client-key': CLIENT_KEY });
    const idle: number[] = [];
    await options();
    await server.ask('loop-delay:reset');
    for (let i = 0; i < 200; i++) idle.push(await timed(options));
    const idleLoop = await server.ask('loop-delay:read');

    const next = random(22);
    const tabs = [['all', INQUIRIES], ['open', OPEN], ['answered', Math.floor(INQUIRIES / 4)], ['closed', Math.floor((INQUIRIES * 3) / 20)]] as const;
    let stop = false;
    let pagesRead = 0;
    const pager = async (token: string) => {
      while (!stop) {
        const [status, count] = tabs[Math.floor(next() * tabs.length)]!;
        await history(token, status, 1 + Math.floor(next() * Math.floor(count / SIZE)));
        pagesRead++;
      }
    };
    const loaded: number[] = [];
    const optionsLoop = async () => {
      while (!stop) loaded.push(await timed(options));
    };
    await server.ask('loop-delay:reset');
    const windowStarted = performance.now();
    const running = [...tokens.slice(1).map(pager), optionsLoop()];
    await new Promise((resolve) => setTimeout(resolve, WINDOW_S * 1000));
    stop = true;
    await Promise.all(running);
    const windowSeconds = (performance.now() - windowStarted) / 1000;
    const loop = await server.ask('loop-delay:read');

    return {
      cpuPressure: cpuPressure(),
      seedSeconds,
      loginMs,
      infoMs,
      history: rows,
      operatorFirstMs,
      operatorDeepMs,
      idleOptions: { p50: median(idle), p99: percentile(idle, 99), loop: idleLoop },
      loaded: { p50: median(loaded), p99: percentile(loaded, 99), loop, pagesPerSecond: pagesRead / windowSeconds },
    };
  } finally {
    await server?.stop();
    await db.destroy();
  }
}

/** Both databases, one after the other (each dropped when measured). */
export async function measureScale(): Promise<Array<{ database: string; figures: ScaleFigures }>> {
  const results = [];
  for (const make of [sqliteDatabase, postgresDatabase]) {
    const database = await make();
    try {
      console.log(`Scale: seeding ${MEMBERS} members and ${INQUIRIES} inquiries of one member on ${database.name} …`);
      results.push({ database: database.name, figures: await measure(database) });
    } finally {
      await database.drop();
    }
  }
  return results;
}
