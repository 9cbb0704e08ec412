import { call } from './client';

export interface Credentials {
  email: string;
  password: string;
}

/** Checks the credentials and mails a login code. */
export const sendLoginCode = (body: Credentials) => call<unknown>('post', '/user/verify', { auth: 'client', body });

/** With a code, or without one from a device the server trusts. */
export const login = (body: Credentials & { code?: string }) =>
  call<{ token?: string; expires_in?: number; ends_in?: number }>('post', '/user/login', { auth: 'client', body });

export const logout = () => call<void>('post', '/user/logout', { auth: 'member', sessionGoneFails: true });

/** The session warning's "extend": the answer's headers move the session timer (client.ts). */
export const extendSession = () => call<{ expires_in: number; ends_in: number }>('post', '/user/session/extend', { auth: 'member' });
