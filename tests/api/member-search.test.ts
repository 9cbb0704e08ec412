// The back office's member search as a clerk types (issue 34, points 2 and 6; ADR 032): hiragana
// finds katakana, a kanji without its variation selector finds one with it, a multi-word roman
// family name in either order and from any of its words, an address from its start, a 受付番号
// from its start or by its serial digits, a phone number typed in any form by its start; a near
// miss finds nothing. The keys follow the member's writes (registration, profile edit, address
// change), and rows loaded by SQL are found after `npm run operator -- reindex` and after a
// restart (its check indexes members without keys). On SQLite and PostgreSQL.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DATABASES, Harness, setUpOrFail, validProfileUpdate } from '../support/api-harness';
import { operatorSession, type TestOperator } from '../support/admin-session';
import { asOperator } from '../support/admin-records';
import { RecordingOutput, operatorText } from '../operator/operator-support';
import { runOperator } from '../../src/server/operator/run';
import { foldName, foldPhone, indexUnsearchedMembers, prefixEnd, searchKeysOf } from '../../src/server/member-search-keys';
import { searchOf } from '../../src/server/admin/services/member-search';
import type { Db } from '../../src/server/db/connect';
import { openDb } from '../../src/server/db/connect';
import { loadConfig } from '../../src/server/config';
import { startStack } from '../../src/server/main';
import { instanceEnv, standInDist } from '../support/stack-start';

describe('member search keys: one fold for the stored keys and what is typed', () => {
  it('folds width, kana, variation selectors, case and spaces; a phone to its national digits', () => {
    expect(foldName('やまもと')).toBe('ヤマモト');
    expect(foldName('ﾔﾏﾓﾄ')).toBe('ヤマモト');
    expect(foldName('葛\u{E0100}城')).toBe(foldName('葛城'));
    expect(foldName('辻\uFE00')).toBe('辻');
    expect(foldName('van der Berg')).toBe('VANDERBERG');
    expect(foldName('ＶＡＮ　ｄｅｒ')).toBe('VANDER');
    // A katakana name's separators (issue 35): the middle dot and the double hyphen as keyboards type it.
    for (const typed of ['スミス・ヤマダ', 'スミス＝ヤマダ', 'ｽﾐｽ･ﾔﾏﾀﾞ', 'スミス゠ヤマダ']) expect(foldName(typed), typed).toBe('スミスヤマダ');
    // A roman name typed with its accents or apostrophe finds the passport spelling stored (ADR 036).
    for (const typed of ['José', 'JOSE', 'jose']) expect(foldName(typed), typed).toBe('JOSE');
    expect(foldName("O'Brien")).toBe('OBRIEN');
    expect(foldName('Nguyễn Văn')).toBe('NGUYENVAN');
    expect(foldName('ガ')).toBe('ガ');
    for (const typed of ['09012345678', '090-1234-5678', '+81 90-1234-5678', '+81 (0)90 1234 5678', '０９０－１２３４－５６７８']) expect(foldPhone(typed), typed).toBe('09012345678');
    expect(prefixEnd('ヤマ')).toBe('ヤミ');
    expect(prefixEnd('山\uD7FF')).toBe('山\uE000');
  });

  it('a member has keys for the name, the roman name in both orders and from each later family word, the address, the phone and the numbers', () => {
    const keys = searchKeysOf(
      { email: 'Jan@Example.com', last_name_kanji: 'ファン・デル', first_name_kanji: 'ヤン', last_name_alpha: 'van der Berg', first_name_alpha: 'Jan', phone: '0312345678' },
      ['R20260101-000123'],
    );
    expect(keys).toEqual(
      expect.arrayContaining([
        { kind: 'name', key: 'ファンデルヤン' },
        { kind: 'name', key: 'ヤン' },
        { kind: 'name', key: 'VANDERBERGJAN' },
        { kind: 'name', key: 'JANVANDERBERG' },
        { kind: 'name', key: 'DERBERGJAN' },
        { kind: 'name', key: 'BERGJAN' },
        { kind: 'email', key: 'jan@example.com' },
        { kind: 'phone', key: '0312345678' },
        { kind: 'number', key: 'R20260101000123' },
        { kind: 'number', key: '000123' },
      ]),
    );
    expect(searchOf('R2026')).toMatchObject({ number: 'R2026', terms: [{ kind: 'number', prefix: 'R2026' }] });
    expect(searchOf('r20260101-0001')).toMatchObject({ number: 'R20260101-0001' });
    expect(searchOf('')).toBeUndefined();
  });
});

