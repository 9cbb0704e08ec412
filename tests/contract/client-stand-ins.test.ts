// The client bundle swaps two libraries that rjsf imports for small stand-ins (ADR 017,
// tools/vite-plugin-slim-client.ts). That is only right while the forms need neither: no UI
// schema asks for markdown, and every `$ref` of a bundled form is a fragment of that form.
import { describe, expect, it } from 'vitest';
import { formNames, loadBundledForm } from '../../src/shared/validation/schema-files';
import fragmentUri from '../../src/engine/fragment-uri';

function* walk(value: unknown, path = ''): Generator<[string, string, unknown]> {
  if (!value || typeof value !== 'object') return;
  for (const [key, child] of Object.entries(value)) {
    yield [path, key, child];
    yield* walk(child, `${path}/${key}`);
  }
}

describe.each(formNames())('form %s', (name) => {
  const { schema, uiSchema } = loadBundledForm(name);

  it('asks for no markdown rendering (rjsf’s markdown-to-jsx is not bundled)', () => {
    const markdown = [...walk(uiSchema)].filter(([, key, value]) => /^(ui:)?enableMarkdownIn/.test(key) && value).map(([path, key]) => `${path}/${key}`);
    expect(markdown).toEqual([]);
  });

  it('has same-document $refs only and no $id (fast-uri is not bundled)', () => {
    const refs = [...walk(schema)].filter(([, key]) => key === '$ref').map(([, , value]) => String(value));
    expect(refs.filter((ref) => !ref.startsWith('#'))).toEqual([]);
    expect([...walk(schema)].filter(([, key]) => key === '$id')).toEqual([]);
    for (const ref of refs) expect(fragmentUri.resolve('#', ref)).toBe(ref);
  });
});

describe('the fast-uri stand-in', () => {
  it('refuses what it cannot resolve instead of resolving it wrongly', () => {
    expect(() => fragmentUri.resolve('#', 'https://example.com/other.json#/x')).toThrow(/same-document/);
    expect(() => fragmentUri.equal('a', 'a')).toThrow(/same-document/);
  });
});
