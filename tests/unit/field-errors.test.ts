import { describe, expect, it } from 'vitest';
import type { ErrorObject } from 'ajv';
import type { RJSFSchema } from '@rjsf/utils';
import { customizeValidator } from '@rjsf/validator-ajv8';
import { ajvOptions, createAjv, withErrorMessages } from '../../src/shared/validation/ajv-setup';
import { errorPaths, hasSchemaMessage, toFieldErrors } from '../../src/shared/validation/field-errors';
import { transformErrors } from '../../src/engine/transform-errors';
import messages from '../../messages/ja.json';

const FALLBACK = '入力内容をご確認ください';

const TWO_REQUIRED = (message: string) => ({
  type: 'object',
  required: ['a', 'b'],
  properties: { a: { type: 'string' }, b: { type: 'string' } },
  errorMessage: { required: message },
});

function errorsFor(schema: object, data: unknown): ErrorObject[] {
  const validate = createAjv().compile(schema);
  expect(validate(data)).toBe(false);
  return validate.errors ?? [];
}

describe('toFieldErrors', () => {
  it('puts an ajv-errors `required` message on the missing child, not on the object', () => {
    const schema = {
      type: 'object',
      required: ['email', 'password'],
      properties: { email: { type: 'string' }, password: { type: 'string' } },
      errorMessage: { required: { email: 'メールアドレスは必須です', password: 'パスワードを入力してください' } },
    };
    const fields = toFieldErrors(errorsFor(schema, {}), FALLBACK);
    expect(fields).toEqual({ email: ['メールアドレスは必須です'], password: ['パスワードを入力してください'] });
    expect(fields['']).toBeUndefined();
  });

  it('also for a single string `required` message', () => {
    const schema = { type: 'object', required: ['code'], properties: { code: { type: 'string' } }, errorMessage: { required: '認証コードは必須です' } };
    expect(toFieldErrors(errorsFor(schema, {}), FALLBACK)).toEqual({ code: ['認証コードは必須です'] });
  });

  // ajv-errors folds every error of one keyword into a single errorMessage error
  // (params.errors lists them all), so each missing child must get the message.
  it('puts a single string `required` message on every missing child, not only the first', () => {
    expect(toFieldErrors(errorsFor(TWO_REQUIRED('必須項目です'), {}), FALLBACK)).toEqual({ a: ['必須項目です'], b: ['必須項目です'] });
  });

  it('puts a `_` fallback message for missing properties on every missing child', () => {
    expect(toFieldErrors(errorsFor({ ...TWO_REQUIRED(''), errorMessage: { _: '入力してください' } }, {}), FALLBACK)).toEqual({
      a: ['入力してください'],
      b: ['入力してください'],
    });
  });

  it('uses dotted paths for nested fields and array items', () => {
    const schema = {
      type: 'object',
      properties: {
        address: {
          type: 'object',
          required: ['zip'],
          properties: { zip: { type: 'string', pattern: '^[0-9]{7}$', errorMessage: { pattern: '郵便番号は7桁の数字です' } } },
          errorMessage: { required: { zip: '郵便番号は必須です' } },
        },
        purpose: { type: 'array', items: { type: 'string', enum: ['a', 'b'], errorMessage: { enum: '選択肢から選んでください' } } },
      },
    };
    expect(toFieldErrors(errorsFor(schema, { address: { zip: '12' }, purpose: ['a', 'x'] }), FALLBACK)).toEqual({
      'address.zip': ['郵便番号は7桁の数字です'],
      'purpose.1': ['選択肢から選んでください'],
    });
    expect(toFieldErrors(errorsFor(schema, { address: {} }), FALLBACK)).toEqual({ 'address.zip': ['郵便番号は必須です'] });
  });

  it('drops the `if` wrapper error and keeps the message of the failed `then`', () => {
    const schema = {
      type: 'object',
      properties: { industry: { type: 'string' }, industry_other: { type: 'string' } },
      if: { properties: { industry: { const: 'other' } }, required: ['industry'] },
      then: { required: ['industry_other'], errorMessage: { required: { industry_other: 'その他の業種を入力してください' } } },
    };
    const errors = errorsFor(schema, { industry: 'other' });
    expect(errors.some((e) => e.keyword === 'if')).toBe(true);
    expect(toFieldErrors(errors, FALLBACK)).toEqual({ industry_other: ['その他の業種を入力してください'] });
  });

  it('gives errors without a schema message the fallback, never the English ajv text', () => {
    const schema = { type: 'object', properties: { age: { type: 'integer', minimum: 18 } }, required: ['name'] };
    const errors = errorsFor(schema, { age: 3 });
    expect(errors.every((e) => !hasSchemaMessage(e))).toBe(true);
    expect(toFieldErrors(errors, FALLBACK)).toEqual({ age: [FALLBACK], name: [FALLBACK] });
  });

  it('lists a message once per field', () => {
    const schema = { type: 'string', minLength: 5, pattern: '^[0-9]+$', errorMessage: { _: '5桁の数字で入力してください' } };
    const fields = toFieldErrors(errorsFor({ type: 'object', properties: { code: schema } }, { code: 'ab' }), FALLBACK);
    expect(fields).toEqual({ code: ['5桁の数字で入力してください'] });
  });

  it('returns {} for no errors', () => {
    expect(toFieldErrors(null, FALLBACK)).toEqual({});
    expect(toFieldErrors(undefined, FALLBACK)).toEqual({});
    expect(toFieldErrors([], FALLBACK)).toEqual({});
  });
});

