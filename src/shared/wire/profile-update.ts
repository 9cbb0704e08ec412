// PUT /v1/user/info: the edit form (edit-profile) on the wire. Every list travels as one
// comma-joined string of codes (purpose), every text the member left empty as ''; the e-mail
// address goes as saved (it has its own flow; the read-only birthday is in the form's data).
import { canonical } from '../normalise';
import type { JsonObject } from '../validation/schema-bundle.ts';
import { joinLists, splitLists, withEmptyTexts, type WireAdapter } from './adapter';

/** The payload of PUT /v1/user/info: the edit form's fields (the member record's, under their
 *  stored names) as they travel, and the saved address. */
export type ProfileUpdate = Record<string, unknown> & { email: string };

function shape(schema: JsonObject, form: Record<string, unknown>, saved: { email: string }): ProfileUpdate {
  return { ...joinLists(schema, withEmptyTexts(schema, form)), email: saved.email };
}

/** The payload the client sends for the edit form's data (`schema`: the form's) and the saved
 *  address. */
export function profileToWire(schema: JsonObject, form: Record<string, unknown>, saved: { email: string }): ProfileUpdate {
  return canonical(schema, shape(schema, form, saved));
}

export const profileUpdateWire: WireAdapter = {
  toWire: (form, extra, schema) => shape(schema, form, { email: String(extra.email ?? '') }),
  fromWire: (data, schema) => splitLists(schema, data),
  // An error on one item of a list ("purpose.2") is an error of the one string that carried them.
  wireField: (path) => path.replace(/^([^.]+)\.\d+$/, '$1'),
  joinsLists: true,
};
