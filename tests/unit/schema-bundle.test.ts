import { describe, expect, it } from 'vitest';
import { bundleSchema, type JsonObject } from '../../src/shared/validation/schema-bundle';
import { loadBundledForm, loadSharedSchemas } from '../../src/shared/validation/schema-files';
import { createAjv } from '../../src/shared/validation/ajv-setup';

const shared: Record<string, JsonObject> = {
  'fields.json': {
    $id: 'fields.json',
    $defs: {
      email: { type: 'string', format: 'email' },
      // refs another definition of the same document (without and with the document id)
      contactEmail: { allOf: [{ $ref: '#/$defs/email' }, { maxLength: 100 }] },
      loginEmail: { $ref: 'fields.json#/$defs/contactEmail' },
      // refs a definition of another document
      postal: { $ref: 'address.json#/$defs/zip' },
      // refs itself
      tree: { type: 'object', properties: { child: { $ref: '#/$defs/tree' } } },
    },
  },
  'address.json': { $id: 'address.json', $defs: { zip: { type: 'string', pattern: '^[0-9]{7}$' } } },
};

describe('bundleSchema', () => {
  it('rewrites a shared ref to a local $defs entry and copies the definition', () => {
    const out = bundleSchema({ type: 'object', properties: { email: { $ref: 'fields.json#/$defs/email' } } }, shared);
    expect(out).toEqual({
      type: 'object',
      properties: { email: { $ref: '#/$defs/fields.email' } },
      $defs: { 'fields.email': { type: 'string', format: 'email' } },
    });
  });

  it('copies transitive refs, inside and across documents', () => {
    const out = bundleSchema({ properties: { a: { $ref: 'fields.json#/$defs/loginEmail' }, b: { $ref: 'fields.json#/$defs/postal' } } }, shared);
    const defs = out.$defs as Record<string, JsonObject>;
    expect(Object.keys(defs).sort()).toEqual(['address.zip', 'fields.contactEmail', 'fields.email', 'fields.loginEmail', 'fields.postal']);
    expect(defs['fields.loginEmail']).toEqual({ $ref: '#/$defs/fields.contactEmail' });
    expect(defs['fields.contactEmail']).toEqual({ allOf: [{ $ref: '#/$defs/fields.email' }, { maxLength: 100 }] });
    expect(defs['fields.postal']).toEqual({ $ref: '#/$defs/address.zip' });
    expect(JSON.stringify(out)).not.toMatch(/"\$ref":"(?!#\/\$defs\/)/);
  });

  it('terminates on a self-referencing definition', () => {
    const out = bundleSchema({ $ref: 'fields.json#/$defs/tree' }, shared);
    expect((out.$defs as Record<string, JsonObject>)['fields.tree']).toEqual({
      type: 'object',
      properties: { child: { $ref: '#/$defs/fields.tree' } },
    });
  });

  it('keeps the form’s own $defs and its local refs', () => {
    const out = bundleSchema({ $defs: { own: { type: 'string' } }, properties: { a: { $ref: '#/$defs/own' } } }, shared);
    expect(out).toEqual({ properties: { a: { $ref: '#/$defs/own' } }, $defs: { own: { type: 'string' } } });
  });

  it('leaves a schema without refs as it was (no empty $defs)', () => {
    expect(bundleSchema({ type: 'string', minLength: 1 }, shared)).toEqual({ type: 'string', minLength: 1 });
  });

  it('does not modify its inputs', () => {
    const root = { properties: { email: { $ref: 'fields.json#/$defs/loginEmail' } } };
    const before = JSON.stringify({ root, shared });
    bundleSchema(root, shared);
    expect(JSON.stringify({ root, shared })).toBe(before);
  });

  it('fails on an unknown shared document', () => {
    expect(() => bundleSchema({ $ref: 'nope.json#/$defs/email' }, shared)).toThrow(/Unknown shared schema "nope\.json"/);
  });

  it('fails on an unknown definition of a known document', () => {
    expect(() => bundleSchema({ $ref: 'fields.json#/$defs/nope' }, shared)).toThrow(/No definition "nope" in shared schema "fields\.json"/);
  });

  it('fails on an unknown definition reached transitively', () => {
    const broken = { ...shared, 'fields.json': { $id: 'fields.json', $defs: { a: { $ref: '#/$defs/missing' } } } };
    expect(() => bundleSchema({ $ref: 'fields.json#/$defs/a' }, broken)).toThrow(/No definition "missing"/);
  });

  it('a bundled real form compiles on its own and needs no shared document', () => {
    const { schema } = loadBundledForm('login');
    expect(Object.keys(schema.$defs as JsonObject)).toEqual(expect.arrayContaining(['fields.email', 'fields.loginPassword']));
    const validate = createAjv().compile(schema);
    expect(validate({ email: 'taro@example.com', password: 'secret' })).toBe(true);
    expect(validate({ email: 'taro', password: 'secret' })).toBe(false);
    expect(Object.keys(loadSharedSchemas())).toContain('fields.json');
  });
});
