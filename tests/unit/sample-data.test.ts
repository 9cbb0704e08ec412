// The form review page's "fill sample data" must give data each form accepts: checked for
// every form with the form's own precompiled validator (as the browser runs it).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sampleData } from '../../src/shared/sample-data';
import { formNames, loadBundledForm, loadSharedSchemas, SCHEMAS_DIR } from '../../src/shared/validation/schema-files';
import type { JsonObject } from '../../src/shared/validation/schema-bundle';
import { toFieldErrors } from '../../src/shared/validation/field-errors';
import { buildFormModule, validateWith } from '../support/forms';
import { createAjv } from '../../src/shared/validation/ajv-setup';
import { applyNormalisers, normalisersOf } from '../../src/shared/normalise';

const masters = JSON.parse(readFileSync(join(SCHEMAS_DIR, 'masters', 'options.json'), 'utf8')) as Record<string, Array<{ value: string }>>;

describe('sample data generated from the schema', () => {
  it.each(formNames())('%s: the sample passes the form validator', async (name) => {
    const { schema, uiSchema } = loadBundledForm(name);
    const masterOf = (field: string) => ((uiSchema[field] as JsonObject | undefined)?.['ui:options'] as { master?: string } | undefined)?.master;
    const data = sampleData(schema, { masters, masterOf });
    const { valid, errors } = validateWith(await buildFormModule(name), data);
    expect(toFieldErrors(errors, 'fallback'), JSON.stringify(data)).toEqual({});
    expect(valid).toBe(true);
  });

  it('fills a field that a condition requires once the data meets it', () => {
    const schema: JsonObject = {
      type: 'object',
      required: ['kind'],
      properties: { kind: { type: 'string', default: '99' } },
      allOf: [{ if: { properties: { kind: { const: '99' } } }, then: { required: ['other'], properties: { other: { type: 'string', minLength: 3, pattern: '^[a-z]+$' } } } }],
    };
    expect(sampleData(schema)).toEqual({ kind: '99', other: 'aaa' });
  });

  it('copies a confirmation and keeps a value different from its sibling', () => {
    const schema: JsonObject = {
      type: 'object',
      required: ['a', 'b', 'c'],
      properties: {
        a: { type: 'string', examples: ['x@example.jp', 'y@example.jp'] },
        b: { type: 'string', examples: ['x@example.jp', 'y@example.jp'], differentFrom: 'a' },
        c: { type: 'string', sameAs: 'b' },
      },
    };
    expect(sampleData(schema)).toEqual({ a: 'x@example.jp', b: 'y@example.jp', c: 'y@example.jp' });
  });
});

describe('examples on the shared field definitions', () => {
  const ajv = createAjv();
  for (const doc of Object.values(loadSharedSchemas())) ajv.addSchema(doc);
  const cases = Object.entries(loadSharedSchemas()).flatMap(([id, doc]) =>
    Object.entries(doc.$defs as Record<string, JsonObject>).flatMap(([name, def]) =>
      (Array.isArray(def.examples) ? def.examples : []).map((example) => [`${id}#/$defs/${name}`, example] as const),
    ),
  );

  it('there are some (the sample data starts from them)', () => {
    expect(cases.length).toBeGreaterThan(10);
  });

  it.each(cases)('%s accepts its example %j', (ref, example) => {
    const validate = ajv.getSchema(ref);
    expect(validate, ref).toBeDefined();
    // As a member types it: the field's own normalisers run first, as on both sides.
    const [id, name] = ref.split('#/$defs/');
    const def = (loadSharedSchemas()[id].$defs as Record<string, JsonObject>)[name];
    const value = typeof example === 'string' ? applyNormalisers(example, normalisersOf(def)) : example;
    expect(validate!(value), JSON.stringify(validate!.errors)).toBe(true);
  });
});
