// PUT /v1/user/info: the member edits their profile (schemas/api/user-update.json). purpose is a
// comma string; zip and phone lose their hyphens; email and birthday are carried but never
// written; purpose_other and industry_other are kept only with 99; unknown master codes are
// refused; only the caller's row changes.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { UserInfo } from '../../src/shared/api-types';
import type { User } from '../../src/server/db/types';
import { DATABASES, Harness, expectError, japaneseText, setUpOrFail, validProfileUpdate, type Member } from '../support/api-harness';
import { masterFile } from '../../src/server/masters';
import { rulesOf } from '../support/schema-messages';
import messages from '../../messages/ja.json';
import options from '../../schemas/masters/options.json';

// Field messages (schemas/forms/edit-profile.schema.json, schemas/api/user-update.json,
// schemas/shared/fields.json) and messages/ja.json "api".
const edit = rulesOf('edit-profile');
const MIN_20 = edit.message('purpose_detail', 'minLength');
const DETAIL_MIN = edit.limit('purpose_detail', 'minLength');
const DETAIL_MAX = edit.limit('purpose_detail', 'maxLength');
const OTHER_MAX = edit.limit('purpose_other', 'maxLength');
const MAX_200 = edit.message('purpose_detail', 'maxLength');
const MAX_80 = edit.message('purpose_other', 'maxLength');
const REQUIRED = edit.required('purpose');
const PURPOSE_MAX = edit.message('purpose', 'maxItems');
const PURPOSE_MAX_ITEMS = edit.limit('purpose', 'maxItems');
/** The first `n` purpose codes of the option list, as the payload carries them. */
const purposeCodes = (n: number) => options.purpose.slice(0, n).map((o) => o.value).join(',');
const OTHER_REQUIRED = edit.required('purpose_other');
const INDUSTRY_OTHER_REQUIRED = edit.required('industry_other');
const MASTER_UNKNOWN = messages.api.MASTER_UNKNOWN;
const FORMAT = edit.message('phone', 'pattern');
const NO_URL = edit.message('purpose_detail', 'not');
const PURPOSE_UNIQUE = edit.message('purpose', 'uniqueItems');

