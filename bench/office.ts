// The back office at the programme's size (issue 34 point 7): the production server on a database
// seeded with MEMBERS members (varied names, prefectures, statuses, one application each) and
// INQUIRIES inquiries spread over them, on SQLite and on PostgreSQL. For each back-office request:
// its time (median), the longest the server's event loop was held while it ran alone, and a
// member's GET /v1/user/info p99 while an operator repeats that request, beside the same member
// request's p99 with no operator (the anchor, measured in the same run); the CSV export's peak RSS.
// Measured inside the server by bench/loop-delay-probe.ts.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { migrate, type Db } from '../src/server/db/connect';
import { allMunicipalities } from '../src/server/denshijiti';
import { openOperatorSession } from '../src/server/admin/sessions';
import { ADMIN_COOKIE, DEFAULT_ADMIN_SETTINGS } from '../src/server/admin/settings';
import { runOperator } from '../src/server/operator/run';
import type { Mailer } from '../src/server/mail/mailer';
import { createSessions } from '../src/server/services/sessions';
import { hashPassword } from '../src/server/services/passwords';
import { iso, japanDay, now } from '../src/server/services/clock';
import { DEMO } from './stack';
import { cpuPressure, median, percentile, postgresDatabase, random, sqliteDatabase, startServer, timed, type Database, type LoopDelay, type Server } from './scale';

export const OFFICE_MEMBERS = Number(process.env.SCALE_MEMBERS ?? 100_000);
export const OFFICE_INQUIRIES = Number(process.env.SCALE_INQUIRIES ?? 100_000);
/** Seconds of member requests per window (alone, and beside each operator request). */
const WINDOW_S = Number(process.env.BENCH_SECONDS ?? 5);
/** Timings per request alone; the median is shown. */
const RUNS = Number(process.env.SCALE_RUNS ?? 5);
const BATCH = 500;

const FAMILY = ['佐藤', '鈴木', '高橋', '田中', '伊藤', '渡辺', '山本', 'ヤマモト', '中村', '小林', '加藤', '吉田', '山田', '佐々木', '松本', '井上', '木村', '林', '斎藤', '清水', '葛\u{E0100}城', '髙橋', '﨑山', '山﨑', '長谷川', '石川'];
const FAMILY_ALPHA = ['SATO', 'SUZUKI', 'TAKAHASHI', 'TANAKA', 'ITO', 'WATANABE', 'YAMAMOTO', 'YAMAMOTO', 'NAKAMURA', 'KOBAYASHI', 'KATO', 'YOSHIDA', 'YAMADA', 'SASAKI', 'MATSUMOTO', 'INOUE', 'KIMURA', 'HAYASHI', 'SAITO', 'SHIMIZU', 'KATSURAGI', 'TAKAHASHI', 'SAKIYAMA', 'YAMAZAKI', 'HASEGAWA', 'VAN DER BERG'];
const GIVEN = ['花子', '太郎', '一郎', '陽菜', '蓮', '結衣', '大翔', 'さくら', 'ハルト', '美咲'];
const GIVEN_ALPHA = ['HANAKO', 'TARO', 'ICHIRO', 'HINA', 'REN', 'YUI', 'HIROTO', 'SAKURA', 'HARUTO', 'MISAKI'];

export interface OfficeRow {
  label: string;
  /** Median time of the request alone (ms). */
  ms: number;
  /** The longest the server's event loop was held while the request ran alone (ms). */
  loopMax: number;
  /** A member's GET /v1/user/info p99 while an operator repeats the request (ms). */
  memberP99: number;
  /** The server's peak RSS while the request ran alone (MB). */
  rssMb: number;
}

export interface OfficeFigures {
  seedSeconds: number;
  cpuPressure: string;
  /** GET /v1/user/info alone, p50 / p99 (ms), and the loop meanwhile. */
  anchor: { p50: number; p99: number; loop: LoopDelay };
  rows: OfficeRow[];
}

