import type { ProfileUpdate, UserInfo } from '../shared/api-types';
import { call } from './client';

export type { ProfileUpdate, UserInfo };

export const getUserInfo = () => call<UserInfo>('get', '/user/info', { auth: 'member' });

export const PROFILE_UPDATE_TIMEOUT_MS = 15_000;


export const updateUserInfo = (body: ProfileUpdate) =>
  call<UserInfo>('put', '/user/info', { auth: 'member', body, timeoutMs: PROFILE_UPDATE_TIMEOUT_MS });
