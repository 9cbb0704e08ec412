// The member record is the schema: a product owner's change made in JSON only, on a copy of
// schemas/ (tests/support/member-field-copy.ts: a new optional select `prefecture` at
// registration and on the edit form, `amc` required on the edit form, `purpose_detail` required
// on it only when mail_opt is "1"), reaches storage, GET and PUT /v1/user/info, the info view and
// the browser's precompiled validators with no TypeScript edit. Each case is judged the way each
// side meets it: the browser's validator on the form's data (an emptied field is undefined), the
// real server through inject() on the payload the screen sends, on SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import messages from '../../messages/ja.json';
import type { FormModule } from '../../src/engine/SchemaForm';
import { normalise } from '../../src/shared/normalise';
import { formDataOf, memberRecord } from '../../src/shared/member-record';
import { memberView } from '../../src/shared/member-view';
import { formatDate } from '../../src/shared/format-date';
import { loadBundledForm, loadMasterLists } from '../../src/shared/validation/schema-files';
import { registrationToWire } from '../../src/shared/wire/registration';
import { profileToWire } from '../../src/shared/wire/profile-update';
import type { UserInfo } from '../../src/shared/api-types';
import type { FieldErrors } from '../../src/shared/validation/field-errors';
import { browserFieldErrors } from '../support/field-messages';
import { buildFormModule } from '../support/forms';
import { rulesOf } from '../support/schema-messages';
import { makeMemberFieldCopy, PREFECTURES, type MemberFieldCopy } from '../support/member-field-copy';
import { DATABASES, Harness, japaneseText, setUpOrFail } from '../support/api-harness';
import specTexts from '../../messages/validation-spec.ja.json';
import { code, generateValidationSpec } from '../../tools/validation-spec/render';
import { specOptions, specRow } from '../../tools/validation-spec/read';
import { MESSAGES_DIR } from '../support/edited-schemas';

let copy: MemberFieldCopy;
let registerForm: FormModule;
let editForm: FormModule;

beforeAll(async () => {
  copy = makeMemberFieldCopy();
  registerForm = await buildFormModule('register-profile', copy.schemasDir);
  editForm = await buildFormModule('edit-profile', copy.schemasDir);
});
afterAll(() => copy?.remove());

const prefecture = (name: string) => String(PREFECTURES.indexOf(name) + 1);

/** Registration STEP2 as the browser holds it (an unchosen select is undefined). */
const step2 = (overrides: Record<string, unknown> = {}) => ({
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
  amc: '1234567890',
  phone: '090-1234-5678',
  mail_opt: '1',
  purpose: ['1', '3'],
  purpose_detail: japaneseText(40),
  condition_checked: true,
  ...overrides,
});

/** `data` without the fields set to undefined (what a form holds after they are emptied). */
const without = (data: Record<string, unknown>, ...names: string[]) => Object.fromEntries(Object.entries(data).filter(([name]) => !names.includes(name)));

