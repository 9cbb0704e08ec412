// Texts that contradict their rule: what a product owner forgets when a rule changes in JSON.
// A field's texts (its UI schema's placeholder, help and description, its pattern in words) may
// state a number its rules do not have, or call a field optional that the form now requires
// (the mileage number's "may be left empty" under a rule that now requires it). `npm run spec` and the form review page
// (/user/_forms) list them; tests/contract/one-contract.test.ts fails on them. The optional
// wordings are the caller's (messages/form-review.ja.json "optionalWording"): no Japanese here.
import type { JsonObject } from './schema-bundle.ts';
import { fieldNodes, propertyBlocks } from './schema-nodes.ts';
import { fillMessage, LIMIT_KEYWORDS } from './message-params.ts';

/** Numbers stated as limits: followed by the words for characters, digits or items (U+6587
 *  U+5B57, U+6841, U+500B, U+3064), or the first of a range (20, a wave dash, 80). */
const STATED = /(\d+)(?=(?:\u301c\d+)?(?:\u6587\u5b57|\u6841|\u500b|\u3064))|(\d+)(?=\u301c)/g;

/** The numbers a node's rules give: its limit keywords and its pattern's {n} / {n,m} quantifiers. */
export function ruleNumbers(node: JsonObject): Set<number> {
  const out = new Set<number>();
  for (const keyword of LIMIT_KEYWORDS) if (typeof node[keyword] === 'number') out.add(node[keyword] as number);
  if (typeof node.pattern === 'string') for (const m of node.pattern.matchAll(/\{(\d+)(?:,(\d+))?\}/g)) [m[1], m[2]].filter(Boolean).forEach((n) => out.add(Number(n)));
  return out;
}

/** The numbers a text states as limits (half-width digits; an example date states none). */
export function statedNumbers(text: string): number[] {
  return [...text.matchAll(STATED)].map((m) => Number(m[1] ?? m[2]));
}

export interface TextContradiction {
  field: string;
  /** Where the text is: "ui:help", "ui:placeholder", "ui:description", "x-pattern-description". */
  where: string;
  text: string;
  /** "optional": optional wording on a required field; "number": a number its rules lack. */
  kind: 'optional' | 'number';
  /** The wording found, or the number stated. */
  found: string;
  /** The field's numbers (for "number"). */
  numbers?: number[];
}

/** Fields the form requires: always, or whenever a condition brings them in (and shows them). */
function requiredFields(schema: JsonObject): Set<string> {
  return new Set(propertyBlocks(schema).flatMap((block) => (Array.isArray(block.required) ? block.required.map(String) : [])));
}

/** The texts of each field that describe it to the member, filled as the screen fills them. */
function fieldTexts(schema: JsonObject, uiSchema: JsonObject): Array<{ field: string; where: string; text: string; node: JsonObject }> {
  const out: Array<{ field: string; where: string; text: string; node: JsonObject }> = [];
  for (const [field, node] of Object.entries(fieldNodes(schema))) {
    const ui = (uiSchema[field] ?? {}) as JsonObject;
    for (const where of ['ui:placeholder', 'ui:help', 'ui:description']) {
      if (typeof ui[where] === 'string') out.push({ field, where, text: fillMessage(ui[where] as string, node), node });
    }
    if (typeof node['x-pattern-description'] === 'string') out.push({ field, where: 'x-pattern-description', text: node['x-pattern-description'] as string, node });
  }
  return out;
}

/** Every text of a (prepared) form that contradicts its rules. */
export function textContradictions(schema: JsonObject, uiSchema: JsonObject, optionalWording: readonly string[]): TextContradiction[] {
  const required = requiredFields(schema);
  const out: TextContradiction[] = [];
  for (const { field, where, text, node } of fieldTexts(schema, uiSchema)) {
    if (required.has(field)) {
      const found = optionalWording.find((words) => text.includes(words));
      if (found) out.push({ field, where, text, kind: 'optional', found });
    }
    // A pattern in words names what the pattern allows (code points, the parts of a postal
    // code): only the texts about the field as a whole state its limits.
    if (where === 'x-pattern-description') continue;
    const numbers = ruleNumbers(node);
    const options = (uiSchema[field] as JsonObject | undefined)?.['ui:options'] as JsonObject | undefined;
    if (typeof options?.maxLength === 'number') numbers.add(options.maxLength);
    for (const n of statedNumbers(text)) if (!numbers.has(n)) out.push({ field, where, text, kind: 'number', found: String(n), numbers: [...numbers].sort((a, b) => a - b) });
  }
  return out;
}
