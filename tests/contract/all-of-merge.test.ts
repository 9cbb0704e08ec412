// The client merges the forms' `allOf`s with a small merge (src/engine/shallow-all-of-merge.ts)
// instead of rjsf's @x0k/json-schema-merge (ADR 029). That is right while it gives the library's
// result for every merge rjsf asks of it: here every form's schema goes through the rjsf paths
// that merge (retrieveSchema, for the form and for each of its fields, and omitExtraData, which
// the engine runs on every change), under every combination of its conditions, and each merge
// rjsf asks is checked against the library's, key order included.
import { describe, expect, it } from 'vitest';
import { omitExtraData, retrieveSchema, type RJSFSchema } from '@rjsf/utils';
import realMerge from '@rjsf/utils/lib/schema/shallowAllOfMerge.js';
import validator from '@rjsf/validator-ajv8';
import smallMerge from '../../src/engine/shallow-all-of-merge';
import { formNames, loadBundledForm } from '../../src/shared/validation/schema-files';
import { formParts } from '../../tools/form-parts';

type Schema = Record<string, unknown>;

/** Form data that makes a condition's `if` hold: its consts, an array containing its const. */
function satisfying(condition: Schema): Schema {
  const data: Schema = {};
  for (const [field, rule] of Object.entries((condition.properties ?? {}) as Record<string, Schema>)) {
    if ('const' in rule) data[field] = rule.const;
    else if (rule.contains && typeof rule.contains === 'object' && 'const' in (rule.contains as Schema)) data[field] = [(rule.contains as Schema).const];
    else throw new Error(`no data for the condition on ${field}`);
  }
  return data;
}

/** Every merge rjsf asks of the form's schema: the inputs, recorded on their way to the library. */
function mergesOf(name: string): Schema[] {
  const root = loadBundledForm(name).schema as RJSFSchema;
  const asked: Schema[] = [];
  const record = (schema: RJSFSchema): RJSFSchema => {
    asked.push(structuredClone(schema) as Schema);
    return realMerge(schema) as RJSFSchema;
  };
  const conditions = ((root.allOf ?? []) as Schema[]).filter((sub) => sub.if).map((sub) => satisfying(sub.if as Schema));
  const filled: Schema = { password: 'Abcdefg1!', password_confirm: 'Abcdefg1!', new_password: 'Abcdefg1!', industry: '01', purpose: ['01'], industry_other: 'その他の業種', purpose_other: 'その他の目的'.repeat(4) };
  for (let mask = 0; mask < 2 ** conditions.length; mask++) {
    const data: Schema = { ...filled, extra: 'dropped' };
    conditions.forEach((condition, i) => mask & (2 ** i) && Object.assign(data, condition));
    const form = retrieveSchema(validator, root, root, data, record);
    for (const [field, schema] of Object.entries((form.properties ?? {}) as Record<string, RJSFSchema>)) retrieveSchema(validator, schema, root, data[field], record);
    omitExtraData(validator, root, root, data, record);
    omitExtraData(validator, root, root, {}, record);
  }
  return asked;
}

const withAllOf = formNames().filter((name) => formParts(loadBundledForm(name).schema, loadBundledForm(name).uiSchema).allOf);

describe('the forms’ allOf merge', () => {
  it('is asked for by the registration, edit and password forms (so the checks below have teeth)', () => {
    expect(withAllOf).toEqual(expect.arrayContaining(['register-profile', 'edit-profile', 'reset-password']));
  });

  it.each(withAllOf)('form %s: gives the library’s result for every merge rjsf asks', (name) => {
    const asked = mergesOf(name);
    expect(asked.length).toBeGreaterThan(0);
    for (const schema of asked) expect(JSON.stringify(smallMerge(structuredClone(schema)))).toBe(JSON.stringify(realMerge(structuredClone(schema) as RJSFSchema)));
  });

  it('refuses what it does not merge instead of merging it wrongly', () => {
    expect(() => smallMerge({ allOf: [{ type: 'string' }, { type: 'number' }] })).toThrow(/does not merge two different types/);
    expect(() => smallMerge({ allOf: [{ enum: ['a'] }, { enum: ['b'] }] })).toThrow(/does not merge/);
  });
});
