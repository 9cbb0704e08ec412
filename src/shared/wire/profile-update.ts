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

export function profileToWire(form: ProfileForm, saved: { email: string; birthday: string }): ProfileUpdate {
  return withoutHyphens({
    ...form,
    email: saved.email,
    birthday: saved.birthday,
    amc: form.amc ?? '',
    industry_other: form.industry_other ?? '',
    purpose: form.purpose.join(','),
    purpose_other: form.purpose_other ?? '',
  }, removeHyphens);
}

export const profileUpdateWire: WireAdapter = {
  fromWire(data) {
    return {
      ...data,
      purpose: typeof data.purpose === 'string' ? data.purpose.split(',').filter(Boolean) : data.purpose,
    };
  },
  canonical: (data) => withoutHyphens(data, removeHyphens),
  // An error on one of the purposes ("purpose.2") is an error of the one string that carried them.
  wireField: (path) => path.replace(/^purpose\.\d+$/, 'purpose'),
};
