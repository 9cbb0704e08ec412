// Names and birthdays as members type them (issue 21, points 2 and 5), through the API: the
// server runs the same x-normalise as the form (schemas/shared/fields.json), so what it stores
// is the normalised value: half-width katakana as full-width, combining marks composed,
// variation selectors kept, spaces trimmed, full-width roman letters half-width. A value stored
// before (half-width katakana) is accepted when it comes back, and stored normalised. The
// birthday travels as YYYY-MM-DD; an impossible, implausible or future date is refused on its
// field with the schema's message.
import { afterAll, describe, expect, it } from 'vitest';
import type { UserInfo } from '../../src/shared/api-types';
import { DATABASES, Harness, expectError, setUpOrFail, validProfileUpdate, validRegistration } from '../support/api-harness';
import { rulesOf } from '../support/schema-messages';

const form = rulesOf('register-profile');
const IVS = '\u{E0100}';
const japanDay = (offsetDays: number) => new Date(Date.now() + 9 * 3600e3 + offsetDays * 86400e3).toISOString().slice(0, 10);

describe.each(DATABASES)('names and birthday as typed ($name)', ({ kind }) => {
  let h: Harness;
  setUpOrFail(async () => {
    h = await Harness.start(kind);
  });
  afterAll(async () => {
    await h?.close();
  });

  const row = (email: string) => h.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();

  it('registration stores the normalised names and the birthday as sent', async () => {
    const { email, code } = await h.verifiedEmail();
    const res = await h.register(
      validRegistration(email, code, {
        last_name_kanji: `葛${IVS}城 `,
        first_name_kanji: 'ﾊﾅｺ',
        last_name_alphabet: 'ＫＡＴＳＵＲＡＧＩ',
        first_name_alphabet: ' Hanako ',
        birthday: '1990-04-05',
      }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const stored = await row(email);
    expect([stored.last_name_kanji, stored.first_name_kanji, stored.last_name_alpha, stored.first_name_alpha, stored.birthday]).toEqual([
      `葛${IVS}城`,
      'ハナコ',
      'KATSURAGI',
      'HANAKO',
      '1990-04-05',
    ]);
    const info = (await h.info(res.json<{ token: string }>().token)).json<UserInfo>();
    expect([info.last_name_kanji, info.first_name_kanji, info.birthday]).toEqual([`葛${IVS}城`, 'ハナコ', '1990-04-05']);
  });

  it('registration stores ﾔﾏﾀﾞ as ヤマダ, 辻 with its variation selector, and a combining dakuten composed', async () => {
    const { email, code } = await h.verifiedEmail();
    const res = await h.register(validRegistration(email, code, { last_name_kanji: 'ﾔﾏﾀﾞ', first_name_kanji: 'はなこ\u3099' }));
    expect(res.statusCode, res.body).toBe(200);
    expect([(await row(email)).last_name_kanji, (await row(email)).first_name_kanji]).toEqual(['ヤマダ', 'はなご']);

    const other = await h.verifiedEmail();
    const res2 = await h.register(validRegistration(other.email, other.code, { last_name_kanji: `辻${IVS}` }));
    expect(res2.statusCode, res2.body).toBe(200);
    expect([...(await row(other.email)).last_name_kanji].map((c) => c.codePointAt(0)!.toString(16))).toEqual(['8fbb', 'e0100']);
  });

  it('registration takes スミス・ヤマダ / José as the world writes them: the katakana as typed, the roman name stored and answered in its passport spelling', async () => {
    const { email, code } = await h.verifiedEmail();
    const res = await h.register(
      validRegistration(email, code, { last_name_kanji: 'ｽﾐｽ･ﾔﾏﾀﾞ', first_name_kanji: 'メアリー＝ジェーン', last_name_alphabet: 'Smith-Yamada', first_name_alphabet: 'José' }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const stored = await row(email);
    expect([stored.last_name_kanji, stored.first_name_kanji, stored.last_name_alpha, stored.first_name_alpha]).toEqual(['スミス・ヤマダ', 'メアリー＝ジェーン', 'SMITH-YAMADA', 'JOSE']);
    const info = (await h.info(res.json<{ token: string }>().token)).json<UserInfo>();
    expect([info.last_name_kanji, info.first_name_kanji, info.last_name_alpha, info.first_name_alpha]).toEqual(['スミス・ヤマダ', 'メアリー＝ジェーン', 'SMITH-YAMADA', 'JOSE']);
  });

  it('a roman name stored before as typed (Tanaka) comes back on edit and is stored in capitals; one that cannot be spelt in letters is still refused', async () => {
    const member = await h.createMember(undefined, undefined, { last_name_alpha: 'Tanaka', first_name_alpha: 'Ōno' });
    const { token } = await h.loginWithCode(member);
    const saved = (await h.info(token)).json<UserInfo>();
    const res = await h.updateInfo(token, validProfileUpdate(member.email, String(saved.birthday), { last_name_alpha: saved.last_name_alpha, first_name_alpha: saved.first_name_alpha }));
    expect(res.statusCode, res.body).toBe(200);
    const stored = await row(member.email);
    expect([stored.last_name_alpha, stored.first_name_alpha]).toEqual(['TANAKA', 'ONO']);
    expectError(await h.updateInfo(token, validProfileUpdate(member.email, String(saved.birthday), { last_name_alpha: 'Tanaka3' })), 400, 'VALIDATION', {
      last_name_alpha: [rulesOf('edit-profile').message('last_name_alpha', 'pattern')],
    });
  });

  it('a name stored half-width before is accepted when it comes back, and stored full-width', async () => {
    const member = await h.createMember(undefined, undefined, { last_name_kanji: 'ｻﾄｳ', first_name_kanji: 'ﾊﾅｺ' });
    const { token } = await h.loginWithCode(member);
    const saved = (await h.info(token)).json<UserInfo>();
    const res = await h.updateInfo(token, validProfileUpdate(member.email, String(saved.birthday), { last_name_kanji: saved.last_name_kanji, first_name_kanji: saved.first_name_kanji, last_name_alpha: 'ＳＡＴＯ' }));
    expect(res.statusCode, res.body).toBe(200);
    const stored = await row(member.email);
    expect([stored.last_name_kanji, stored.first_name_kanji, stored.last_name_alpha]).toEqual(['サトウ', 'ハナコ', 'SATO']);
  });

  it.each([
    ['1990-02-30', 'format'],
    ['1899-12-31', 'minDate'],
    ['0090-04-05', 'minDate'],
    [japanDay(1), 'maxDate'],
  ])('a birthday of %s is refused on its field (%s)', async (birthday, keyword) => {
    const { email, code } = await h.verifiedEmail();
    const res = await h.register(validRegistration(email, code, { birthday }));
    expectError(res, 400, 'VALIDATION', { birthday: [form.message('birthday', keyword)] });
  });

  it("today's date (in Japan) is a birthday the server takes", async () => {
    const { email, code } = await h.verifiedEmail();
    const res = await h.register(validRegistration(email, code, { birthday: japanDay(0) }));
    expect(res.statusCode, res.body).toBe(200);
  });
});
