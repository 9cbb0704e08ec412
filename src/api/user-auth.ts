import { call } from './client';

export interface Credentials {
  email: string;
  password: string;
}

/** Checks the credentials and mails a login code. */
export const sendLoginCode = (body: Credentials) => call<unknown>('post', '/user/verify', { auth: 'client', body });

/** With a code, or without one from a device the server trusts. */
export const login = (body: Credentials & { code?: string }) =>
  call<{ token?: string; expires_in?: number }>('post', '/user/login', { auth: 'client', body });

export const logout = () => call<void>('post', '/user/logout', { auth: 'member', sessionGoneFails: true });
