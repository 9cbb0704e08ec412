// POST /v1/user/register: the registration form (register-profile) on the wire. The client
// calls toWire before sending, the server fromWire after receiving; the form's schema then
// judges what fromWire gives, on both sides alike.
import { canonical } from '../normalise';
import type { JsonObject } from '../validation/schema-bundle.ts';
import { splitLists, withEmptyTexts, type WireAdapter } from './adapter';

/** The payload of POST /v1/user/register: the form's fields, the proven address and its code,
 *  the always-empty second address and the three condition flags. */
export type RegistrationPayload = Record<string, unknown> & { email: string; verification_code: string };

const CONDITIONS = ['condition_no_home', 'condition_not_single_transfer', 'condition_not_care'] as const;

function shape(schema: JsonObject, form: Record<string, unknown>, verified: { email: string; code: string }): RegistrationPayload {
  const { condition_checked, ...fields } = form;
  const agreed = condition_checked === true;
  return {
    ...withEmptyTexts(schema, fields),
    email: verified.email,
    verification_code: verified.code,
    zip_second: '',
    address_second: '',
    ...Object.fromEntries(CONDITIONS.map((name) => [name, agreed])),
  };
}

/** The payload the client sends for the registration form's data (`schema`: the form's) and
 *  the verified address. */
export function registrationToWire(schema: JsonObject, form: Record<string, unknown>, verified: { email: string; code: string }): RegistrationPayload {
  return canonical(schema, shape(schema, form, verified));
}

/** The payload as form data plus the wire-only fields: the three condition flags are the form's
 *  one check box. */
export const registrationWire: WireAdapter = {
  toWire: (form, extra, schema) => shape(schema, form, { email: String(extra.email ?? ''), code: String(extra.verification_code ?? '') }),
  // A list sent as the edit form sends it (one comma-joined string, as GET /v1/user/info answers
  // it) is taken too: a client reading the member's info may send its lists back as they came.
  fromWire: (data, schema) => ({ ...splitLists(schema, data), condition_checked: CONDITIONS.every((name) => data[name] === true) }),
  // The form's one check box stands for the three flags, which carry their own messages.
  wireField: (path) => (path === 'condition_checked' ? null : path),
  carriedBy: { condition_checked: CONDITIONS },
};