interface Seeded {
  memberId: string;
  memberWithApplication: string;
  registerNumber: string;
}

/** MEMBERS members (the bench member first), one application each, INQUIRIES inquiries. */
export async function seedOffice(db: Db): Promise<Seeded> {
  const next = random(34);
  const places = allMunicipalities();
  const hash = await hashPassword(DEMO.password);
  const today = Date.now();
  const memberId = randomUUID();
  const ids: string[] = [];
  let registerNumber = '';
  await db.transaction().execute(async (tx) => {
    for (let done = 0; done < OFFICE_MEMBERS; done += BATCH) {
      const users = [];
      const applications = [];
      for (let k = 0; k < Math.min(BATCH, OFFICE_MEMBERS - done); k++) {
        const i = done + k;
        const id = i === 0 ? memberId : randomUUID();
        ids.push(id);
        // Spread over two years, the newest today; a few dozen registered today.
        const created = new Date(today - Math.floor((i * 2 * 365 * 86400_000) / OFFICE_MEMBERS) - Math.floor(next() * 60_000)).toISOString();
        const f = Math.floor(next() * FAMILY.length);
        const g = Math.floor(next() * GIVEN.length);
        const place = places[Math.floor(next() * places.length)]!;
        const year = 1950 + Math.floor(next() * 55);
        users.push({
          id,
          email: i === 0 ? DEMO.email : `office-${i}@example.com`,
          status: next() < 0.03 && i !== 0 ? ('withdrawn' as const) : ('active' as const),
          password_hash: hash,
          created_at: created,
          updated_at: created,
          withdrawn_at: null,
          last_name_kanji: FAMILY[f]!,
          first_name_kanji: GIVEN[g]!,
          last_name_alpha: FAMILY_ALPHA[f]!,
          first_name_alpha: GIVEN_ALPHA[g]!,
          birthday: `${year}-${String(1 + Math.floor(next() * 12)).padStart(2, '0')}-${String(1 + Math.floor(next() * 28)).padStart(2, '0')}`,
          gender: next() < 0.5 ? 'female' : 'male',
          job: String(1 + Math.floor(next() * 5)),
          industry: String(1 + Math.floor(next() * 10)),
          industry_other: '',
          zip_current: String(Math.floor(next() * 10_000_000)).padStart(7, '0'),
          address_current: `${place.prefecture}${place.label}1-${1 + (i % 40)}`,
          zip_second: '',
          address_second: '',
          amc: '',
          phone: `090${String(i).padStart(8, '0')}`,
          purpose: next() < 0.5 ? '1' : '1,3',
          purpose_detail: '週末は地方で農業体験をしながら、平日は東京で働く暮らしを試したいです。',
          purpose_other: '',
          mail_opt: next() < 0.6 ? '1' : '0',
          city: next() < 0.2 ? place.value : '',
        });
        const number = `R${japanDay(new Date(created))}-${String(i).padStart(6, '0')}`;
        if (i === 1) registerNumber = number;
        const roll = next();
        applications.push({ id: randomUUID(), user_id: id, register_number: number, status: roll < 0.1 ? ('pending' as const) : roll < 0.9 ? ('approved' as const) : ('declined' as const), applied_at: created, decided_at: roll < 0.1 ? null : created });
      }
      await tx.insertInto('users').values(users).execute();
      await tx.insertInto('applications').values(applications).execute();
    }
  });
  await db.transaction().execute(async (tx) => {
    for (let done = 0; done < OFFICE_INQUIRIES; done += BATCH) {
      const rows = Array.from({ length: Math.min(BATCH, OFFICE_INQUIRIES - done) }, (_, k) => {
        const i = done + k;
        const created = new Date(today - Math.floor((i * 365 * 86400_000) / OFFICE_INQUIRIES)).toISOString();
        const status = i % 20 < 6 ? ('open' as const) : i % 20 < 17 ? ('answered' as const) : ('closed' as const);
        return {
          id: randomUUID(), ticket_no: `QO-${String(i).padStart(6, '0')}`, user_id: ids[Math.floor(next() * ids.length)]!, last_name_kanji: '山田', first_name_kanji: '花子',
          email: `office-${i}@example.com`, inquiry_user_type: '1', inquiry_type: String((i % 8) + 1), job: '1', content: '二地域での暮らしについて教えてください。',
          status, answer: status === 'open' ? null : '回答', created_at: created, updated_at: created,
        };
      });
      await tx.insertInto('inquiries').values(rows).execute();
    }
  });
  return { memberId, memberWithApplication: ids[1]!, registerNumber };
}

