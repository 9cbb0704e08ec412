import type { RegistrationPayload } from '../shared/api-types';
import { call } from './client';

export type { RegistrationPayload };

/** Mails a registration code to the address. */
export const sendRegistrationCode = (email: string) => call<unknown>('post', '/email/register', { auth: 'client', body: { email } });

/** Checks the code; the answer names the verified address. */
export const verifyRegistrationCode = (email: string, key: string) =>
  call<{ email?: string }>('post', '/email/verify', { auth: 'client', body: { key, email } });


export const registerMember = (body: RegistrationPayload) =>
  call<{ token?: string; expires_in?: number; ends_in?: number; register_number?: string }>('post', '/user/register', { auth: 'client', body });
