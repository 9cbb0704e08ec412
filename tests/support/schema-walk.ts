// Generic walking of JSON schemas, so that contract tests cover every schema file (and every
// node in it) without naming them.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCHEMAS_DIR } from '../../src/shared/validation/schema-files';
import type { JsonObject } from '../../src/shared/validation/schema-bundle';

export type SchemaKind = 'shared' | 'form' | 'api';

export interface SchemaFile {
  kind: SchemaKind;
  /** Path relative to schemas/, e.g. "forms/login.schema.json". */
  file: string;
  schema: JsonObject;
}

/** Every JSON schema under schemas/ (shared definitions, form schemas, API payloads). */
export function schemaFiles(dir = SCHEMAS_DIR): SchemaFile[] {
  const read = (sub: string, keep: (f: string) => boolean, kind: SchemaKind) =>
    readdirSync(join(dir, sub))
      .filter(keep)
      .sort()
      .map((f) => ({ kind, file: `${sub}/${f}`, schema: JSON.parse(readFileSync(join(dir, sub, f), 'utf8')) as JsonObject }));
  return [
    ...read('shared', (f) => f.endsWith('.json'), 'shared'),
    ...read('forms', (f) => f.endsWith('.schema.json'), 'form'),
    ...read('api', (f) => f.endsWith('.json'), 'api'),
  ];
}

/** Keywords that fail on their own, so need a message of their own in `errorMessage`.
 *  (`minContains`/`maxContains` report as `contains`.) */
export const ASSERTIONS = new Set([
  'type', 'enum', 'const',
  'multipleOf', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum',
  'minLength', 'maxLength', 'pattern', 'format',
  'formatMinimum', 'formatMaximum', 'formatExclusiveMinimum', 'formatExclusiveMaximum',
  'minItems', 'maxItems', 'uniqueItems', 'contains', 'minContains', 'maxContains',
  'minProperties', 'maxProperties', 'required', 'dependentRequired',
  // applicators whose failure has no failing child to carry a message
  'not', 'oneOf', 'propertyNames', 'discriminator',
  // the project's own keywords (src/shared/validation/ajv-setup.ts)
  'sameAs', 'differentFrom', 'minDate', 'maxDate',
]);

/** Keywords whose failure shows as a failure inside them (each child needs its own message). */
export const APPLICATORS = new Set([
  'properties', 'patternProperties', 'additionalProperties', 'unevaluatedProperties',
  'items', 'prefixItems', 'additionalItems', 'unevaluatedItems',
  'allOf', 'anyOf', 'if', 'then', 'else', 'dependentSchemas', 'dependencies',
  '$defs', 'definitions', '$ref',
]);

/** Keywords that never fail. */
export const ANNOTATIONS = new Set([
  '$id', '$schema', '$comment', '$anchor', 'title', 'description', 'default', 'examples',
  'readOnly', 'writeOnly', 'deprecated', 'contentMediaType', 'contentEncoding', 'enumNames', 'errorMessage',
  // The project's own (docs/decisions/012): normalisers, option list, a required field's own
  // message, default messages, the forms an API payload is, a form that is never sent.
  'x-normalise', 'x-master', 'x-required-message', 'x-default-messages', 'x-forms', 'x-submits', 'x-invalid-examples',
  // the project's own: a pattern in words, for docs/validation-spec.md (tools/validation-spec/)
  'x-pattern-description',
  // the project's own: limits a shared field takes from another (src/shared/validation/derived-limits.ts)
  'x-limits-from',
  // the project's own: the API a back-office field's run-time choices come from, for the validation spec
  'x-options-from',
  // the project's own: what the server checks of a form beyond its schema, for the validation spec
  // (tools/validation-spec/server-checks.ts)
  'x-server-checks',
  // the project's own: the member record (src/shared/member-record.ts, docs/decisions/020): the forms
  // that write it, a field not stored or stored under another name, normalisers of valid data,
  // how a stored text is shown; the info answer's record fields and a label of another's choice.
  'x-member-record', 'x-stored', 'x-stored-as', 'x-canonical', 'x-display', 'x-member-fields-of', 'x-label-of',
  // the project's own: how the member's disclosure is read (src/shared/disclosure-view.ts, ADR 040):
  // a property kept out of the readable view, a value's display form, a group of labelled rows.
  'x-shown', 'x-format', 'x-rows',
  // the project's own: one line on why a stored field's limits differ between the forms that
  // write it, for the validation spec (tools/validation-spec/render.ts)
  'x-why',
]);

/** The error keyword a schema keyword fails with. */
export function errorKeyword(keyword: string): string {
  return keyword === 'minContains' || keyword === 'maxContains' ? 'contains' : keyword;
}

export interface SchemaNode {
  node: JsonObject;
  /** JSON pointer inside its file, e.g. "#/properties/email". */
  pointer: string;
  /** What the parent's `errorMessage.properties` / `errorMessage.items` says about this node. */
  parentMessage: unknown;
}

