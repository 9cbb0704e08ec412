// The schema files are the specification of the field rules: changing a limit or a message in
// schemas/ changes what the precompiled validators say, with no code change.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import messages from '../../messages/ja.json';
import { toFieldErrors } from '../../src/shared/validation/field-errors';
import { SCHEMAS_DIR } from '../../src/shared/validation/schema-files';
import type { JsonObject } from '../../src/shared/validation/schema-bundle';
import { buildFormModule, validateWith } from '../support/forms';

const FALLBACK = messages.form.fallbackFieldError;
const ORIGINAL_REQUIRED = '認証コードを5桁の数字で入力してください';
const CHANGED_REQUIRED = '認証コードが入力されていません（テスト用の文言）';

let copy: string;

function editJson(file: string, edit: (json: JsonObject) => void) {
  const json = JSON.parse(readFileSync(file, 'utf8')) as JsonObject;
  edit(json);
  writeFileSync(file, JSON.stringify(json, null, 2));
}

beforeAll(() => {
  copy = mkdtempSync(join(tmpdir(), 'schemas-'));
  cpSync(SCHEMAS_DIR, copy, { recursive: true });
  // The shared code5 field takes 6 digits in the copy…
  editJson(join(copy, 'shared', 'fields.json'), (json) => {
    const code5 = (json.$defs as Record<string, JsonObject>).code5;
    code5.pattern = '^[0-9]{6}$';
    (code5.errorMessage as JsonObject).pattern = '認証コードは6桁の数字で入力してください';
  });
  // …and the login-code form words its required message differently.
  editJson(join(copy, 'forms', 'login-code.schema.json'), (json) => {
    ((json.errorMessage as JsonObject).required as JsonObject).code = CHANGED_REQUIRED;
  });
});

afterAll(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
});

describe('changing schemas/ changes the verdicts, with no code edit', () => {
  it('the original schemas: 5 digits pass, 6 fail with the 5-digit message', async () => {
    const form = await buildFormModule('login-code');
    expect(validateWith(form, { code: '12345' }).valid).toBe(true);
    const six = validateWith(form, { code: '123456' });
    expect(six.valid).toBe(false);
    expect(toFieldErrors(six.errors, FALLBACK)).toEqual({ code: ['認証コードは5桁の数字で入力してください'] });
    expect(toFieldErrors(validateWith(form, {}).errors, FALLBACK)).toEqual({ code: [ORIGINAL_REQUIRED] });
  });

  it('the edited copy: the limit moves to 6 digits and the messages follow', async () => {
    const form = await buildFormModule('login-code', copy);
    expect(validateWith(form, { code: '123456' }).valid).toBe(true);
    const five = validateWith(form, { code: '12345' });
    expect(five.valid).toBe(false);
    expect(toFieldErrors(five.errors, FALLBACK)).toEqual({ code: ['認証コードは6桁の数字で入力してください'] });
    expect(toFieldErrors(validateWith(form, {}).errors, FALLBACK)).toEqual({ code: [CHANGED_REQUIRED] });
  });

  it('the original directory still gives the original verdicts afterwards', async () => {
    const form = await buildFormModule('login-code');
    expect(validateWith(form, { code: '12345' }).valid).toBe(true);
    expect(validateWith(form, { code: '123456' }).valid).toBe(false);
    expect(toFieldErrors(validateWith(form, {}).errors, FALLBACK)).toEqual({ code: [ORIGINAL_REQUIRED] });
    expect(JSON.parse(readFileSync(join(SCHEMAS_DIR, 'shared', 'fields.json'), 'utf8')).$defs.code5.pattern).toBe('^[0-9]{5}$');
  });

  it('a shared change reaches every form that refs it (the login form is unaffected by code5)', async () => {
    const original = await buildFormModule('login');
    const edited = await buildFormModule('login', copy);
    const data = { email: 'taro@example.com', password: 'x' };
    expect(validateWith(edited, data).valid).toBe(validateWith(original, data).valid);
    expect(edited.schema).toEqual(original.schema);
  });
});
