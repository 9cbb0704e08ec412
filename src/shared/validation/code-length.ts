// The e-mail code's length, as the code field of a form states it (fields.json `code`: equal
// minLength and maxLength). The server generates codes of that length; screens say it in text.
import type { JsonObject } from './schema-bundle.ts';
import { fieldNodes } from './schema-nodes.ts';

export function codeLengthOf(schema: JsonObject, field = 'code'): number {
  const node = fieldNodes(schema)[field] ?? {};
  if (typeof node.maxLength !== 'number' || node.maxLength !== node.minLength) throw new Error(`The ${field} field needs equal minLength and maxLength`);
  return node.maxLength;
}
