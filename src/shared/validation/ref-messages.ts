// A message written next to a `$ref` is the referring node's own message for that keyword,
// wherever along the reference the keyword is stated: the edit form's
// `"phone": { "$ref": "fields.json#/$defs/phone", "errorMessage": { "pattern": "…" } }` gives the
// edit form's phone its own pattern message, and every other form keeps the shared one.
// ajv-errors applies a node's `errorMessage` only to failures of keywords on that same node, so
// as written the message would be ignored. When a bundled schema is prepared, the referring node
// therefore gets its own copy of the definition (`fields.phone@phone`), with the message beside
// the keyword, and the message leaves the referring node. A keyword the referring node states
// itself (purpose_detail's maxLength beside its $ref) keeps its message there, as ajv applies it.
import type { JsonObject } from './schema-bundle.ts';
import { walkNodes } from './schema-nodes.ts';

const isObject = (v: unknown): v is JsonObject => !!v && typeof v === 'object' && !Array.isArray(v);
/** A ref to a whole local definition; a ref into part of one (`…/not`) is left as it is. */
const WHOLE_DEF = /^#\/\$defs\/([^/]+)$/;
/** ajv-errors entries about children, or about no keyword in particular. */
const NOT_A_KEYWORD = new Set(['required', 'properties', 'items', 'dependencies', 'dependentRequired', '_']);

/** `root` (bundled: every $ref local) with every message beside a $ref moved to the node stating
 *  its keyword, in a copy of each definition on the way. Changes `root` in place. */
export function withMessagesBesideRefs(root: JsonObject): JsonObject {
  if (!isObject(root.$defs)) return root;
  const defs = root.$defs as Record<string, JsonObject>;
  const finished = new Set<string>();

  /** A copy of `node` whose nodes stating a keyword of `messages` (itself, its allOf parts, what it
   *  refers to) carry that message, noting each keyword placed; undefined when none states any. */
  const carrying = (node: JsonObject, messages: Record<string, string>, label: string, placed: Set<string>): JsonObject | undefined => {
    const out = { ...node };
    let changed = false;
    const here = Object.keys(messages).filter((keyword) => node[keyword] !== undefined);
    if (here.length > 0) {
      if (typeof node.errorMessage === 'string') throw new Error(`${label}: a message for ${here.join(', ')} beside a $ref meets a definition with one message for every keyword`);
      out.errorMessage = { ...(isObject(node.errorMessage) ? node.errorMessage : {}), ...Object.fromEntries(here.map((k) => [k, messages[k]])) };
      here.forEach((keyword) => placed.add(keyword));
      changed = true;
    }
    if (Array.isArray(node.allOf)) {
      const parts = node.allOf.map((part) => (isObject(part) ? carrying(part, messages, label, placed) : undefined));
      if (parts.some(Boolean)) {
        out.allOf = node.allOf.map((part, i) => parts[i] ?? part);
        changed = true;
      }
    }
    const ref = typeof node.$ref === 'string' ? WHOLE_DEF.exec(node.$ref) : null;
    if (ref) {
      finish(ref[1]);
      const copy = isObject(defs[ref[1]]) ? carrying(defs[ref[1]], messages, label, placed) : undefined;
      if (copy) {
        out.$ref = `#/$defs/${store(`${ref[1]}@${label}`, copy)}`;
        changed = true;
      }
    }
    return changed ? out : undefined;
  };

  /** Adds a copy under a free name near `wanted`; a copy is finished as it is made. */
  const store = (wanted: string, copy: JsonObject): string => {
    let name = wanted;
    for (let n = 2; name in defs; n++) name = `${wanted}-${n}`;
    defs[name] = copy;
    finished.add(name);
    return name;
  };

  const moveWithin = (tree: JsonObject, label: string | undefined) =>
    walkNodes(tree, (node, name) => {
      const messages = node.errorMessage;
      if (typeof node.$ref !== 'string' || !WHOLE_DEF.test(node.$ref) || !isObject(messages)) return;
      const moving = Object.fromEntries(
        Object.entries(messages).filter((entry): entry is [string, string] => !NOT_A_KEYWORD.has(entry[0]) && typeof entry[1] === 'string' && node[entry[0]] === undefined),
      );
      if (Object.keys(moving).length === 0) return;
      const placed = new Set<string>();
      const { errorMessage: _own, ...rest } = node;
      void _own;
      const copy = carrying(rest, moving, name ?? label ?? 'root', placed);
      const unplaced = Object.keys(moving).filter((keyword) => !placed.has(keyword));
      if (unplaced.length > 0) throw new Error(`The message for ${unplaced.join(', ')} beside $ref ${node.$ref} has no such keyword in what it refers to`);
      node.$ref = copy!.$ref;
      if (copy!.allOf) node.allOf = copy!.allOf;
      for (const keyword of Object.keys(moving)) delete messages[keyword];
      if (Object.keys(messages).length === 0) delete node.errorMessage;
    }, label);

  /** A definition's own messages beside its refs are moved before anyone copies it. */
  const finish = (name: string) => {
    if (finished.has(name)) return;
    finished.add(name);
    if (isObject(defs[name])) moveWithin(defs[name], name);
  };

  const { $defs: _defs, ...body } = root;
  void _defs;
  moveWithin(body, undefined);
  for (const name of Object.keys(defs)) finish(name);
  return { ...body, $defs: defs };
}
