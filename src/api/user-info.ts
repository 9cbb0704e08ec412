import type { UserInfo } from '../shared/api-types';
import { call } from './client';

export type { UserInfo };

export const getUserInfo = () => call<UserInfo>('get', '/user/info', { auth: 'member' });

export const PROFILE_UPDATE_TIMEOUT_MS = 15_000;

/** The specification's "Profile update payload". */
export interface ProfileUpdate {
  email: string;
  last_name_kanji: string;
  first_name_kanji: string;
  last_name_alpha: string;
  first_name_alpha: string;
  birthday: string;
  gender: string;
  zip_current: string;
  address_current: string;
  amc: string;
  phone: string;
  job: string;
  industry: string;
  industry_other: string;
  purpose: string;
  purpose_detail: string;
  purpose_other: string;
  mail_opt: string;
}

export const updateUserInfo = (body: ProfileUpdate) =>
  call<UserInfo>('put', '/user/info', { auth: 'member', body, timeoutMs: PROFILE_UPDATE_TIMEOUT_MS });