async function fetchOk(url: string, headers: Record<string, string>): Promise<number> {
  const res = await fetch(url, { headers });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status} ${(await res.text()).slice(0, 300)}`);
  // Read to the end (the CSV streams): the time is the whole answer's.
  const body = await res.arrayBuffer();
  return body.byteLength;
}

async function measure(database: Database): Promise<OfficeFigures> {
  const db = database.open();
  let server: Server | undefined;
  try {
    const started = performance.now();
    await migrate(db);
    const seeded = await seedOffice(db);
    if (database.env.DATABASE_URL) await sql`vacuum analyze`.execute(db);
    // Whatever the server maintains for the office (search keys, counts) is rebuilt from the
    // tables as an operator does after a load by SQL.
    const quiet = { out: () => {}, err: () => {} };
    await runOperator(['reindex'], quiet, async () => ({ db, mailer: {} as Mailer, close: async () => {} }));
    const seedSeconds = (performance.now() - started) / 1000;

    const sessions = createSessions(db, { sessionSeconds: 3600, sessionMaxSeconds: 43200, trustedDeviceDays: 90 });
    const memberToken = (await sessions.open(seeded.memberId)).token;
    const operatorId = randomUUID();
    const at = iso(now());
    await db.insertInto('operators').values({ id: operatorId, email: 'bench-clerk@office.example.jp', name: 'ベンチ 事務局', role: 'admin', status: 'active', password_hash: null, created_at: at, updated_at: at }).execute();
    const session = await openOperatorSession(db, operatorId, { ...DEFAULT_ADMIN_SETTINGS, sessionSeconds: 6 * 3600, sessionMaxSeconds: 12 * 3600 });

    server = await startServer(database.env, process.env.BENCH_SERVER_OUTPUT ? 'inherit' : 'ignore');
    const url = server.url;
    const member = { authorization: `Bearer ${memberToken}` };
    const operator = { cookie: `${ADMIN_COOKIE}=${session.token}` };
    const info = () => fetchOk(`${url}/v1/user/info`, member);
    const today = japanDay(now()).replace(/^(\d{4})(\d{2})(\d{2})$/, '$1-$2-$3');
    const requests: Array<[string, string]> = [
      ['home: pending applications (count)', '/v1/admin/applications?status=pending&page=1&size=1'],
      ['home: open inquiries (count)', '/v1/admin/inquiries?status=open&page=1&size=1'],
      ['applications, pending, page 1', '/v1/admin/applications?status=pending&page=1&size=20'],
      ["applications, today's", `/v1/admin/applications?applied_from=${today}&applied_to=${today}&page=1&size=20`],
      ['applications, all, page 2,000', '/v1/admin/applications?page=2000&size=20'],
      ['members, browse page 1', '/v1/admin/members?page=1&size=20'],
      ['members, search やまもと', `/v1/admin/members?q=${encodeURIComponent('やまもと')}&page=1&size=20`],
      ['members, search 葛城', `/v1/admin/members?q=${encodeURIComponent('葛城')}&page=1&size=20`],
      ['members, search partial e-mail', `/v1/admin/members?q=${encodeURIComponent('office-4242')}&page=1&size=20`],
      ['members, page 2,000', '/v1/admin/members?page=2000&size=20'],
      ['member detail', `/v1/admin/members/${seeded.memberWithApplication}`],
      ['application detail', `/v1/admin/applications/${seeded.registerNumber}`],
      ['inquiries, open, page 1', '/v1/admin/inquiries?status=open&page=1&size=20'],
      ['inquiries, all, page 2,000', '/v1/admin/inquiries?status=all&page=2000&size=20'],
      ['audit log, page 1', '/v1/admin/audit?page=1&size=50'],
      ['statistics', '/v1/admin/stats'],
      ['members CSV (agreed to mail, 4 columns)', '/v1/admin/members/export.csv?columns=email,register_number,last_name_kanji,phone'],
    ];

    // Warm up: every request once (the first reads after start find their anchors, the
    // statistics their day's figures), the member's once.
    await info();
    const available: Array<[string, string]> = [];
    // OFFICE_REQUESTS=CSV (a part of a label) measures only the requests it names.
    const wanted = process.env.OFFICE_REQUESTS;
    for (const [label, path] of requests.filter(([label]) => !wanted || label.includes(wanted))) {
      try {
        await fetchOk(`${url}${path}`, operator);
        available.push([label, path]);
      } catch (error) {
        console.log(`  ${database.name}: ${label}: not measured (${String(error).slice(0, 200)})`);
      }
    }

    // The anchor: the member alone.
    const alone: number[] = [];
    await server.ask('loop-delay:reset');
    const until = performance.now() + WINDOW_S * 1000;
    while (performance.now() < until) alone.push(await timed(info));
    const anchorLoop = await server.ask('loop-delay:read');

    const rows: OfficeRow[] = [];
    for (const [label, path] of available) {
      // Alone: RUNS timings, the loop's longest hold and the peak RSS over them.
      await server.ask('loop-delay:reset');
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) times.push(await timed(() => fetchOk(`${url}${path}`, operator)));
      const loop = await server.ask('loop-delay:read');
      // Side by side: the operator repeats the request while the member asks for info.
      let stop = false;
      const beside: number[] = [];
      const operatorLoop = (async () => {
        let runs = 0;
        while (!stop || runs === 0) {
          await fetchOk(`${url}${path}`, operator);
          runs++;
        }
      })();
      const end = performance.now() + WINDOW_S * 1000;
      while (performance.now() < end) beside.push(await timed(info));
      stop = true;
      await operatorLoop;
      rows.push({ label, ms: median(times), loopMax: loop.max, memberP99: percentile(beside, 99), rssMb: loop.rssMax / 1e6 });
      console.log(`  ${database.name}: ${label}: ${median(times).toFixed(1)} ms, loop max ${loop.max.toFixed(1)} ms, member p99 ${percentile(beside, 99).toFixed(1)} ms`);
    }
    return { seedSeconds, cpuPressure: cpuPressure(), anchor: { p50: median(alone), p99: percentile(alone, 99), loop: anchorLoop }, rows };
  } finally {
    await server?.stop();
    await db.destroy();
  }
}

/** Both databases, one after the other (each dropped when measured). */
export async function measureOffice(): Promise<Array<{ database: string; figures: OfficeFigures }>> {
  const results = [];
  // OFFICE_DATABASES=sqlite (or postgres) measures one of the two.
  const only = process.env.OFFICE_DATABASES;
  for (const make of [sqliteDatabase, postgresDatabase].filter((make) => !only || (make === sqliteDatabase ? 'sqlite' : 'postgres') === only)) {
    const database = await make();
    try {
      console.log(`Office: seeding ${OFFICE_MEMBERS} members (one application each) and ${OFFICE_INQUIRIES} inquiries on ${database.name} …`);
      results.push({ database: database.name, figures: await measure(database) });
    } finally {
      await database.drop();
    }
  }
  return results;
}
