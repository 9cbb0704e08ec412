// PUT /v1/user/info: the edit form (edit-profile) on the wire. Purposes travel as one
// comma-joined string of codes; postal code and phone without hyphens.
import type { ProfileUpdate } from '../api-types';
import { removeHyphens } from '../normalise';
import { withoutHyphens, type WireAdapter } from './adapter';

/** The edit form's data (schemas/forms/edit-profile.schema.json). */
export type ProfileForm = Omit<ProfileUpdate, 'email' | 'birthday' | 'purpose' | 'amc' | 'industry_other' | 'purpose_other'> & {
  birthday?: string;
  purpose: string[];
  amc?: string;
  industry_other?: string;
  purpose_other?: string;
};

function shape(form: ProfileForm, saved: { email: string; birthday: string }): ProfileUpdate {
  return {
    ...form,
    email: saved.email,
    birthday: saved.birthday,
    amc: form.amc ?? '',
    industry_other: form.industry_other ?? '',
    purpose: Array.isArray(form.purpose) ? form.purpose.join(',') : form.purpose,
    purpose_other: form.purpose_other ?? '',
  };
}

const canonical = (data: Record<string, unknown>) => withoutHyphens(data, removeHyphens);

/** The payload the client sends for the edit form's data (e-mail and birthday as saved). */
export function profileToWire(form: ProfileForm, saved: { email: string; birthday: string }): ProfileUpdate {
  return canonical(shape(form, saved) as unknown as Record<string, unknown>) as unknown as ProfileUpdate;
}

export const profileUpdateWire: WireAdapter = {
  toWire: (form, extra) =>
    shape(form as unknown as ProfileForm, { email: extra.email as string, birthday: (form.birthday ?? extra.birthday) as string }) as unknown as Record<string, unknown>,
  fromWire(data) {
    return {
      ...data,
      purpose: typeof data.purpose === 'string' ? data.purpose.split(',').filter(Boolean) : data.purpose,
    };
  },
  // An error on one of the purposes ("purpose.2") is an error of the one string that carried them.
  wireField: (path) => path.replace(/^purpose\.\d+$/, 'purpose'),
  canonical,
};