describe.each(DATABASES)('a member field added in JSON alone ($name)', ({ kind }) => {
  let h: Harness;
  setUpOrFail(async () => {
    h = await Harness.start(kind, { schemasDir: copy.schemasDir });
  });
  afterAll(async () => {
    await h?.close();
  });

  const rules = () => rulesOf('edit-profile', copy.schemasDir);
  const row = (email: string) => h.db.selectFrom('users').selectAll().where('email', '=', email).where('status', '=', 'active').executeTakeFirstOrThrow();
  const attributes = async (email: string) => JSON.parse((await row(email)).attributes) as Record<string, unknown>;

  /** Registration as the screen sends it: STEP2's data through the form's normalisers and the wire adapter. */
  async function register(data: Record<string, unknown>) {
    const verified = await h.verifiedEmail();
    const payload = registrationToWire(registerForm.schema, normalise(registerForm.schema, data), verified);
    const res = await h.register(payload);
    return { res, email: verified.email, token: res.statusCode === 200 ? res.json<{ token: string }>().token : '' };
  }

  const info = async (token: string) => {
    const res = await h.info(token);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<UserInfo>();
  };

  /** The edit form's data as the edit screen fills it from GET /v1/user/info. */
  const editData = (saved: UserInfo) => formDataOf(memberRecord({ 'edit-profile': editForm }), 'edit-profile', saved);

  /** The edit form's data judged by the browser's validator and, sent as the edit screen sends it,
   *  by the server: both verdicts (the server's field errors, or {} with its answer). */
  async function judgeEdit(token: string, saved: UserInfo, data: Record<string, unknown>) {
    const browser = browserFieldErrors(editForm, data);
    const res = await h.updateInfo(token, profileToWire(editForm.schema, normalise(editForm.schema, data), saved));
    const server: FieldErrors = res.statusCode === 200 ? {} : (res.json<{ fields?: FieldErrors }>().fields ?? { '': [res.body] });
    return { browser, server, res };
  }

  async function member(overrides: Record<string, unknown> = {}) {
    const { res, email, token } = await register(step2(overrides));
    expect(res.statusCode, res.body).toBe(200);
    return { email, token, saved: await info(token) };
  }

  it('registration asks for the new field: the browser and the server accept it chosen and empty, and it is stored', async () => {
    expect(browserFieldErrors(registerForm, step2({ prefecture: prefecture('東京都') }))).toEqual({});
    expect(browserFieldErrors(registerForm, step2())).toEqual({});

    const chosen = await register(step2({ prefecture: prefecture('東京都') }));
    expect(chosen.res.statusCode, chosen.res.body).toBe(200);
    expect(await attributes(chosen.email)).toEqual({ prefecture: prefecture('東京都') });
    expect((await info(chosen.token)).prefecture).toBe(prefecture('東京都'));

    // An unchosen select travels as '' and is "not given": accepted, nothing stored.
    const empty = await register(step2());
    expect(empty.res.statusCode, empty.res.body).toBe(200);
    expect(await attributes(empty.email)).toEqual({});
    expect((await info(empty.token)).prefecture).toBe('');
    // A code outside the new list is refused like any other list's.
    const unknown = await register(step2({ prefecture: '99' }));
    expect(unknown.res.json()).toMatchObject({ code: 'VALIDATION', fields: { prefecture: [messages.api.MASTER_UNKNOWN] } });
  });

  it('GET /v1/user/info answers it, PUT changes and clears it, the edit form holds it and the info view lists it under its title', async () => {
    const { email, token, saved } = await member({ prefecture: prefecture('東京都') });
    const data = editData(saved);
    expect(data.prefecture).toBe(prefecture('東京都'));

    const changed = await judgeEdit(token, saved, { ...data, prefecture: prefecture('大阪府') });
    expect(changed).toMatchObject({ browser: {}, server: {} });
    expect(changed.res.json<UserInfo>().prefecture).toBe(prefecture('大阪府'));
    const after = await info(token);
    expect(after.prefecture).toBe(prefecture('大阪府'));

    const form = loadBundledForm('edit-profile', copy.schemasDir);
    const view = (user: UserInfo) => memberView([form], user, { masters: loadMasterLists(copy.schemasDir), texts: messages.info, formatDate });
    expect(view(after)).toContainEqual({ label: '都道府県', value: '大阪府' });
    // The rows the project had stay as they were.
    expect(view(after)).toContainEqual({ label: '郵便番号', value: '〒100-0001' });

    const cleared = await judgeEdit(token, after, without(editData(after), 'prefecture'));
    expect(cleared).toMatchObject({ browser: {}, server: {} });
    expect((await info(token)).prefecture).toBe('');
    expect(await attributes(email)).toEqual({});
    expect(view(await info(token))).toContainEqual({ label: '都道府県', value: '' });
  });

  it('amc made required on the edit form: emptied, it is refused with the form\'s required message in the browser and by the server', async () => {
    const { email, token, saved } = await member();
    const message = rules().required('amc');
    const emptied = await judgeEdit(token, saved, without(editData(saved), 'amc'));
    expect(emptied.browser).toEqual({ amc: [message] });
    expect(emptied.server).toEqual(emptied.browser);
    expect((await row(email)).amc).toBe('1234567890');
    // As it travels ('' from the screen) or left out: not given either way.
    for (const amc of ['', undefined]) {
      const res = await h.updateInfo(token, { ...profileToWire(editForm.schema, editData(saved), saved), amc });
      expect(res.json()).toMatchObject({ code: 'VALIDATION', fields: { amc: [message] } });
    }
    const given = await judgeEdit(token, saved, { ...editData(saved), amc: '0987654321' });
    expect(given).toMatchObject({ browser: {}, server: {} });
  });

  it('purpose_detail required only when mail_opt is "1": cleared with "0" (and cleared in storage), refused with "1"', async () => {
    const { email, token, saved } = await member();
    expect((await row(email)).purpose_detail).toBe(japaneseText(40));

    const refused = await judgeEdit(token, saved, { ...without(editData(saved), 'purpose_detail'), mail_opt: '1' });
    expect(refused.browser).toEqual({ purpose_detail: [rules().required('purpose_detail')] });
    expect(refused.server).toEqual(refused.browser);
    expect((await row(email)).purpose_detail).toBe(japaneseText(40));

    // Given, it is still judged by its own limits when it is optional.
    const short = await judgeEdit(token, saved, { ...editData(saved), mail_opt: '0', purpose_detail: '短い' });
    expect(short.browser).toEqual({ purpose_detail: [rules().message('purpose_detail', 'minLength')] });
    expect(short.server).toEqual(short.browser);

    const cleared = await judgeEdit(token, saved, { ...without(editData(saved), 'purpose_detail'), mail_opt: '0' });
    expect(cleared).toMatchObject({ browser: {}, server: {} });
    expect(await row(email)).toMatchObject({ purpose_detail: '', mail_opt: '0' });
    expect(await info(token)).toMatchObject({ purpose_detail: '', mail_opt: '0' });
  });
});

