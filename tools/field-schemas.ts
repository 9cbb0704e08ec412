// One schema per field of a form, for the validator a text field runs on each key (ADR 028).
// Nothing in it is written by hand: it is the form's own schema with everything about other fields
// left out — the field's node as the form states it, whether the form requires it (with the form's
// message for a missing value), and the `if` that brings a conditional field in.
//
// The form's root schema is compiled with these among its `$defs` (nothing in the form refers to
// them, so its verdicts do not change), and with each field node that says more than a `$ref`,
// and each condition's `if`, moved into `$defs` behind a `$ref` (a `$ref` is validated exactly
// as the node it points at): ajv compiles a definition once per root and calls it from
// everywhere, so the form's validator and the field's share one function for the field's rule.
import type { JsonObject } from '../src/shared/validation/schema-bundle.ts';
import { fieldNodes } from '../src/shared/validation/schema-nodes.ts';

/** Root keywords a field schema knows how to take a field's part of; a form with any other fails
 *  the build rather than getting field validators that judge less than the form does. */
const ROOT_KEYWORDS = new Set(['type', 'required', 'properties', 'allOf', 'errorMessage', '$defs', '$id', '$schema', '$comment', 'title', 'description']);
const BLOCK_KEYWORDS = new Set(['type', 'required', 'properties', 'errorMessage', '$comment', 'title', 'description']);
const CONDITION_KEYWORDS = new Set(['if', 'then', 'else', '$comment']);
/** Keywords that say something about a node without judging its value. */
const ANNOTATIONS = new Set(['title', 'description', 'default', 'examples', '$comment', 'readOnly', 'writeOnly', 'deprecated']);

const pointerPart = (name: string) => name.replace(/~/g, '~0').replace(/\//g, '~1');
const isAnnotation = (key: string) => ANNOTATIONS.has(key) || key.startsWith('x-');
/** Only a `$ref` (and annotations): ajv calls the referred definition's own function for it. */
const refOnly = (node: JsonObject) => typeof node.$ref === 'string' && Object.keys(node).every((key) => key === '$ref' || isAnnotation(key));

function checkKeywords(node: JsonObject, allowed: Set<string>, where: string): void {
  const unknown = Object.keys(node).filter((key) => !allowed.has(key) && !key.startsWith('x-'));
  if (unknown.length) throw new Error(`Field validators: ${where} has ${unknown.join(', ')}, which a field's own validator would not apply`);
}

/** The places a form states fields, with where each sits: the root, and each condition's branches. */
function blocksOf(root: JsonObject): Array<{ block: JsonObject; at: string }> {
  checkKeywords(root, ROOT_KEYWORDS, 'the root');
  const blocks = [{ block: root, at: '' }];
  ((root.allOf as JsonObject[] | undefined) ?? []).forEach((item, i) => {
    checkKeywords(item, CONDITION_KEYWORDS, `allOf/${i}`);
    for (const branch of ['then', 'else'] as const) {
      const block = item[branch] as JsonObject | undefined;
      if (!block) continue;
      checkKeywords(block, BLOCK_KEYWORDS, `allOf/${i}/${branch}`);
      blocks.push({ block, at: `allOf/${i}/${branch}` });
    }
  });
  return blocks;
}

/** `block`'s part for `name` (its node, whether it is required, the required message); undefined
 *  when the block does not state the field. */
function partOf(block: JsonObject, name: string): JsonObject | undefined {
  const properties = (block.properties ?? {}) as Record<string, JsonObject>;
  if (!(name in properties)) return undefined;
  const part: JsonObject = { properties: { [name]: properties[name] } };
  if (((block.required as string[] | undefined) ?? []).includes(name)) {
    part.required = [name];
    const message = ((block.errorMessage as JsonObject | undefined)?.required as Record<string, string> | undefined)?.[name];
    if (message) part.errorMessage = { required: { [name]: message } };
  }
  return part;
}

/** The schema of one field of `root` (a bundled, prepared form schema), to be placed among its
 *  `$defs` (its `$ref`s are the root's): data passes it exactly when the form's schema has nothing
 *  to say about that field. */
export function fieldSchema(root: JsonObject, name: string): JsonObject {
  blocksOf(root);
  const schema: JsonObject = { ...(partOf(root, name) ?? {}) };
  const conditions: JsonObject[] = [];
  ((root.allOf as JsonObject[] | undefined) ?? []).forEach((item) => {
    const branches: JsonObject = {};
    for (const branch of ['then', 'else'] as const) {
      const part = item[branch] ? partOf(item[branch] as JsonObject, name) : undefined;
      if (part) branches[branch] = part;
    }
    if (Object.keys(branches).length) conditions.push({ if: item.if, ...branches });
  });
  if (conditions.length) schema.allOf = conditions;
  return schema;
}

/** A field the member types rather than chooses: a string with no list to choose from (rjsf's
 *  own line between a text input and a select). */
const typed = (node: JsonObject) => node.type === 'string' && !['enum', 'const', 'oneOf', 'anyOf', 'x-master'].some((key) => key in node);

/** The fields of `root` that get a validator of their own: those a member types (see `typed`),
 *  among its properties and those its conditions bring in. */
export function fieldNames(root: JsonObject): string[] {
  const nodes = fieldNodes(root);
  const names = blocksOf(root).flatMap(({ block }) => Object.keys((block.properties as JsonObject | undefined) ?? {}));
  return [...new Set(names)].filter((name) => typed(nodes[name] ?? {}));
}

const fieldDefName = (name: string) => `field:${name}`;

/** `root` as it is compiled: the same verdicts, each field's own schema among its `$defs`
 *  (`fields`: the ref to each, from the root registered as `rootId`), and what the field schemas
 *  and the root both validate behind a `$ref` to one definition. */
export function withFieldSchemas(root: JsonObject, rootId: string): { root: JsonObject; fields: Record<string, string> } {
  const compiled = JSON.parse(JSON.stringify(root)) as JsonObject;
  const defs = ((compiled.$defs as JsonObject | undefined) ?? {}) as Record<string, JsonObject>;
  const shared = (node: JsonObject, defName: string): JsonObject => {
    if (refOnly(node)) return node;
    defs[defName] = node;
    return { $ref: `#/$defs/${pointerPart(defName)}` };
  };
  const names = fieldNames(compiled);
  for (const { block, at } of blocksOf(compiled)) {
    const properties = (block.properties ?? {}) as Record<string, JsonObject>;
    for (const name of Object.keys(properties).filter((name) => names.includes(name))) properties[name] = shared(properties[name], `node:${at}/${name}`);
  }
  ((compiled.allOf as JsonObject[] | undefined) ?? []).forEach((item, i) => {
    const states = (branch: unknown) => Object.keys(((branch as JsonObject | undefined)?.properties as JsonObject | undefined) ?? {}).some((name) => names.includes(name));
    if (item.if && (states(item.then) || states(item.else))) item.if = shared(item.if as JsonObject, `if:${i}`);
  });
  for (const name of names) defs[fieldDefName(name)] = fieldSchema(compiled, name);
  compiled.$defs = defs;
  return { root: compiled, fields: Object.fromEntries(names.map((name) => [name, `${rootId}#/$defs/${pointerPart(fieldDefName(name))}`])) };
}
