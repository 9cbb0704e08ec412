// Shared field definitions live in their own `$id` documents (schemas/shared/*.json) and are
// `$ref`ed as `<id>#/$defs/<name>`. ajv resolves those directly (the server adds every shared
// document), but rjsf only follows refs inside the form's own document, so forms handed to the
// browser are bundled: each referenced definition is copied into the form's `$defs` as
// `<id-stem>.<name>` and the ref rewritten to point there. A ref may point inside a definition
// (`#/$defs/noUrlOrHtml/not`): the definition is copied and the rest of the pointer kept.
// See docs/decisions/002.
export type JsonObject = { [key: string]: unknown };

const DEFS_REF = /^(?:([^#]+))?#\/\$defs\/([^/]+)(\/.*)?$/;

function stem(id: string): string {
  return id.replace(/\.json$/, '').replace(/[^A-Za-z0-9_-]/g, '_');
}

export function bundleSchema(root: JsonObject, shared: Record<string, JsonObject>): JsonObject {
  const defs: Record<string, unknown> = { ...((root.$defs as JsonObject) ?? {}) };
  const pending: Array<[string, string]> = [];

  const rewrite = (node: unknown, ownId: string | null): unknown => {
    if (Array.isArray(node)) return node.map((item) => rewrite(item, ownId));
    if (!node || typeof node !== 'object') return node;
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(node as JsonObject)) {
      if (key === '$ref' && typeof value === 'string') {
        const match = DEFS_REF.exec(value);
        const target = match?.[1] ?? ownId;
        if (!match || !target) {
          out[key] = value;
          continue;
        }
        if (!shared[target]) throw new Error(`Unknown shared schema "${target}" in $ref ${value}`);
        const local = `${stem(target)}.${match[2]}`;
        pending.push([target, match[2]]);
        out[key] = `#/$defs/${local}${match[3] ?? ''}`;
      } else {
        out[key] = rewrite(value, ownId);
      }
    }
    return out;
  };

  const body = rewrite({ ...root, $defs: undefined }, null) as JsonObject;
  while (pending.length > 0) {
    const [id, name] = pending.pop()!;
    const local = `${stem(id)}.${name}`;
    if (local in defs) continue;
    const def = (shared[id].$defs as JsonObject | undefined)?.[name];
    if (def === undefined) throw new Error(`No definition "${name}" in shared schema "${id}"`);
    defs[local] = null; // reserve before recursing, so self-references terminate
    defs[local] = rewrite(def, id);
  }
  delete body.$defs;
  return Object.keys(defs).length > 0 ? { ...body, $defs: defs } : body;
}
