// The schema is the one contract: a product owner's JSON-only edit (a limit, a message's
// wording, an option) on a copy of schemas/ and messages/ reaches the precompiled client
// validator, the UI's placeholder, the server (through inject()) and its option lists, with no
// code change; the project's own files give the original answers throughout.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import messages from '../../messages/ja.json';
import { toFieldErrors } from '../../src/shared/validation/field-errors';
import { fillMessage } from '../../src/shared/validation/message-params';
import { buildFormModule, validateWith } from '../support/forms';
import { makeEditedCopy, type EditedCopy } from '../support/edited-schemas';
import { rulesOf } from '../support/schema-messages';
import { generateValidationSpec } from '../../tools/validation-spec/render';
import { specOptions, specRow } from '../../tools/validation-spec/read';
import { CLIENT_KEY, DATABASES, Harness, japaneseText, setUpOrFail, validRegistration } from '../support/api-harness';
import type { FormModule } from '../../src/engine/SchemaForm';

const FALLBACK = messages.form.fallbackFieldError;
let copy: EditedCopy;

beforeAll(() => {
  copy = makeEditedCopy();
});
afterAll(() => copy?.remove());

/** What the registration form says for its valid data with purpose_detail set to `text`. */
function detailErrors(form: FormModule, text: string) {
  const data = {
    password: 'Sora-Umi-2025!', password_confirm: 'Sora-Umi-2025!', last_name_kanji: '山田', first_name_kanji: '太郎',
    last_name_alphabet: 'Yamada', first_name_alphabet: 'Taro', birthday: '1988-07-15', gender: 'male', job: '1', industry: '8',
    zip_current: '100-0001', address_current: '東京都千代田区千代田1-1', phone: '090-1234-5678', mail_opt: '1', purpose: ['1'],
    purpose_detail: text, condition_checked: true,
  };
  return toFieldErrors(validateWith(form, data).errors, FALLBACK).purpose_detail;
}

describe('the precompiled client validator and the UI follow the edit', () => {
  it('the copy: n is accepted, n+1 refused with the message naming the new limit', async () => {
    const form = await buildFormModule('register-profile', copy.schemasDir);
    const rules = rulesOf('register-profile', copy.schemasDir);
    expect(rules.limit('purpose_detail', 'maxLength')).toBe(copy.after);
    expect(detailErrors(form, japaneseText(copy.after))).toBeUndefined();
    const message = rules.message('purpose_detail', 'maxLength');
    expect(message).toContain(String(copy.after));
    expect(detailErrors(form, japaneseText(copy.after + 1))).toEqual([message]);
  });

  it('the copy: the placeholder states the new limit, filled from the schema node', async () => {
    const form = await buildFormModule('register-profile', copy.schemasDir);
    const original = await buildFormModule('register-profile');
    const placeholder = (f: FormModule) => (f.uiSchema.purpose_detail as Record<string, string>)['ui:placeholder'];
    expect(placeholder(form)).toContain(`〜${copy.after}文字`);
    expect(placeholder(original)).toContain(`〜${copy.before}文字`);
    expect(placeholder(form)).toBe(placeholder(original).replace(String(copy.before), String(copy.after)));
  });

  it('the copy: the reworded message is what the member reads', async () => {
    const form = await buildFormModule('register-profile', copy.schemasDir);
    expect(detailErrors(form, `${japaneseText(30)}https://example.jp`)).toEqual([copy.banMessage]);
  });

  it('the project\'s own schemas still give the original answers', async () => {
    const form = await buildFormModule('register-profile');
    const rules = rulesOf('register-profile');
    expect(rules.limit('purpose_detail', 'maxLength')).toBe(copy.before);
    expect(detailErrors(form, japaneseText(copy.before + 1))).toEqual([rules.message('purpose_detail', 'maxLength')]);
    expect(detailErrors(form, `${japaneseText(30)}https://example.jp`)).toEqual([rules.message('purpose_detail', 'not')]);
    expect(fillMessage('{limit}文字以内', { maxLength: copy.before }, 'maxLength')).toBe(`${copy.before}文字以内`);
  });

  it('the generated validation spec (docs/validation-spec.md, `npm run spec`) follows the same edit', () => {
    const edited = specRow(generateValidationSpec({ schemasDir: copy.schemasDir, messagesDir: copy.messagesDir }), 'register-profile', 'purpose_detail')!;
    const original = specRow(generateValidationSpec(), 'register-profile', 'purpose_detail')!;
    const cells = (row: Record<string, string>) => Object.values(row).join('\n');
    expect(cells(edited)).toContain(`${copy.after}文字`);
    expect(cells(edited)).toContain(copy.banMessage);
    expect(cells(original)).not.toContain(copy.banMessage);
    const options = specOptions(generateValidationSpec({ schemasDir: copy.schemasDir, messagesDir: copy.messagesDir }), 'purpose');
    expect(options.map((row) => Object.values(row).join(' '))).toContain(`\`${copy.option.value}\` ${copy.option.label}`);
  });
});

describe.each(DATABASES)('the server follows the edit ($name)', ({ kind }) => {
  let edited: Harness;
  let original: Harness;
  setUpOrFail(async () => {
    edited = await Harness.start(kind, { schemasDir: copy.schemasDir });
    original = await Harness.start(kind);
  });
  afterAll(async () => {
    await edited?.close();
    await original?.close();
  });

  async function register(h: Harness, overrides: Record<string, unknown>) {
    const { email, code } = await h.verifiedEmail();
    return h.register(validRegistration(email, code, overrides));
  }

  it('n is accepted and n+1 refused with the new limit\'s message; the original refuses n', async () => {
    const rules = rulesOf('register-profile', copy.schemasDir);
    expect((await register(edited, { purpose_detail: japaneseText(copy.after) })).statusCode).toBe(200);
    const refused = await register(edited, { purpose_detail: japaneseText(copy.after + 1) });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().fields).toEqual({ purpose_detail: [rules.message('purpose_detail', 'maxLength')] });
    const before = await register(original, { purpose_detail: japaneseText(copy.after) });
    expect(before.json().fields).toEqual({ purpose_detail: [rulesOf('register-profile').message('purpose_detail', 'maxLength')] });
  });

  it('the reworded message comes back from the server', async () => {
    const res = await register(edited, { purpose_detail: `${japaneseText(30)}https://example.jp` });
    expect(res.json().fields).toEqual({ purpose_detail: [copy.banMessage] });
  });

  it('the new option is served, and accepted; the original list does not know it', async () => {
    const list = await edited.app.inject({ method: 'GET', url: '/v1/master/options?master_name=purpose', headers: { 'x-client-key': CLIENT_KEY } });
    expect(list.json()).toContainEqual(copy.option);
    expect((await register(edited, { purpose: [copy.option.value] })).statusCode).toBe(200);
    const unknown = await register(original, { purpose: [copy.option.value] });
    expect(unknown.json().fields).toEqual({ purpose: [messages.api.MASTER_UNKNOWN] });
  });
});