describe.each(DATABASES)('member search ($name)', ({ kind }) => {
  let h: Harness;
  let clerk: TestOperator;

  setUpOrFail(async () => {
    h = await Harness.start(kind);
    clerk = await operatorSession(h.db, 'secretariat', '事務局 検索');
  });
  afterAll(async () => {
    await h?.close();
  });

  /** The ids of the members the back office's member list finds for `q` (and the application list's numbers). */
  async function found(q: string): Promise<string[]> {
    const res = await asOperator(h, clerk, 'GET', `/v1/admin/members?q=${encodeURIComponent(q)}&size=100`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().items.map((item: { id: string }) => item.id);
  }
  const unique = () => randomBytes(3).toString('hex');

  it('finds the clerk’s cases, and not their near misses', async () => {
    const tag = unique();
    const yamamoto = await h.createMember(`hanako.yamamoto.${tag}@example.com`, 'unused', {
      last_name_kanji: 'ヤマモト', first_name_kanji: 'ハナコ', last_name_alpha: 'YAMAMOTO', first_name_alpha: 'HANAKO', phone: '0311112222',
    });
    const katsuragi = await h.createMember(undefined, 'unused', { last_name_kanji: '葛\u{E0100}城', first_name_kanji: '翼', last_name_alpha: 'KATSURAGI', first_name_alpha: 'TSUBASA', phone: '0322223333' });
    const berg = await h.createMember(undefined, 'unused', { last_name_kanji: 'ファン・デル・ベルグ', first_name_kanji: 'ヤン', last_name_alpha: 'van der Berg', first_name_alpha: 'Jan', phone: '0333334444' });
    const kumiko = await h.registerMember(h.uniqueEmail('kumiko'), { last_name_kanji: '電話', first_name_kanji: '久美子', phone: '090-8765-4321' });

    const cases: Array<[string, string]> = [
      ['やまもと', yamamoto.id],
      ['ﾔﾏﾓﾄ ﾊﾅｺ', yamamoto.id],
      ['やまもと　はな', yamamoto.id],
      ['hanako yamamoto', yamamoto.id],
      ['葛城', katsuragi.id],
      ['葛城 翼', katsuragi.id],
      ['van der Berg', berg.id],
      ['Jan van der Berg', berg.id],
      ['Berg', berg.id],
      ['der berg jan', berg.id],
      [`hanako.yamamoto.${tag}@exa`, yamamoto.id],
      [`hanako.yamamoto.${tag}`, yamamoto.id],
      [kumiko.registerNumber, kumiko.id],
      [kumiko.registerNumber.slice(0, 13), kumiko.id],
      [kumiko.registerNumber.slice(-6), kumiko.id],
      ['09087654321', kumiko.id],
      ['090-8765-4321', kumiko.id],
      ['090-8765', kumiko.id],
      ['+81 90-8765-4321', kumiko.id],
      ['+819087654321', kumiko.id],
      ['０９０８７６５', kumiko.id],
    ];
    for (const [q, id] of cases) expect(await found(q), q).toEqual([id]);

    const serial = kumiko.registerNumber.slice(-6);
    const otherSerial = String((Number(serial) + 1) % 1_000_000).padStart(6, '0');
    const misses = [
      'やまもち', '葛木', 'van der Burg', 'Bergman', `hanako.yamamoto.${tag}@exb`, '090-8765-4322', '+81 90-8765-4322', `${kumiko.registerNumber.slice(0, 10)}${otherSerial}`, '%', '_', 'やま%',
    ];
    for (const q of misses) expect(await found(q), q).toEqual([]);
    // The application list finds the application by its number's start too.
    const applications = await asOperator(h, clerk, 'GET', `/v1/admin/applications?q=${encodeURIComponent(kumiko.registerNumber.slice(0, 13))}`);
    expect(applications.json().items.map((i: { register_number: string }) => i.register_number)).toEqual([kumiko.registerNumber]);
  });

  it('a member registered, then edited, is found by the new name and phone and not the old; a changed address likewise', async () => {
    const member = await h.registerMember(h.uniqueEmail('edit'), { last_name_kanji: '旧姓', first_name_kanji: 'のぞみ', phone: '080-1111-2222' });
    expect(await found('旧姓')).toEqual([member.id]);
    expect(await found('きゅうせい')).toEqual([]); // the kanji is not its reading: no key for it
    const edited = await h.updateInfo(member.token, validProfileUpdate(member.email, '1988-07-15', { last_name_kanji: '新姓', first_name_kanji: 'ひかり', phone: '080-3333-4444' }));
    expect(edited.statusCode, edited.body).toBe(200);
    expect(await found('新姓')).toEqual([member.id]);
    expect(await found('ヒカリ')).toEqual([member.id]);
    expect(await found('080-3333')).toEqual([member.id]);
    expect(await found('旧姓')).toEqual([]);
    expect(await found('080-1111-2222')).toEqual([]);

    const newEmail = h.uniqueEmail('moved');
    expect((await h.requestEmailChange(member.token, newEmail)).statusCode).toBe(200);
    const code = String(h.mailer.to(newEmail).at(-1)!.values.code);
    const changed = await h.confirmEmailChange(member.token, newEmail, code);
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await found(newEmail.slice(0, 12))).toEqual([member.id]);
    expect(await found(member.email)).toEqual([]);
  });

  /** A member written by SQL alone (an import, a restore): no search keys. */
  async function loadedBySql(db: Db, family: string): Promise<string> {
    const id = randomUUID();
    const at = new Date().toISOString();
    await db.insertInto('users').values({ id, email: `loaded-${unique()}@example.com`, status: 'active', password_hash: 'x', last_name_kanji: family, first_name_kanji: '一', created_at: at, updated_at: at, withdrawn_at: null }).execute();
    await db.insertInto('applications').values({ id: randomUUID(), user_id: id, register_number: `R20250101-${String(Math.floor(Math.random() * 1e6)).padStart(6, '0')}`, status: 'pending', applied_at: at, decided_at: null }).execute();
    return id;
  }

  it('rows loaded by SQL are found after `npm run operator -- reindex`, and after the start-up check', async () => {
    const imported = await loadedBySql(h.db, '輸入');
    expect(await found('輸入')).toEqual([]);
    const output = new RecordingOutput();
    const code = await runOperator(['reindex', '--batch', '2'], output, async () => ({ db: h.db, mailer: h.mailer, close: async () => {} }));
    expect(code, output.stderr).toBe(0);
    const members = Number((await h.db.selectFrom('users').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    expect(output.stdout).toContain(operatorText.reindex.done.replace('{name}', operatorText.reindex.names.memberSearch).replace('{count}', String(members)));
    expect(await found('輸入')).toEqual([imported]);
    expect(await found('ゆにゅう')).toEqual([]);

    // A rebuild leaves every member's keys as their writes left them: nothing doubled, nothing lost.
    const keysBefore = await h.db.selectFrom('member_search').select(['user_id', 'kind', 'key']).orderBy('user_id').orderBy('kind').orderBy('key').execute();
    expect((await runOperator(['reindex'], new RecordingOutput(), async () => ({ db: h.db, mailer: h.mailer, close: async () => {} })))).toBe(0);
    expect(await h.db.selectFrom('member_search').select(['user_id', 'kind', 'key']).orderBy('user_id').orderBy('kind').orderBy('key').execute()).toEqual(keysBefore);

    const restored = await loadedBySql(h.db, '復元');
    expect(await found('復元')).toEqual([]);
    // Two starts checking at once (two instances): both finish, the member's keys once.
    const [first, second] = await Promise.all([indexUnsearchedMembers(h.db, { batch: 1 }), indexUnsearchedMembers(h.db, { batch: 1 })]);
    expect(first.members + second.members).toBeGreaterThanOrEqual(1);
    expect(await found('復元')).toEqual([restored]);
    const keys = await h.db.selectFrom('member_search').select(['kind', 'key']).where('user_id', '=', restored).execute();
    expect(keys.filter((k) => k.kind === 'name' && k.key === '復元一')).toHaveLength(1);
    expect((await indexUnsearchedMembers(h.db)).members).toBe(0);
  });

  it.runIf(kind === 'sqlite')('a restart indexes members an import wrote while the site was down (startStack’s check)', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'member-search-restart-'));
    const dist = standInDist();
    try {
      const config = loadConfig(await instanceEnv(dataDir, { SEED_DEMO: 'false' }));
      const first = await startStack(config, {}, dist);
      await first.searchIndexed;
      await first.close();
      const db = openDb({ dataDir });
      const id = await loadedBySql(db, '再起動');
      expect(await db.selectFrom('member_search').select('key').where('user_id', '=', id).execute()).toEqual([]);
      await db.destroy();

      const second = await startStack(loadConfig(await instanceEnv(dataDir, { SEED_DEMO: 'false' })), {}, dist);
      await second.searchIndexed;
      await second.close();
      const after = openDb({ dataDir });
      expect((await after.selectFrom('member_search').select('key').where('user_id', '=', id).where('kind', '=', 'name').execute()).map((r) => r.key)).toContain('再起動一');
      await after.destroy();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
      await rm(dist, { recursive: true, force: true });
    }
  });
});
