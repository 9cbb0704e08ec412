// POST /v1/user/register: the registration form (register-profile) on the wire. The client
// calls toWire before sending, the server fromWire after receiving; the form's schema then
// judges what fromWire gives, on both sides alike.
import type { RegistrationPayload } from '../api-types';
import { removeHyphens } from '../normalise';
import { withoutHyphens, type WireAdapter } from './adapter';

/** The registration form's data (schemas/forms/register-profile.schema.json). */
export type RegistrationForm = Omit<
  RegistrationPayload,
  'email' | 'verification_code' | 'zip_second' | 'address_second' | 'condition_no_home' | 'condition_not_single_transfer' | 'condition_not_care' | 'amc' | 'industry_other' | 'purpose_other'
> & { amc?: string; industry_other?: string; purpose_other?: string; condition_checked: boolean };

const CONDITIONS = ['condition_no_home', 'condition_not_single_transfer', 'condition_not_care'] as const;

function shape(form: RegistrationForm, verified: { email: string; code: string }): RegistrationPayload {
  const { condition_checked, ...fields } = form;
  const agreed = condition_checked === true;
  return {
    ...fields,
    email: verified.email,
    verification_code: verified.code,
    amc: fields.amc ?? '',
    industry_other: fields.industry_other ?? '',
    purpose_other: fields.purpose_other ?? '',
    zip_second: '',
    address_second: '',
    condition_no_home: agreed as true,
    condition_not_single_transfer: agreed as true,
    condition_not_care: agreed as true,
  };
}

const canonical = (data: Record<string, unknown>) => withoutHyphens(data, removeHyphens);

/** The payload the client sends for the registration form's data and the verified address. */
export function registrationToWire(form: RegistrationForm, verified: { email: string; code: string }): RegistrationPayload {
  return canonical(shape(form, verified) as unknown as Record<string, unknown>) as unknown as RegistrationPayload;
}

/** The payload as form data plus the wire-only fields: the three condition flags are the form's
 *  one check box. Postal code and phone are stored without hyphens. */
export const registrationWire: WireAdapter = {
  toWire: (form, extra) =>
    shape(form as unknown as RegistrationForm, { email: String(extra.email ?? ''), code: String(extra.verification_code ?? '') }) as unknown as Record<string, unknown>,
  fromWire: (data) => ({ ...data, condition_checked: CONDITIONS.every((name) => data[name] === true) }),
  // The form's one check box stands for the three flags, which carry their own messages.
  wireField: (path) => (path === 'condition_checked' ? null : path),
  canonical,
};
