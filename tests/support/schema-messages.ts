// What the schemas say a field's messages and limits are, read from the prepared schemas (the
// same texts the form and the server show), so tests follow a product owner's JSON edit
// instead of pinning copies of its numbers and wording.
import { loadSchemaSet, SCHEMAS_DIR, type SchemaSet } from '../../src/shared/validation/schema-files';
import type { JsonObject } from '../../src/shared/validation/schema-bundle';
import { propertyBlocks } from '../../src/shared/validation/schema-nodes';

const sets = new Map<string, SchemaSet>();

export function schemaSet(dir = SCHEMAS_DIR): SchemaSet {
  let set = sets.get(dir);
  if (!set) sets.set(dir, (set = loadSchemaSet(dir)));
  return set;
}

function schemaOf(name: string, dir: string): JsonObject {
  const set = schemaSet(dir);
  const schema = set.forms[name]?.schema ?? set.api[name] ?? set.api[`api.${name}.json`];
  if (!schema) throw new Error(`No form or API schema "${name}"`);
  return schema;
}

/** The field's node and the nodes its $ref chain leads to, nearest first (allOf items after). */
function chain(root: JsonObject, field: string): JsonObject[] {
  const block = propertyBlocks(root).find((b) => (b.properties as JsonObject | undefined)?.[field]);
  if (!block) throw new Error(`No field "${field}"`);
  const out: JsonObject[] = [];
  let node: JsonObject | undefined = (block.properties as Record<string, JsonObject>)[field];
  while (node && !out.includes(node)) {
    out.push(node);
    const ref: RegExpExecArray | null = typeof node.$ref === 'string' ? /^#\/\$defs\/(.+)$/.exec(node.$ref) : null;
    node = ref ? (root.$defs as Record<string, JsonObject>)[ref[1]] : undefined;
  }
  return [...out, ...out.flatMap((n) => (n.allOf as JsonObject[] | undefined) ?? [])];
}

export interface FieldRules {
  /** The message the field shows when `keyword` fails (a `not`, `pattern`, `maxLength`…). */
  message(field: string, keyword: string): string;
  /** The message when the field is required and missing. */
  required(field: string): string;
  /** The number a keyword of the field states (maxLength, minItems…). */
  limit(field: string, keyword: string): number;
}

/** Rules of a form (by name) or an API payload (by name or $id) in `dir`. */
export function rulesOf(name: string, dir = SCHEMAS_DIR): FieldRules {
  const root = schemaOf(name, dir);
  return {
    message(field, keyword) {
      for (const node of chain(root, field)) {
        const text = (node.errorMessage as JsonObject | undefined)?.[keyword];
        if (typeof text === 'string') return text;
      }
      throw new Error(`${name}: no ${keyword} message for ${field}`);
    },
    required(field) {
      for (const block of propertyBlocks(root)) {
        const text = ((block.errorMessage as JsonObject | undefined)?.required as JsonObject | undefined)?.[field];
        if (typeof text === 'string' && (block.required as string[] | undefined)?.includes(field)) return text;
      }
      throw new Error(`${name}: no required message for ${field}`);
    },
    limit(field, keyword) {
      for (const node of chain(root, field)) if (typeof node[keyword] === 'number') return node[keyword] as number;
      throw new Error(`${name}: no ${keyword} on ${field}`);
    },
  };
}

/** The new-password rules' messages, in checklist order (fields.json newPassword allOf), and the
 *  field's own character-set message. */
export function passwordMessages(dir = SCHEMAS_DIR) {
  const defs = schemaSet(dir).forms['register-profile'].schema.$defs as Record<string, { allOf: Array<{ errorMessage: Record<string, string> }>; errorMessage: Record<string, string> }>;
  const rules = defs['fields.newPassword'].allOf.map((rule) => Object.values(rule.errorMessage)[0]);
  const [min, lower, upper, digit, symbol, repeat] = rules;
  return { min, lower, upper, digit, symbol, repeat, charset: defs['fields.newPassword'].errorMessage.pattern };
}
