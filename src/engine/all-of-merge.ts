// rjsf merges a schema's `allOf` with @x0k/json-schema-merge (about 4 KB gzip), which only the
// forms with an `allOf` need. In the client bundle rjsf's merge module is this one
// (tools/vite-plugin-slim-client.ts); the form module of a form with an `allOf` hands it the
// engine's merge for the forms' allOfs (src/engine/shallow-all-of-merge.ts, held to the library's
// results) when it loads (tools/vite-plugin-forms.ts), before any of its forms renders.
type Merge = (schema: object) => object;

let merge: Merge | undefined;

/** Called by a form module whose schema has an `allOf`. */
export function provideAllOfMerge(real: Merge) {
  merge = real;
}

export default function shallowAllOfMerge(schema: object): object {
  if (!merge) throw new Error('rjsf needs its allOf merge, which no form module has provided (src/engine/all-of-merge.ts, ADR 029)');
  return merge(schema);
}