describe('the QA spec regenerated from the copy says the same', () => {
  const [, , REQUIRED, , , , , OPTIONS] = specTexts.columns;
  const fill = (text: string, values: Record<string, string | number>) => text.replace(/\{(\w+)\}/g, (_, key: string) => String(values[key]));

  it('lists the new field on both forms with its option list, amc as required on the edit form, purpose_detail required only with mail_opt "1"', () => {
    const spec = generateValidationSpec({ schemasDir: copy.schemasDir, messagesDir: MESSAGES_DIR });
    for (const form of ['register-profile', 'edit-profile']) {
      const row = specRow(spec, form, 'prefecture');
      expect(row, `${form} lists prefecture`).toBeDefined();
      expect(row![REQUIRED]).toBe(specTexts.required.optional);
      expect(row![OPTIONS]).toBe(fill(specTexts.masterRef, { name: code('prefecture') }));
    }
    expect(specOptions(spec, 'prefecture')).toHaveLength(PREFECTURES.length);
    expect(specRow(spec, 'edit-profile', 'amc')![REQUIRED]).toBe(specTexts.required.always);
    // Registration keeps the project's own rule for amc (optional as shipped).
    const registrationRequires = (loadBundledForm('register-profile').schema.required as string[]).includes('amc');
    expect(specRow(spec, 'register-profile', 'amc')![REQUIRED]).toBe(registrationRequires ? specTexts.required.always : specTexts.required.optional);
    const detail = specRow(spec, 'edit-profile', 'purpose_detail')![REQUIRED];
    expect(detail).not.toBe(specTexts.required.always);
    expect(detail).toMatch(/mail_opt|メール/);
    // The project's own spec is untouched by the copy.
    expect(specRow(generateValidationSpec(), 'edit-profile', 'prefecture')).toBeUndefined();
  });
});

describe('the project\'s own schemas are unchanged by the copy', () => {
  it('no prefecture field, and purpose_detail always required on the edit form', () => {
    const own = loadBundledForm('edit-profile');
    expect(memberRecord({ 'edit-profile': own }).field('prefecture')).toBeUndefined();
    expect(own.schema.required).toContain('purpose_detail');
  });
});
