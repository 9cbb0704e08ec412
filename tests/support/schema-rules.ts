// A field's messages and limits as a prepared schema states them (the same texts the form and the
// server show). Free of schema-files.ts, so jsdom tests can read a form module's own schema;
// schema-messages.ts reads them by form name from any schemas folder.
import type { JsonObject } from '../../src/shared/validation/schema-bundle';
import { propertyBlocks } from '../../src/shared/validation/schema-nodes';

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
  /** The form requires the field whatever else the data holds (its top-level `required`). */
  isRequired(field: string): boolean;
}

/** Rules of a prepared form or API schema (`name` only names it in errors). */
export function rulesIn(schema: object, name = 'schema'): FieldRules {
  const root = schema as JsonObject;
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
    isRequired: (field) => ((root.required as string[] | undefined) ?? []).includes(field),
  };
}
