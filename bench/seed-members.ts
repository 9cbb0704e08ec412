// Seeds a database with many members and inquiries for measuring `npm run impact` (a benchmark
// helper, not a test). Writes into the database the site would use (DATA_DIR or DATABASE_URL):
// point it at a fresh one.
//
//   DATA_DIR=/tmp/impact-bench npx tsx bench/seed-members.ts [--members 10000] [--inquiries 2000]
//
// Members go through the site's own createMember, with one argon2 hash made once and reused (a
// hash per member would take minutes and measure argon2, not the report). Profiles are valid
// under the schemas as shipped and vary where a product owner might tighten a rule: the length
// of the specific purpose, an empty or filled mileage number, "other" choices.
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/server/config';
import { migrate, openDb } from '../src/server/db/connect';
import { masterFile } from '../src/server/masters';
import { createMember } from '../src/server/seed';
import { hashPassword } from '../src/server/services/passwords';

const { values } = parseArgs({ options: { members: { type: 'string', default: '10000' }, inquiries: { type: 'string', default: '2000' } } });
const MEMBERS = Number(values.members);
const INQUIRIES = Number(values.inquiries);
const BATCH = 500;

// A fixed seed: every run seeds the same data, so runs compare.
let state = 20;
function random(): number {
  state = (state + 0x6d2b79f5) | 0;
  let t = Math.imul(state ^ (state >>> 15), 1 | state);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const between = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
const digits = (n: number) => Array.from({ length: n }, () => String(between(0, 9))).join('');

const PROSE = '週末は地方の農家で手伝いをしながら、平日は都内で働く二地域での暮らしを試してみたいと考えています。子どもと一緒に自然の中で過ごす時間を増やし、地域の行事にも参加したいです。';
const prose = (n: number) => PROSE.repeat(Math.ceil(n / PROSE.length)).slice(0, n);
const FAMILY = [['山田', 'YAMADA'], ['佐藤', 'SATO'], ['鈴木', 'SUZUKI'], ['高橋', 'TAKAHASHI'], ['田中', 'TANAKA'], ['伊藤', 'ITO'], ['渡辺', 'WATANABE'], ['中村', 'NAKAMURA']] as const;
const GIVEN = [['太郎', 'TARO'], ['花子', 'HANAKO'], ['一郎', 'ICHIRO'], ['さくら', 'SAKURA'], ['健太', 'KENTA'], ['美咲', 'MISAKI']] as const;
const ADDRESSES = ['東京都千代田区千代田1-1', '北海道札幌市中央区北一条西2丁目', '大阪府大阪市北区梅田3-1-1', '福岡県福岡市博多区博多駅前1-1'];

const masters = masterFile();
const codes = (name: 'job' | 'industry' | 'purpose' | 'inquiry_type' | 'inquiry_user_category') => masters[name].map((o) => o.value);

function profile() {
  const [family, familyAlpha] = pick(FAMILY);
  const [given, givenAlpha] = pick(GIVEN);
  const purposes = [...new Set(Array.from({ length: between(1, 4) }, () => pick(codes('purpose'))))];
  const industry = random() < 0.05 ? '99' : pick(codes('industry').filter((c) => c !== '99'));
  return {
    last_name_kanji: family,
    first_name_kanji: given,
    last_name_alpha: familyAlpha,
    first_name_alpha: givenAlpha,
    birthday: `${between(1950, 2005)}-${String(between(1, 12)).padStart(2, '0')}-${String(between(1, 28)).padStart(2, '0')}`,
    gender: pick(['male', 'female', 'other']),
    job: pick(codes('job')),
    industry,
    industry_other: industry === '99' ? prose(between(2, 30)) : '',
    zip_current: digits(7),
    address_current: pick(ADDRESSES),
    amc: random() < 0.4 ? digits(10) : '',
    phone: `0${digits(between(9, 10))}`,
    purpose: purposes.join(','),
    // Registration takes 20 to 80 characters, the edit form up to 200: some members wrote more since.
    purpose_detail: prose(random() < 0.7 ? between(20, 80) : between(81, 200)),
    purpose_other: purposes.includes('99') ? prose(between(20, 80)) : '',
    mail_opt: pick(['0', '1']),
  };
}

const config = loadConfig();
const db = openDb(config);
try {
  await migrate(db);
  const started = performance.now();
  const passwordHash = await hashPassword('Bench-Pass-1!');
  for (let done = 0; done < MEMBERS; done += BATCH) {
    await db.transaction().execute(async (tx) => {
      for (let i = done; i < Math.min(done + BATCH, MEMBERS); i++) {
        await createMember(tx, `bench-${i}-${randomUUID().slice(0, 8)}@example.com`, '', { ...profile(), password_hash: passwordHash });
      }
    });
  }
  for (let done = 0; done < INQUIRIES; done += BATCH) {
    const at = new Date().toISOString();
    const rows = Array.from({ length: Math.min(BATCH, INQUIRIES - done) }, (_, k) => {
      const [family] = pick(FAMILY);
      const [given] = pick(GIVEN);
      return {
        id: randomUUID(),
        ticket_no: `QB-${String(done + k).padStart(7, '0')}`,
        user_id: null,
        last_name_kanji: family,
        first_name_kanji: given,
        email: `visitor-${done + k}@example.jp`,
        inquiry_user_type: pick(codes('inquiry_user_category')),
        inquiry_type: pick(codes('inquiry_type')),
        job: pick(codes('job')),
        content: prose(between(20, 200)),
        status: pick(['open', 'answered', 'closed'] as const),
        answer: null,
        created_at: at,
        updated_at: at,
      };
    });
    await db.insertInto('inquiries').values(rows).execute();
  }
  const where = config.databaseUrl ? 'DATABASE_URL' : config.dataDir;
  console.log(`Seeded ${MEMBERS} members and ${INQUIRIES} inquiries into ${where} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
} finally {
  await db.destroy();
}
