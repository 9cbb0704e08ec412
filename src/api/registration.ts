import { call } from './client';

/** Mails a registration code to the address. */
export const sendRegistrationCode = (email: string) => call<unknown>('post', '/email/register', { auth: 'client', body: { email } });

/** Checks the code; the answer names the verified address. */
export const verifyRegistrationCode = (email: string, key: string) =>
  call<{ email?: string }>('post', '/email/verify', { auth: 'client', body: { key, email } });

export interface RegistrationPayload {
  email: string;
  verification_code: string;
  password: string;
  password_confirm: string;
  last_name_kanji: string;
  first_name_kanji: string;
  last_name_alphabet: string;
  first_name_alphabet: string;
  birthday: string;
  gender: string;
  job: string;
  industry: string;
  industry_other: string;
  zip_current: string;
  address_current: string;
  zip_second: '';
  address_second: '';
  amc: string;
  phone: string;
  purpose: string[];
  purpose_detail: string;
  purpose_other: string;
  mail_opt: string;
  condition_no_home: true;
  condition_not_single_transfer: true;
  condition_not_care: true;
}

export const registerMember = (body: RegistrationPayload) =>
  call<{ token?: string; expires_in?: number }>('post', '/user/register', { auth: 'client', body });
