// Numbers product owners own that the server acts on, read from the schemas rather than
// written in code: the e-mail code's length (the shared `code` field) and the inquiry
// history's page size (the catalogue).
import type { SchemaSet } from '../shared/validation/schema-files';
import type { JsonObject } from '../shared/validation/schema-bundle';
import { fieldNodes } from '../shared/validation/schema-nodes';

/** Digits of an e-mail code: the length the code forms accept. */
export function codeLength(set: SchemaSet): number {
  const node = fieldNodes(set.forms['login-code'].schema).code ?? {};
  const length = node.maxLength;
  if (typeof length !== 'number' || length !== node.minLength) throw new Error('The code field of login-code needs equal minLength and maxLength');
  return length;
}

/** A setting of a catalogue route (`settings` on the route entry), e.g. contact_history's pageSize. */
export function routeSetting(set: SchemaSet, path: string, name: string): number {
  const route = ((set.catalogue.routes as JsonObject[]) ?? []).find((r) => r.path === path);
  const value = (route?.settings as JsonObject | undefined)?.[name];
  if (typeof value !== 'number') throw new Error(`The catalogue route ${path} has no numeric settings.${name}`);
  return value;
}
