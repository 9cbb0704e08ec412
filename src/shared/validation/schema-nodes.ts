// Reading a bundled schema (every $ref local, see schema-bundle.ts) field by field: what a field
// node says once its $ref is followed, and which fields a form has, conditional ones included.
import type { JsonObject } from './schema-bundle.ts';

const LOCAL_DEF = /^#\/\$defs\/(.+)$/;

/** A node with its local `$ref` chain merged in: the referring node's own keywords win, as they
 *  do for rjsf, and as ajv applies both; its messages are merged keyword by keyword. */
export function resolveNode(root: JsonObject, node: JsonObject, seen = new Set<string>()): JsonObject {
  const ref = typeof node.$ref === 'string' ? LOCAL_DEF.exec(node.$ref) : null;
  if (!ref || seen.has(ref[1])) return node;
  const target = (root.$defs as Record<string, JsonObject> | undefined)?.[ref[1]];
  if (!target) return node;
  seen.add(ref[1]);
  const { $ref: _ref, ...own } = node;
  void _ref;
  const resolved = resolveNode(root, target, seen);
  const messages = [resolved.errorMessage, own.errorMessage];
  const merged = messages.every((m) => m && typeof m === 'object') ? { errorMessage: Object.assign({}, ...messages) as JsonObject } : {};
  return { ...resolved, ...own, ...merged };
}

/** The places a form states properties: its own, and those of each if/then/else branch. */
export function propertyBlocks(root: JsonObject): JsonObject[] {
  const blocks: JsonObject[] = [root];
  const conditionals = [root, ...((root.allOf as JsonObject[] | undefined) ?? [])];
  for (const item of conditionals) {
    for (const branch of ['then', 'else'] as const) {
      if (item.if && item[branch]) blocks.push(item[branch] as JsonObject);
    }
  }
  return blocks;
}

const FIELD_NODES = new WeakMap<JsonObject, Readonly<Record<string, JsonObject>>>();

/** Marks a schema as finished (prepareSchema's result): nothing changes it from now on, so what
 *  is worked out from it may be kept. */
export function finished(root: JsonObject): JsonObject {
  FIELD_NODES.set(root, Object.freeze(resolveFieldNodes(root)));
  return root;
}

/** Every field of a form by name, resolved; a conditional field's node merges its branch.
 *  Worked out once per finished schema (the server asks on every request that shows a record);
 *  a schema still being prepared is resolved as it stands. */
export function fieldNodes(root: JsonObject): Readonly<Record<string, JsonObject>> {
  return FIELD_NODES.get(root) ?? resolveFieldNodes(root);
}

function resolveFieldNodes(root: JsonObject): Record<string, JsonObject> {
  const out: Record<string, JsonObject> = {};
  for (const block of propertyBlocks(root)) {
    for (const [name, node] of Object.entries((block.properties as Record<string, JsonObject>) ?? {})) {
      out[name] = { ...(out[name] ?? {}), ...resolveNode(root, node) };
    }
  }
  return out;
}

/** Fields that only a condition brings in (purpose_other when "other" is chosen), with the
 *  condition's branch: they are not among the form's own properties. */
export function conditionalFields(root: JsonObject): Array<{ condition: JsonObject; branch: 'then' | 'else'; fields: string[] }> {
  const own = new Set(Object.keys((root.properties as JsonObject) ?? {}));
  const out: Array<{ condition: JsonObject; branch: 'then' | 'else'; fields: string[] }> = [];
  for (const item of [root, ...((root.allOf as JsonObject[] | undefined) ?? [])]) {
    if (!item.if) continue;
    for (const branch of ['then', 'else'] as const) {
      const props = Object.keys(((item[branch] as JsonObject | undefined)?.properties as JsonObject) ?? {}).filter((name) => !own.has(name));
      if (props.length) out.push({ condition: item.if as JsonObject, branch, fields: props });
    }
  }
  return out;
}

const SCHEMA_MAPS = new Set(['properties', '$defs', 'patternProperties', 'dependentSchemas']);
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
const SCHEMA_SLOTS = new Set(['items', 'not', 'if', 'then', 'else', 'contains', 'additionalProperties', 'propertyNames']);

/** Visits every schema object in a tree (including $defs), parents first, with the name of the
 *  nearest property or definition it sits in. */
export function walkNodes(node: unknown, visit: (node: JsonObject, name: string | undefined) => void, name?: string): void {
  if (!node || typeof node !== 'object' || Array.isArray(node)) return;
  visit(node as JsonObject, name);
  for (const [key, value] of Object.entries(node as JsonObject)) {
    if (SCHEMA_MAPS.has(key) && value && typeof value === 'object') Object.entries(value).forEach(([child, sub]) => walkNodes(sub, visit, child));
    else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) value.forEach((child) => walkNodes(child, visit, name));
    else if (SCHEMA_SLOTS.has(key)) walkNodes(value, visit, name);
  }
}

/** Each field's `default`, where its node gives one. */
export function fieldDefaults(root: JsonObject): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fieldNodes(root)).filter(([, node]) => 'default' in node).map(([name, node]) => [name, node.default]));
}