const isObject = (v: unknown): v is JsonObject => !!v && typeof v === 'object' && !Array.isArray(v);
const esc = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** Every schema node (object) in `root`, depth first. Boolean schemas are reported to `onBoolean`. */
export function walkSchema(root: unknown, visit: (n: SchemaNode) => void, onBoolean: (pointer: string, value: boolean) => void = () => {}) {
  const go = (node: unknown, pointer: string, parentMessage: unknown) => {
    if (typeof node === 'boolean') return onBoolean(pointer, node);
    if (!isObject(node)) return;
    visit({ node, pointer, parentMessage });
    const em = isObject(node.errorMessage) ? node.errorMessage : {};
    const emProps = isObject(em.properties) ? em.properties : {};
    const emItems = em.items;
    for (const [key, value] of Object.entries(node)) {
      const here = `${pointer}/${esc(key)}`;
      switch (key) {
        case 'properties':
        case 'patternProperties':
          if (isObject(value)) for (const [name, sub] of Object.entries(value)) go(sub, `${here}/${esc(name)}`, key === 'properties' ? emProps[name] : undefined);
          break;
        case '$defs':
        case 'definitions':
        case 'dependentSchemas':
          if (isObject(value)) for (const [name, sub] of Object.entries(value)) go(sub, `${here}/${esc(name)}`, undefined);
          break;
        case 'dependencies':
          if (isObject(value)) for (const [name, sub] of Object.entries(value)) if (!Array.isArray(sub)) go(sub, `${here}/${esc(name)}`, undefined);
          break;
        case 'allOf':
        case 'anyOf':
        case 'oneOf':
        case 'prefixItems':
          if (Array.isArray(value)) value.forEach((sub, i) => go(sub, `${here}/${i}`, undefined));
          break;
        case 'items':
          if (Array.isArray(value)) value.forEach((sub, i) => go(sub, `${here}/${i}`, Array.isArray(emItems) ? emItems[i] : undefined));
          else go(value, here, typeof emItems === 'string' ? emItems : undefined);
          break;
        case 'additionalProperties':
        case 'unevaluatedProperties':
        case 'additionalItems':
        case 'unevaluatedItems':
        case 'contains':
        case 'propertyNames':
        case 'then':
        case 'else':
          go(value, here, undefined);
          break;
        // Inside `not` a failing keyword means success, and an `if` only decides which branch
        // applies: neither reports its inner failures, so they need no message.
        case 'not':
        case 'if':
        default:
          break;
      }
    }
  };
  go(root, '#', undefined);
}

/** Resolves a local "#/…" JSON pointer ref against `root`. */
export function resolvePointer(root: JsonObject, ref: string): unknown {
  if (!ref.startsWith('#')) throw new Error(`Not a local ref: ${ref}`);
  return ref
    .slice(1)
    .split('/')
    .filter(Boolean)
    .map((part) => decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, part) => (isObject(node) || Array.isArray(node) ? (node as JsonObject)[part] : undefined), root);
}

/** Follows local $refs until a node without one (undefined at a ref into another document). */
export function deref(root: JsonObject, node: unknown): JsonObject | undefined {
  let current = node;
  // Keywords beside a $ref apply too (ajv and rjsf both honour them); the nearer one wins.
  let siblings: JsonObject = {};
  for (let hops = 0; isObject(current) && typeof current.$ref === 'string'; hops++) {
    if (hops > 20) throw new Error('ref cycle');
    if (!current.$ref.startsWith('#')) return undefined;
    const { $ref, ...own } = current;
    siblings = { ...own, ...siblings };
    current = resolvePointer(root, $ref);
  }
  return isObject(current) ? { ...current, ...siblings } : undefined;
}

/** All properties an object node can have (its own and those of its allOf/anyOf/oneOf/then/else/dependentSchemas branches). */
export function propertiesOf(root: JsonObject, node: unknown): Record<string, unknown> {
  const resolved = deref(root, node);
  if (!resolved) return {};
  const out: Record<string, unknown> = { ...(isObject(resolved.properties) ? resolved.properties : {}) };
  const branches: unknown[] = [
    ...(['allOf', 'anyOf', 'oneOf'] as const).flatMap((k) => (Array.isArray(resolved[k]) ? (resolved[k] as unknown[]) : [])),
    resolved.then,
    resolved.else,
    ...(isObject(resolved.dependentSchemas) ? Object.values(resolved.dependentSchemas) : []),
    ...(isObject(resolved.dependencies) ? Object.values(resolved.dependencies).filter((d) => !Array.isArray(d)) : []),
  ];
  for (const branch of branches) {
    if (!branch) continue;
    for (const [name, sub] of Object.entries(propertiesOf(root, branch))) if (!(name in out)) out[name] = sub;
  }
  return out;
}

export { isObject };
