// Numbers product owners own that the server acts on, read from the schemas rather than
// written in code: the e-mail code's length (the shared `code` field) and the inquiry
// history's page size (the catalogue).
import type { SchemaSet } from '../shared/validation/schema-files';
import { codeLengthOf } from '../shared/validation/code-length';
import { routeSettingOf } from '../shared/route-settings';

/** Digits of an e-mail code: the length the code forms accept. */
export function codeLength(set: SchemaSet): number {
  return codeLengthOf(set.forms['login-code'].schema);
}

/** A setting of a catalogue route (`settings` on the route entry), e.g. contact_history's pageSize. */
export const routeSetting = (set: SchemaSet, path: string, name: string) => routeSettingOf(set.catalogue, path, name);
