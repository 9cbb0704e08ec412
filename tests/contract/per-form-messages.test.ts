// A form's own message for a shared field: written next to the field's `$ref` in the form
// (`"phone": { "$ref": "fields.json#/$defs/phone", "errorMessage": { "pattern": "…" } }`), it is
// what that form's precompiled validator, the server behind it and the generated validation spec
// say; every other form keeps the shared definition's message. Checked on a copy of schemas/
// whose edit form alone rewords phone's pattern message and states its length in {limit}.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import messages from '../../messages/ja.json';
import { toFieldErrors } from '../../src/shared/validation/field-errors';
import { fillMessage } from '../../src/shared/validation/message-params';
import { generateValidationSpec } from '../../tools/validation-spec/render';
import { specRow } from '../../tools/validation-spec/read';
import type { JsonObject } from '../../src/shared/validation/schema-bundle';
import { browserFieldErrors } from '../support/field-messages';
import { buildFormModule, validateWith } from '../support/forms';
import { copySchemas, type SchemasCopy } from '../support/edited-schemas';
import { rulesOf } from '../support/schema-messages';
import { DATABASES, Harness, setUpOrFail, validProfileUpdate, validRegistration } from '../support/api-harness';

const EDIT_PATTERN = '電話番号は半角数字とハイフンで入力してください（会員情報の変更のみの文言・テスト用）';
const EDIT_MAX_LENGTH = '電話番号は{limit}文字以内で入力してください（会員情報の変更のみ・テスト用）';
const BAD_PHONE = '090-1234-567a';

let copy: SchemasCopy;
/** The shared definition's messages, as the project's own schemas give them. */
const shared = { pattern: rulesOf('register-profile').message('phone', 'pattern'), maxLength: rulesOf('register-profile').message('phone', 'maxLength') };

beforeAll(() => {
  copy = copySchemas();
  copy.edit('forms/edit-profile.schema.json', (json) => {
    const phone = (json.properties as Record<string, JsonObject>).phone;
    expect(phone.$ref, 'the edit form refers to the shared phone').toBe('fields.json#/$defs/phone');
    expect(phone.pattern ?? phone.maxLength, 'the edit form states no phone rule of its own').toBeUndefined();
    phone.errorMessage = { pattern: EDIT_PATTERN, maxLength: EDIT_MAX_LENGTH };
  });
});
afterAll(() => copy?.remove());

describe('a message next to a $ref is the form\'s own', () => {
  it('the shared message is not the new one (the test means something)', () => {
    expect(shared.pattern).not.toBe(EDIT_PATTERN);
    expect(rulesOf('edit-profile').message('phone', 'pattern')).toBe(shared.pattern);
  });

  it('the edit form reads it, with {limit} filled from the shared definition\'s limit; registration keeps the shared one', () => {
    const edit = rulesOf('edit-profile', copy.schemasDir);
    expect(edit.message('phone', 'pattern')).toBe(EDIT_PATTERN);
    expect(edit.message('phone', 'maxLength')).toBe(fillMessage(EDIT_MAX_LENGTH, { maxLength: edit.limit('phone', 'maxLength') }, 'maxLength'));
    expect(edit.message('phone', 'maxLength')).toContain(`${edit.limit('phone', 'maxLength')}文字`);
    expect(rulesOf('register-profile', copy.schemasDir).message('phone', 'pattern')).toBe(shared.pattern);
    expect(rulesOf('register-profile', copy.schemasDir).message('phone', 'maxLength')).toBe(shared.maxLength);
  });

  it('the edit form\'s precompiled validator answers it, as the browser shows it; registration\'s the shared one', async () => {
    const edit = await buildFormModule('edit-profile', copy.schemasDir);
    const data = { ...validProfileUpdate('member@example.com', '1990-04-01'), purpose: ['2', '5'], phone: BAD_PHONE };
    expect(toFieldErrors(validateWith(edit, data).errors, messages.form.fallbackFieldError)).toEqual({ phone: [EDIT_PATTERN] });
    expect(browserFieldErrors(edit, data)).toEqual({ phone: [EDIT_PATTERN] });

    const register = await buildFormModule('register-profile', copy.schemasDir);
    const registration = { ...validRegistration('member@example.com', '12345'), condition_checked: true, phone: BAD_PHONE };
    expect(browserFieldErrors(register, registration)).toEqual({ phone: [shared.pattern] });
  });

  it('the regenerated validation spec shows it for the edit form only', () => {
    const spec = generateValidationSpec({ schemasDir: copy.schemasDir, messagesDir: copy.messagesDir });
    const text = (markdown: string, form: string) => Object.values(specRow(markdown, form, 'phone') ?? {}).join('\n');
    expect(text(spec, 'edit-profile')).toContain(EDIT_PATTERN);
    expect(text(spec, 'register-profile')).toBe(text(generateValidationSpec(), 'register-profile'));
    // Nowhere but under the edit form's heading.
    const elsewhere = spec.split(/^(?=#)/m).filter((section) => !/^#+ .*`edit-profile`/.test(section));
    expect(elsewhere.join('')).not.toContain(EDIT_PATTERN);
  });
});

describe.each(DATABASES)('the server answers the form\'s own message ($name)', ({ kind }) => {
  let h: Harness;
  setUpOrFail(async () => {
    h = await Harness.start(kind, { schemasDir: copy.schemasDir });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('PUT /v1/user/info (the edit form) answers the edit form\'s message', async () => {
    const member = await h.createMember();
    const { token } = await h.loginWithCode(member);
    const res = await h.updateInfo(token, validProfileUpdate(member.email, '1990-04-01', { phone: BAD_PHONE }));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().fields).toEqual({ phone: [EDIT_PATTERN] });
  });

  it('POST /v1/user/register (the registration form) answers the shared message', async () => {
    const { email, code } = await h.verifiedEmail();
    const res = await h.register(validRegistration(email, code, { phone: BAD_PHONE }));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().fields).toEqual({ phone: [shared.pattern] });
  });
});
