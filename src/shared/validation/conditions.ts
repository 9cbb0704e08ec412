// What a form's schema says beyond its fields' rules: which fields only count under a condition
// (purpose_other when "other" is among the purposes), and which option list each field draws
// from. Both are read from the schema, so no code names a field or a code of a list.
import type { JsonObject } from './schema-bundle.ts';
import { conditionalFields, fieldNodes, resolveNode } from './schema-nodes.ts';

/** Decides a condition (an `if` of `root`) against data; the server passes its ajv. */
export type SchemaTest = (condition: JsonObject, data: unknown, root: JsonObject) => boolean;

/** `data` without the fields whose condition does not hold (an "other" text left from before
 *  the member changed their choice), so they are neither stored nor judged. */
export function dropInapplicable<T extends object>(schema: JsonObject, data: T, test: SchemaTest): T {
  const out = { ...data } as Record<string, unknown>;
  for (const { condition, branch, fields } of conditionalFields(schema)) {
    const holds = test(condition, data, schema);
    if (holds !== (branch === 'then')) for (const name of fields) delete out[name];
  }
  return out as T;
}

/** The option list (`x-master`) a field draws from, on the field or on its items. */
export function masterOf(schema: JsonObject, node: JsonObject): string | undefined {
  const own = node['x-master'];
  if (typeof own === 'string') return own;
  const items = node.items && typeof node.items === 'object' ? resolveNode(schema, node.items as JsonObject) : undefined;
  return typeof items?.['x-master'] === 'string' ? (items['x-master'] as string) : undefined;
}

/** Field name → option list name, for every field of a form that draws from one. */
export function masterFields(schema: JsonObject): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, node] of Object.entries(fieldNodes(schema))) {
    const master = masterOf(schema, node);
    if (master) out[name] = master;
  }
  return out;
}

/** The option lists a form needs, in a stable order. */
export function mastersOf(schema: JsonObject): string[] {
  return [...new Set(Object.values(masterFields(schema)))].sort();
}

/** For each field a condition brings in, the choice that brings it ("purpose_other" → purpose
 *  "99"), where the condition is a plain `const` on one field (or on one of its items). */
export function choiceBringing(schema: JsonObject): Record<string, { field: string; value: unknown }> {
  const out: Record<string, { field: string; value: unknown }> = {};
  for (const { condition, branch, fields } of conditionalFields(schema)) {
    const props = Object.entries((condition.properties as Record<string, JsonObject>) ?? {});
    if (branch !== 'then' || props.length !== 1) continue;
    const [field, test] = props[0];
    const value = 'const' in test ? test.const : (test.contains as JsonObject | undefined)?.const;
    if (value !== undefined) for (const name of fields) out[name] = { field, value };
  }
  return out;
}
