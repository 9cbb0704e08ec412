import { describe, expect, it } from 'vitest';
import { withDerivedLimits } from '../../src/shared/validation/derived-limits';
import { loadSharedSchemas } from '../../src/shared/validation/schema-files';
import type { JsonObject } from '../../src/shared/validation/schema-bundle';

const doc = (defs: Record<string, JsonObject>): JsonObject => ({ $id: 't.json', $defs: defs });
const defsOf = (d: JsonObject) => d.$defs as Record<string, JsonObject>;

describe('x-limits-from', () => {
  it('gives a node the limit of the definition it names, along that one\'s $ref chain, leaving the input as it was', () => {
    const input = doc({ base: { maxLength: 13 }, phone: { $ref: '#/$defs/base' }, reset: { minLength: 8, 'x-limits-from': { maxLength: 'phone' } }, again: { 'x-limits-from': { maxLength: 'reset' } } });
    const out = defsOf(withDerivedLimits(input));
    expect(out.reset.maxLength).toBe(13);
    expect(out.again.maxLength).toBe(13);
    expect(defsOf(input).reset.maxLength).toBeUndefined();
  });

  it('refuses a limit stated twice, an unknown or limitless source and a cycle', () => {
    expect(() => withDerivedLimits(doc({ a: { maxLength: 3 }, b: { maxLength: 4, 'x-limits-from': { maxLength: 'a' } } }))).toThrow(/states maxLength/);
    expect(() => withDerivedLimits(doc({ b: { 'x-limits-from': { maxLength: 'nope' } } }))).toThrow(/no definition "nope"/);
    expect(() => withDerivedLimits(doc({ a: {}, b: { 'x-limits-from': { maxLength: 'a' } } }))).toThrow(/"a" has no maxLength/);
    expect(() => withDerivedLimits(doc({ a: { 'x-limits-from': { maxLength: 'b' } }, b: { 'x-limits-from': { maxLength: 'a' } } }))).toThrow(/cycle/);
  });

  it('the password reset\'s phone takes registration\'s maximum when the shared fields are read', () => {
    const fields = defsOf(loadSharedSchemas()['fields.json']);
    expect(fields.resetPhone.maxLength).toBe(fields.phone.maxLength);
  });
});
