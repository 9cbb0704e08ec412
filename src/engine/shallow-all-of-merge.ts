// rjsf merges a schema's `allOf` into it with @x0k/json-schema-merge (about 4 KB gzip), a merge
// for any JSON schema. The forms' `allOf`s are few and plain (tests/contract/all-of-merge.test.ts
// lists the keywords they bring): a form's conditions (`if`/`then`, which rjsf resolves before it
// merges) add properties and required fields, and a new password's rules add lengths and
// patterns. This merges exactly those as the library does, a left fold of the subschemas into the
// schema, and refuses loudly any other keyword two subschemas both give with different values;
// the contract test holds, for every form, that it gives the library's result for each merge rjsf
// asks of it. The client gets it from the form modules of forms with an `allOf`
// (tools/vite-plugin-forms.ts, src/engine/all-of-merge.ts, ADR 029).
type Schema = Record<string, unknown>;

/** How the library merges a keyword both schemas have, for the keywords the forms' allOfs bring
 *  (from @x0k/json-schema-merge's merge rules). */
const RULES: Record<string, (a: never, b: never) => unknown> = {
  minLength: Math.max,
  minItems: Math.max,
  maxLength: Math.min,
  maxItems: Math.min,
  pattern: (a: string, b: string) => `(?=.*(?:${a}))(?=.*(?:${b}))`,
  required: (a: string[], b: string[]) => [...new Set([...a, ...b])],
  properties: (a: Record<string, Schema>, b: Record<string, Schema>) => {
    const merged = { ...a };
    for (const [key, schema] of Object.entries(b)) merged[key] = key in a ? mergeTwo(a[key], schema) : schema;
    return merged;
  },
};

/** Keywords that only annotate: the library keeps the first schema's. So does it for keywords it
 *  does not know (the `x-` ones, ajv-errors' errorMessage). */
const ANNOTATIONS = new Set(['title', 'description', 'examples', 'default', '$comment', 'errorMessage']);

function mergeTwo(a: Schema, b: Schema): Schema {
  const merged = { ...a };
  for (const [key, value] of Object.entries(b)) {
    if (!(key in a)) merged[key] = value;
    else if (key in RULES) merged[key] = RULES[key](a[key] as never, value as never);
    else if (!ANNOTATIONS.has(key) && !key.startsWith('x-') && JSON.stringify(a[key]) !== JSON.stringify(value)) {
      throw new Error(`The forms' allOf merge does not merge two different ${key}s (src/engine/shallow-all-of-merge.ts, ADR 029)`);
    }
  }
  return merged;
}

/** rjsf's shallowAllOfMerge for the forms' schemas: the schema with its `allOf` merged in. A
 *  subschema with a condition (`if`/`then`/`else`, left unresolved when rjsf drops data the schema
 *  does not describe) is not merged: the first one's condition moves up into the schema, the
 *  others stay in its `allOf`, as the library does. */
export default function shallowAllOfMerge(schema: Schema): Schema {
  const { allOf, ...rest } = schema;
  let merged: Schema = rest;
  const kept: Schema[] = [];
  for (const sub of allOf as Schema[]) {
    const conditional = 'if' in sub || 'then' in sub || 'else' in sub;
    if (!conditional) merged = mergeTwo(merged, sub);
    else if (!('if' in merged) && !kept.length && Object.keys(sub).every((key) => key === 'if' || key === 'then' || key === 'else')) merged = { ...merged, ...sub };
    else kept.push(sub);
  }
  return kept.length ? { ...merged, allOf: kept } : merged;
}