describe('errorPaths', () => {
  const base = { schemaPath: '#', params: {}, message: 'x' };
  it('is the dotted instance path, the missing property appended for required', () => {
    expect(errorPaths({ ...base, keyword: 'pattern', instancePath: '/a/0/b' })).toEqual(['a.0.b']);
    expect(errorPaths({ ...base, keyword: 'required', instancePath: '/a', params: { missingProperty: 'b' } })).toEqual(['a.b']);
    expect(errorPaths({ ...base, keyword: 'type', instancePath: '' })).toEqual(['']);
  });
  it('is empty for wrapper keywords', () => {
    for (const keyword of ['if', 'allOf', 'anyOf', '$ref']) expect(errorPaths({ ...base, keyword, instancePath: '/x' })).toEqual([]);
  });
});

describe('transformErrors (the engine’s side of the same mapping)', () => {
  const validator = customizeValidator({ ajvOptionsOverrides: ajvOptions, extenderFn: withErrorMessages });
  const run = (schema: object, data: unknown) =>
    validator
      .validateFormData(data, schema as RJSFSchema, undefined, transformErrors)
      // rjsf writes a root field as "email" or ".email"; both land on the same field.
      .errors.map((e) => [`.${(e.property ?? '').replace(/^\./, '')}`, e.message] as const)
      .sort();

  it('puts per-property required messages under their fields', () => {
    const schema = { ...TWO_REQUIRED(''), errorMessage: { required: { a: 'Aは必須です', b: 'Bは必須です' } } };
    expect(run(schema, {})).toEqual([
      ['.a', 'Aは必須です'],
      ['.b', 'Bは必須です'],
    ]);
  });

  it('drops the `if` wrapper and puts an unmessaged root `required` under its field, with the fallback', () => {
    const schema = {
      type: 'object',
      properties: { kind: { type: 'string' }, other: { type: 'string', maxLength: 3 } },
      if: { properties: { kind: { const: 'x' } }, required: ['kind'] },
      then: { required: ['other'] },
    };
    expect(run(schema, { kind: 'x' })).toEqual([['.other', messages.form.fallbackFieldError]]);
  });

  it('puts a single string `required` message under every missing field', () => {
    expect(run(TWO_REQUIRED('必須項目です'), {})).toEqual([
      ['.a', '必須項目です'],
      ['.b', '必須項目です'],
    ]);
  });
});
