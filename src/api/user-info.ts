import { call } from './client';

export interface UserInfo {
  email: string;
  last_name_kanji: string;
  first_name_kanji: string;
  last_name_alpha: string;
  first_name_alpha: string;
  birthday: string;
  gender: string;
  job: string;
  jobLabel?: string;
  industry: string;
  industry_other: string;
  zip_current: string;
  address_current: string;
  amc: string;
  phone: string;
  purpose: string;
  purpose_detail: string;
  purpose_other: string;
  mail_opt: string;
}

export const getUserInfo = () => call<UserInfo>('get', '/user/info', { auth: 'member' });
