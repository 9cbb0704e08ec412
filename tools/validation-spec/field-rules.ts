// What one form asks of each field, read from its bundled schema and UI schema: the rules that
// can fail (with the node each sits on, so messages and limits are read from the same place),
// when a field is required, its label, normalisers and option list. Generic over the schema's
// shape: `$ref` (local, after bundling), `allOf`, `if`/`then`/`else`, `not`, `items`.
import { isObject, refChain, type JsonObject } from '../../src/shared/validation/schema-refs.ts';

export { isObject };

export interface Condition {
  /** The `if` node and whether the rule applies when it holds (`then`) or not (`else`). */
  when: JsonObject;
  holds: boolean;
}

export interface Rule {
  keyword: string;
  value: unknown;
  /** The node the keyword sits on (its errorMessage and limits apply). */
  node: JsonObject;
  /** `not` rules: the refused sub-schema. */
  refused?: JsonObject;
  /** Set for rules on each item of an array. */
  onItems?: boolean;
  conditions: Condition[];
}

export interface FieldRules {
  name: string;
  /** Nodes of the field (its own, then what they `$ref`), nearest first. */
  nodes: JsonObject[];
  rules: Rule[];
  /** Conditions under which the field is required ([] = always); undefined = optional. */
  required: Array<{ conditions: Condition[]; parent: JsonObject }>;
  /** Conditions under which the field exists at all ([] = always). */
  present: Condition[][];
}

/** Keywords that fail on their own; each becomes one rule (and one message). */
export const RULE_KEYWORDS = [
  'type', 'format', 'const', 'enum', 'minLength', 'maxLength', 'pattern', 'minItems', 'maxItems', 'uniqueItems',
  'contains', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'sameAs', 'differentFrom',
  'minDate', 'maxDate',
] as const;

function collectRules(root: JsonObject, node: JsonObject, conditions: Condition[], onItems: boolean, out: Rule[]) {
  for (const current of refChain(root, node)) {
    for (const keyword of RULE_KEYWORDS) {
      if (current[keyword] !== undefined) out.push({ keyword, value: current[keyword], node: current, onItems: onItems || undefined, conditions });
    }
    if (isObject(current.not)) out.push({ keyword: 'not', value: current.not, node: current, refused: current.not, onItems: onItems || undefined, conditions });
    if (Array.isArray(current.allOf)) for (const part of current.allOf) if (isObject(part)) collectRules(root, part, conditions, onItems, out);
    if (isObject(current.items)) collectRules(root, current.items, conditions, true, out);
    if (isObject(current.if)) {
      if (isObject(current.then)) collectRules(root, current.then, [...conditions, { when: current.if, holds: true }], onItems, out);
      if (isObject(current.else)) collectRules(root, current.else, [...conditions, { when: current.if, holds: false }], onItems, out);
    }
  }
}

/** Every field of an object schema, in `order` first (the UI schema's ui:order), then as found. */
export function formFields(root: JsonObject, order: string[] = []): FieldRules[] {
  const fields = new Map<string, FieldRules>();
  const field = (name: string) => {
    let entry = fields.get(name);
    if (!entry) fields.set(name, (entry = { name, nodes: [], rules: [], required: [], present: [] }));
    return entry;
  };
  const visit = (node: JsonObject, conditions: Condition[]) => {
    for (const current of refChain(root, node)) {
      if (isObject(current.properties)) {
        for (const [name, sub] of Object.entries(current.properties)) {
          if (!isObject(sub)) continue;
          const entry = field(name);
          entry.nodes.push(...refChain(root, sub));
          entry.present.push(conditions);
          collectRules(root, sub, conditions, false, entry.rules);
        }
      }
      if (Array.isArray(current.required)) for (const name of current.required) field(String(name)).required.push({ conditions, parent: current });
      if (Array.isArray(current.allOf)) for (const part of current.allOf) if (isObject(part)) visit(part, conditions);
      if (isObject(current.if)) {
        if (isObject(current.then)) visit(current.then, [...conditions, { when: current.if, holds: true }]);
        if (isObject(current.else)) visit(current.else, [...conditions, { when: current.if, holds: false }]);
      }
    }
  };
  visit(root, []);
  const rank = (name: string) => (order.includes(name) ? order.indexOf(name) : order.length);
  return [...fields.values()].sort((a, b) => rank(a.name) - rank(b.name));
}
