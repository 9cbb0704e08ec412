import { call } from './client';

export interface Identity {
  email: string;
  birthday: string;
  phone: string;
}

/** Identity check; on success a code goes to the address. */
export const sendResetCode = (identity: Identity) =>
  call<unknown>('post', '/user/verify', { auth: 'client', body: { ...identity, flow: 'password_change' } });

export const setPassword = (email: string, code: string, newPassword: string) =>
  call<unknown>('post', '/user/set-password', { auth: 'client', body: { email, code, new_password: newPassword } });
