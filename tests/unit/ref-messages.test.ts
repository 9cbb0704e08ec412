// A message beside a $ref (src/shared/validation/ref-messages.ts): moved, when a schema is
// prepared, to the node along the reference that states its keyword, in a copy of the definition,
// so ajv-errors applies it; the shared definition and every other field keep their own.
import { describe, expect, it } from 'vitest';
import { createAjv } from '../../src/shared/validation/ajv-setup';
import { toFieldErrors } from '../../src/shared/validation/field-errors';
import { prepareSchema } from '../../src/shared/validation/prepare-schema';
import type { JsonObject } from '../../src/shared/validation/schema-bundle';
import { fieldNodes } from '../../src/shared/validation/schema-nodes';

const shared: Record<string, JsonObject> = {
  'f.json': {
    $id: 'f.json',
    $defs: {
      digits: { type: 'string', pattern: '^[0-9]*$', maxLength: 5, errorMessage: { pattern: 'shared pattern', maxLength: 'shared {limit}' } },
      // a definition that refers to another, with messages of its own for its own keyword
      code: { $ref: '#/$defs/digits', minLength: 5, errorMessage: { minLength: 'code too short' } },
      // a rule in an allOf part
      checked: { type: 'string', allOf: [{ minLength: 2, errorMessage: { minLength: 'shared part' } }] },
    },
  },
};

function errorsOf(schema: JsonObject, data: unknown) {
  const validate = createAjv().compile(schema);
  validate(data);
  return toFieldErrors(validate.errors, 'fallback');
}

describe('a message beside a $ref', () => {
  const form = prepareSchema(
    {
      type: 'object',
      properties: {
        mine: { $ref: 'f.json#/$defs/code', errorMessage: { pattern: 'form pattern', maxLength: 'form {limit}', minLength: 'form too short' } },
        theirs: { $ref: 'f.json#/$defs/code' },
        part: { $ref: 'f.json#/$defs/checked', errorMessage: { minLength: 'form part' } },
        limited: { $ref: 'f.json#/$defs/digits', maxLength: 3, errorMessage: { maxLength: 'form max {limit}', pattern: 'form digits' } },
      },
    },
    shared,
  );

  it('is what the field says, wherever along the reference its keyword sits ({limit} filled there)', () => {
    expect(errorsOf(form, { mine: '12a45' }).mine).toEqual(['form pattern']);
    expect(errorsOf(form, { mine: '123456' }).mine).toEqual(['form 5']);
    expect(errorsOf(form, { mine: '123' }).mine).toEqual(['form too short']);
    expect(errorsOf(form, { part: 'x' }).part).toEqual(['form part']);
  });

  it('a limit beside the $ref keeps its message there; its other messages still move', () => {
    expect(errorsOf(form, { limited: '1234' }).limited).toEqual(['form max 3']);
    expect(errorsOf(form, { limited: 'a' }).limited).toEqual(['form digits']);
  });

  it('another field referring to the same definition keeps the shared messages', () => {
    expect(errorsOf(form, { theirs: '12a45', part: 'xy' })).toEqual({ theirs: ['shared pattern'] });
    expect(errorsOf(form, { theirs: '123456' }).theirs).toEqual(['shared 5']);
    expect(errorsOf(form, { theirs: '123' }).theirs).toEqual(['code too short']);
  });

  it('the merged field node reads every message of the field', () => {
    const mine = fieldNodes(form).mine.errorMessage as JsonObject;
    expect(mine).toMatchObject({ pattern: 'form pattern', maxLength: 'form 5', minLength: 'form too short' });
    expect(fieldNodes(form).theirs.errorMessage).toMatchObject({ pattern: 'shared pattern', minLength: 'code too short' });
  });

  it('a message for a keyword that neither the node nor what it refers to has stops preparation', () => {
    expect(() => prepareSchema({ properties: { x: { $ref: 'f.json#/$defs/code', errorMessage: { format: 'nothing to say it for' } } } }, shared)).toThrow(/format.*no such keyword/);
  });
});
