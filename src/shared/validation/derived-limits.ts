// A limit one shared field takes from another: `"x-limits-from": { "maxLength": "phone" }` gives
// the node the maxLength of `$defs/phone` (along its $ref chain) when the shared documents are
// read. A number is then written once, and a field that must accept what another field stores
// (the password reset's phone, registration's phone: docs/decisions/018) follows its edits.
import type { JsonObject } from './schema-bundle.ts';

const isObject = (v: unknown): v is JsonObject => !!v && typeof v === 'object' && !Array.isArray(v);
const LOCAL_DEF = /^#\/\$defs\/([^/]+)$/;

/** `doc` (a shared document) with every `x-limits-from` filled in; the input is not changed. */
export function withDerivedLimits(doc: JsonObject): JsonObject {
  const defs = doc.$defs;
  if (!isObject(defs) || !Object.values(defs).some((def) => isObject(def) && 'x-limits-from' in def)) return doc;
  const out = JSON.parse(JSON.stringify(doc)) as JsonObject;
  const outDefs = out.$defs as Record<string, JsonObject>;

  const valueOf = (name: string, keyword: string, seen: string[]): number => {
    if (seen.includes(name)) throw new Error(`x-limits-from: a cycle through ${[...seen, name].join(' → ')}`);
    const def = (defs as Record<string, JsonObject>)[name];
    if (!isObject(def)) throw new Error(`x-limits-from: no definition "${name}"`);
    if (typeof def[keyword] === 'number') return def[keyword] as number;
    const from = def['x-limits-from'];
    if (isObject(from) && typeof from[keyword] === 'string') return valueOf(from[keyword] as string, keyword, [...seen, name]);
    const ref = typeof def.$ref === 'string' ? LOCAL_DEF.exec(def.$ref) : null;
    if (ref) return valueOf(ref[1], keyword, [...seen, name]);
    throw new Error(`x-limits-from: "${name}" has no ${keyword}`);
  };

  for (const [name, def] of Object.entries(outDefs)) {
    const from = def['x-limits-from'];
    if (from === undefined) continue;
    if (!isObject(from)) throw new Error(`x-limits-from of "${name}" must map keywords to definition names`);
    for (const [keyword, source] of Object.entries(from)) {
      if (keyword in def) throw new Error(`"${name}" states ${keyword} and also takes it from "${String(source)}"`);
      if (typeof source !== 'string') throw new Error(`x-limits-from of "${name}": ${keyword} must name a definition`);
      def[keyword] = valueOf(source, keyword, [name]);
    }
  }
  return out;
}
