// What the schemas say a field's messages and limits are, read from the prepared schemas (the
// same texts the form and the server show), so tests follow a product owner's JSON edit
// instead of pinning copies of its numbers and wording.
import { loadSchemaSet, SCHEMAS_DIR, type SchemaSet } from '../../src/shared/validation/schema-files';
import type { JsonObject } from '../../src/shared/validation/schema-bundle';
import { rulesIn, type FieldRules } from './schema-rules';

export type { FieldRules };

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

/** Rules of a form (by name) or an API payload (by name or $id) in `dir`. */
export function rulesOf(name: string, dir = SCHEMAS_DIR): FieldRules {
  return rulesIn(schemaOf(name, dir), name);
}

/** The new-password rules' messages, in checklist order (fields.json newPassword allOf), and the
 *  field's own character-set message. */
export function passwordMessages(dir = SCHEMAS_DIR) {
  const defs = schemaSet(dir).forms['register-profile'].schema.$defs as Record<string, { allOf: Array<{ errorMessage: Record<string, string> }>; errorMessage: Record<string, string> }>;
  const rules = defs['fields.newPassword'].allOf.map((rule) => Object.values(rule.errorMessage)[0]);
  const [min, lower, upper, digit, symbol, repeat] = rules;
  return { min, lower, upper, digit, symbol, repeat, charset: defs['fields.newPassword'].errorMessage.pattern };
}