describe.each(DATABASES)('PUT /v1/user/info ($name)', ({ kind }) => {
  let h: Harness;

  setUpOrFail(async () => {
    h = await Harness.start(kind);
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(() => h.mailer.clear());

  /** A fresh member (the sample profile of createMember: 山田 花子, born 1990-04-01) and a session. */
  async function member(): Promise<Member & { token: string }> {
    const m = await h.createMember();
    return { ...m, token: (await h.loginWithCode(m)).token };
  }

  async function row(id: string): Promise<User> {
    return h.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  }

  /** An update of `m` with `overrides`, carrying m's own e-mail and birthday. */
  const update = (m: Member, overrides: Record<string, unknown> = {}) => validProfileUpdate(m.email, '1990-04-01', overrides);

  /** `overrides` are refused with exactly `fields`, and the member's row is unchanged. */
  async function expectRefused(overrides: Record<string, unknown>, fields: Record<string, string[]>) {
    const m = await member();
    const before = await row(m.id);
    expectError(await h.updateInfo(m.token, update(m, overrides)), 400, 'VALIDATION', fields);
    expect(await row(m.id)).toEqual(before);
  }

  /** `overrides` are accepted (200): what GET /v1/user/info answers afterwards. */
  async function expectAccepted(overrides: Record<string, unknown>): Promise<UserInfo> {
    const m = await member();
    const res = await h.updateInfo(m.token, update(m, overrides));
    expect(res.statusCode, res.body).toBe(200);
    const info = await h.info(m.token);
    expect(info.statusCode, info.body).toBe(200);
    // the same answer as GET, byte for byte (both serialised by schemas/api/user-info-response.json)
    expect(res.body).toBe(info.body);
    return info.json<UserInfo>();
  }

  it('a valid update (purpose "1,99" with purpose_other) → 200 with the new profile; GET shows it, hyphens removed', async () => {
    const m = await member();
    const before = await row(m.id);
    const payload = update(m, { purpose: '1,99', purpose_other: '地域のお祭りの運営に関わりたい' });
    const res = await h.updateInfo(m.token, payload);
    expect(res.statusCode, res.body).toBe(200);
    const expected: UserInfo = {
      email: m.email,
      last_name_kanji: '鈴木',
      first_name_kanji: '一郎',
      last_name_alpha: 'SUZUKI',
      first_name_alpha: 'ICHIRO',
      birthday: '1990-04-01',
      gender: 'other',
      job: '6',
      jobLabel: '自営業・フリーランス',
      industry: '7',
      industry_other: '',
      zip_current: '0600001',
      address_current: '北海道札幌市中央区北一条西1丁目',
      amc: '1234567890',
      phone: '0111234567',
      purpose: '1,99',
      purpose_detail: String(payload.purpose_detail),
      purpose_other: '地域のお祭りの運営に関わりたい',
      mail_opt: '0',
    };
    expect(res.json()).toEqual(expected);
    const info = await h.info(m.token);
    expect(info.statusCode, info.body).toBe(200);
    expect(info.json()).toEqual(expected);

    const after = await row(m.id);
    expect(after.updated_at >= before.updated_at).toBe(true);
    expect(after).toMatchObject({ password_hash: before.password_hash, status: 'active', created_at: before.created_at, zip_second: '', address_second: '' });
  });

  it('email and birthday in the payload are NOT changed, even when they differ', async () => {
    const m = await member();
    const other = await h.createMember();
    const elsewhere = h.uniqueEmail('elsewhere');
    for (const email of [elsewhere, other.email]) {
      const res = await h.updateInfo(m.token, validProfileUpdate(email, '2001-11-23'));
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<UserInfo>()).toMatchObject({ email: m.email, birthday: '1990-04-01', last_name_kanji: '鈴木' });
      expect((await h.info(m.token)).json<UserInfo>()).toMatchObject({ email: m.email, birthday: '1990-04-01' });
      expect(await row(m.id)).toMatchObject({ email: m.email, birthday: '1990-04-01' });
    }
    expect(await h.db.selectFrom('users').select('id').where('email', '=', elsewhere).execute()).toHaveLength(0);
    expect((await row(other.id)).email).toBe(other.email);
    // The login still works with the old address only.
    expect((await h.verify(m.email, m.password)).statusCode).toBe(200);
    expectError(await h.verify(elsewhere, m.password), 401, 'LOGIN_FAILED');
    expect(h.mailer.sent.filter((mail) => mail.template !== 'loginCode')).toEqual([]);
  });

  it('purpose_other is saved only with 99', async () => {
    expect(await expectAccepted({ purpose: '2,5', purpose_other: '地域のお祭りの運営に関わりたい' })).toMatchObject({ purpose: '2,5', purpose_other: '' });
    expect(await expectAccepted({ purpose: '2,99', purpose_other: '地域のお祭りの運営に関わりたい' })).toMatchObject({ purpose: '2,99', purpose_other: '地域のお祭りの運営に関わりたい' });
  });

  it('a text whose condition does not hold is dropped unjudged (the schema\'s if/then decides, not code)', async () => {
    // Without "other", purpose_other and industry_other are neither validated nor stored, whatever they hold.
    const saved = await expectAccepted({ purpose: '2', purpose_other: 'https://example.jp <b>', industry: '8', industry_other: 'x'.repeat(500) });
    expect(saved).toMatchObject({ purpose: '2', purpose_other: '', industry: '8', industry_other: '' });
  });

  it('an earlier purpose_other is cleared when 99 is deselected', async () => {
    const m = await member();
    expect((await h.updateInfo(m.token, update(m, { purpose: '99', purpose_other: '古民家の改修' }))).statusCode).toBe(200);
    expect((await row(m.id)).purpose_other).toBe('古民家の改修');
    expect((await h.updateInfo(m.token, update(m, { purpose: '3', purpose_other: '古民家の改修' }))).statusCode).toBe(200);
    expect(await row(m.id)).toMatchObject({ purpose: '3', purpose_other: '' });
  });

  it('industry_other is saved only with 99', async () => {
    expect(await expectAccepted({ industry: '7', industry_other: 'ドローン操縦士' })).toMatchObject({ industry: '7', industry_other: '' });
    expect(await expectAccepted({ industry: '99', industry_other: 'ドローン操縦士' })).toMatchObject({ industry: '99', industry_other: 'ドローン操縦士' });
  });

  it('industry 99 without industry_other (absent or empty: not given) → fields.industry_other, the form\'s required message', async () => {
    await expectRefused({ industry: '99', industry_other: undefined }, { industry_other: [INDUSTRY_OTHER_REQUIRED] });
    await expectRefused({ industry: '99', industry_other: '' }, { industry_other: [INDUSTRY_OTHER_REQUIRED] });
    await expectRefused({ industry: '99', industry_other: '　 ' }, { industry_other: [INDUSTRY_OTHER_REQUIRED] });
  });

  it('purpose_detail of min - 1 characters → 400 with its minLength message', async () => {
    await expectRefused({ purpose_detail: japaneseText(DETAIL_MIN - 1) }, { purpose_detail: [MIN_20] });
  });

  it.each([DETAIL_MIN, DETAIL_MAX])('purpose_detail of %i characters → 200', async (n) => {
    const text = japaneseText(n);
    expect((await expectAccepted({ purpose_detail: text })).purpose_detail).toBe(text);
  });

  it('purpose_detail of max + 1 characters → 400 with its maxLength message', async () => {
    await expectRefused({ purpose_detail: japaneseText(DETAIL_MAX + 1) }, { purpose_detail: [MAX_200] });
  });

  it('purpose_detail with a URL → 400 with the URL message', async () => {
    await expectRefused({ purpose_detail: `${japaneseText(30)}https://example.com` }, { purpose_detail: [NO_URL] });
  });

  it('purpose_other of max + 1 characters (with 99) → 400 with its maxLength message', async () => {
    await expectRefused({ purpose: '1,99', purpose_other: japaneseText(OTHER_MAX + 1) }, { purpose_other: [MAX_80] });
  });

  it.each([edit.limit('purpose_other', 'minLength'), OTHER_MAX])('purpose_other of %i character(s) (with 99) → 200', async (n) => {
    const text = japaneseText(n);
    expect(await expectAccepted({ purpose: '1,99', purpose_other: text })).toMatchObject({ purpose: '1,99', purpose_other: text });
  });

  it('99 without purpose_other → "「その他」を選択した場合は必須です"', async () => {
    await expectRefused({ purpose: '1,99', purpose_other: '' }, { purpose_other: [OTHER_REQUIRED] });
    await expectRefused({ purpose: '99', purpose_other: undefined }, { purpose_other: [OTHER_REQUIRED] });
  });

  it('purpose "" → 400 "必須です"', async () => {
    await expectRefused({ purpose: '' }, { purpose: [REQUIRED] });
  });

  it('purpose missing → 400 "必須です"', async () => {
    await expectRefused({ purpose: undefined }, { purpose: [REQUIRED] });
  });

  it('max + 1 purpose codes → 400 with its maxItems message', async () => {
    await expectRefused({ purpose: purposeCodes(PURPOSE_MAX_ITEMS + 1) }, { purpose: [PURPOSE_MAX] });
  });

  // The edit form (purposeList, uniqueItems) and the registration API refuse a purpose chosen
  // twice; the update API must not store one either (it did: "1,1" was saved as it came).
  it.each(['1,1', '2,5,2', '1,1,1,1,1,1,1,1'])('a purpose chosen twice (%j) → 400 "同じ目的は1回だけ選択してください"', async (purpose) => {
    await expectRefused({ purpose }, { purpose: [PURPOSE_UNIQUE] });
  });

  it('max purpose codes → 200', async () => {
    expect((await expectAccepted({ purpose: purposeCodes(PURPOSE_MAX_ITEMS) })).purpose).toBe(purposeCodes(PURPOSE_MAX_ITEMS));
  });

  it('an unknown job → 400 VALIDATION with fields.job MASTER_UNKNOWN', async () => {
    await expectRefused({ job: '42' }, { job: [MASTER_UNKNOWN] });
  });

  it('unknown industry, mail_opt and purpose codes → MASTER_UNKNOWN under each', async () => {
    const purposes = new Set(masterFile().purpose.map((o) => o.value));
    const unknownPurpose = ['42', '43', '44', '45', '46'].find((code) => !purposes.has(code))!;
    await expectRefused({ industry: '55', mail_opt: '7', purpose: `1,${unknownPurpose}` }, { industry: [MASTER_UNKNOWN], mail_opt: [MASTER_UNKNOWN], purpose: [MASTER_UNKNOWN] });
  });

  it('a malformed zip and phone → 400 with the format message', async () => {
    await expectRefused({ zip_current: '060-00001', phone: '11-1234-5678' }, { zip_current: [edit.message('zip_current', 'pattern')], phone: [FORMAT] });
  });

  it('another member is never affected', async () => {
    const [m, other] = [await member(), await member()];
    const otherBefore = await row(other.id);
    const otherInfo = (await h.info(other.token)).json();
    expect((await h.updateInfo(m.token, update(m, { purpose: '99', purpose_other: '古民家の改修' }))).statusCode).toBe(200);
    // Even a payload carrying the other member's address changes only the caller.
    expect((await h.updateInfo(m.token, validProfileUpdate(other.email, otherBefore.birthday, { last_name_kanji: '高橋' }))).statusCode).toBe(200);
    expect(await row(other.id)).toEqual(otherBefore);
    expect((await h.info(other.token)).json()).toEqual(otherInfo);
    expect((await row(m.id)).last_name_kanji).toBe('高橋');
  });

  it('no token → 401 UNAUTHENTICATED, nothing written', async () => {
    const m = await member();
    const before = await row(m.id);
    expectError(await h.updateInfo(undefined, update(m)), 401, 'UNAUTHENTICATED');
    // Authentication comes before validation.
    expectError(await h.updateInfo(undefined, {}), 401, 'UNAUTHENTICATED');
    expect(await row(m.id)).toEqual(before);
  });

  it('an expired session → 401 SESSION_EXPIRED, nothing written', async () => {
    const m = await member();
    const before = await row(m.id);
    await h.db.updateTable('sessions').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('user_id', '=', m.id).execute();
    expectError(await h.updateInfo(m.token, update(m)), 401, 'SESSION_EXPIRED');
    expect(await row(m.id)).toEqual(before);
  });

  it('a withdrawn member\'s token → 401 UNAUTHENTICATED, nothing written', async () => {
    const m = await member();
    await h.db.updateTable('users').set({ status: 'withdrawn', withdrawn_at: new Date().toISOString() }).where('id', '=', m.id).execute();
    const before = await row(m.id);
    expectError(await h.updateInfo(m.token, update(m)), 401, 'UNAUTHENTICATED');
    expect(await row(m.id)).toEqual(before);
  });
});
