// Each typed field's own validator (tools/field-schemas.ts, what a text field runs on each key,
// ADR 028) says exactly what the form says of that field once it has caught up: the messages rjsf
// puts under the field from the whole form's validator, for the same data. Cases come from the
// schemas (a valid sample, each field's limits, examples and counter-examples, the field missing,
// a conditional field missing while its condition holds) plus a few typed texts of every kind.
import { describe, expect, it } from 'vitest';
import { formNames, loadMasterLists } from '../../src/shared/validation/schema-files';
import type { JsonObject } from '../../src/shared/validation/schema-bundle';
import { normalise } from '../../src/shared/normalise';
import { liveValidatorFor, type FormModule } from '../../src/engine/SchemaForm';
import { fieldMessages } from '../../src/engine/field-verdict';
import { transformErrors } from '../../src/engine/transform-errors';
import { fieldNames, fieldSchema } from '../../tools/field-schemas';
import { buildFormModule } from '../support/forms';
import { browserFieldErrors } from '../support/field-messages';
import { FormSamples } from '../support/schema-samples';

const masters = loadMasterLists();
const TYPED = ['a', 'A1!', '  x  ', '１２３－４５', '山田', 'ﾔﾏﾀﾞ', '😀', 'taro@example.com', '090-1234-5678', '1990/4/5', 'Sample-Pass1!', 'a'.repeat(300)];

/** What the form shows under field `name` for `data` (rjsf's error schema, as FieldTemplate gets it). */
function formMessages(form: FormModule, name: string, data: Record<string, unknown>): string[] {
  const { errorSchema } = liveValidatorFor(form).validateFormData(data, form.schema, undefined, transformErrors);
  return ((errorSchema as Record<string, { __errors?: string[] } | undefined>)[name]?.__errors ?? []) as string[];
}

describe.each(formNames())('field validators of form %s', (formName) => {
  it('give each typed field the form’s own messages for it, case by case', async () => {
    const form = await buildFormModule(formName);
    const schema = form.schema as JsonObject;
    const samples = new FormSamples(schema, masters, (data) => browserFieldErrors(form, normalise(schema, data)));
    const typed = Object.keys(form.fieldValidateFns ?? {});
    expect(typed.sort()).toEqual(fieldNames(schema).sort());
    const base = samples.valid();
    const cases: Array<{ name: string; data: Record<string, unknown> }> = samples.cases().filter((c) => typed.includes(c.field)).map((c) => ({ name: c.field, data: c.data }));
    for (const name of typed) {
      const data = samples.withField(name, base);
      const { [name]: _missing, ...without } = data;
      cases.push({ name, data: without }, ...TYPED.map((text) => ({ name, data: { ...data, [name]: text } })));
    }
    let refused = 0;
    for (const { name, data } of cases) {
      const expected = formMessages(form, name, data);
      if (expected.length) refused++;
      expect(fieldMessages(form, name, data), `${formName}.${name} = ${JSON.stringify(data[name])}`).toEqual(expected);
    }
    // the cases do make the fields say something
    if (typed.length) expect(refused).toBeGreaterThan(typed.length);
  });
});

describe('a field schema is the form’s schema about that field only', () => {
  const root: JsonObject = {
    type: 'object',
    required: ['a', 'kind'],
    properties: { a: { $ref: '#/$defs/text' }, kind: { type: 'string', enum: ['x', 'y'] } },
    allOf: [{ if: { properties: { kind: { const: 'y' } } }, then: { properties: { b: { type: 'string', minLength: 2 } }, required: ['b'], errorMessage: { required: { b: 'B please' } } } }],
    errorMessage: { required: { a: 'A please' } },
    $defs: { text: { type: 'string', maxLength: 3 } },
  };

  it('takes the field’s node, its required message and the condition that brings it in; a list to choose from gets none', () => {
    expect(fieldNames(root)).toEqual(['a', 'b']);
    expect(fieldSchema(root, 'a')).toEqual({ properties: { a: { $ref: '#/$defs/text' } }, required: ['a'], errorMessage: { required: { a: 'A please' } } });
    expect(fieldSchema(root, 'b')).toEqual({
      allOf: [{ if: { properties: { kind: { const: 'y' } } }, then: { properties: { b: { type: 'string', minLength: 2 } }, required: ['b'], errorMessage: { required: { b: 'B please' } } } }],
    });
  });

  it('refuses a form whose root says something a field schema would leave out', () => {
    expect(() => fieldSchema({ ...root, dependentRequired: { a: ['b'] } }, 'a')).toThrow(/dependentRequired/);
    expect(() => fieldNames({ ...root, allOf: [{ anyOf: [] }] })).toThrow(/anyOf/);
  });
});
