// Stands in for fast-uri inside @rjsf/utils in the client bundle (tools/vite-plugin-slim-client.ts).
// rjsf needs URI resolution only for `$ref`s to other documents and `$id`s; the bundled form
// schemas (ADR 001) carry neither: every `$ref` is a fragment of the same document
// ("#/$defs/fields.email"), which resolves to itself. tests/contract/client-stand-ins.test.ts holds
// that for every form. Anything else fails loudly instead of resolving wrongly.
const unsupported = (what: string) =>
  new Error(`Client forms support same-document $refs only ("#/..."), got ${what}; see ADR 017`);

function resolve(_base: string, ref: string): string {
  if (ref.startsWith('#')) return ref;
  throw unsupported(ref);
}

function equal(a: string, b: string): boolean {
  throw unsupported(`$id comparison ${a} / ${b}`);
}

export default { resolve, equal };
