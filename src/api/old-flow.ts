// The earlier generation's calls: a registration link instead of a code, the link's check, the
// registration it allows, and the earliest login's code request ({email} alone).
import type { OldRegistrationPayload } from '../shared/api-types';
import { call } from './client';

export type { OldRegistrationPayload };

/** Mails a link to the old registration screen (POST /v1/email/register with flow "link"). */
export const requestRegistrationLink = (email: string) => call<unknown>('post', '/email/register', { auth: 'client', body: { email, flow: 'link' } });

/** The address a link proves; a non-OK answer is a failure. */
export const verifyRegistrationLink = (key: string) => call<{ email?: string }>('get', '/email/verify', { auth: 'none', params: { key } });

export const registerByLink = (body: OldRegistrationPayload) => call<{ register_number?: string }>('post', '/user/register-by-link', { auth: 'client', body });

/** The earliest login: mails a code to the address (the answer is the same for any address). */
export const sendOldLoginCode = (email: string) => call<unknown>('post', '/user/verify', { auth: 'client', body: { email } });
