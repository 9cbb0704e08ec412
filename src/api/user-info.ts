import type { UserInfo } from '../shared/api-types';
import { call } from './client';

export type { UserInfo };

export const getUserInfo = () => call<UserInfo>('get', '/user/info', { auth: 'member' });
