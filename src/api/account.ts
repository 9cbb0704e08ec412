import { call } from './client';

/** Mails a code to the new address. */
export const sendEmailChangeCode = (email: string) =>
  call<unknown>('post', '/user/verify', { auth: 'member', body: { flow: 'email_change', email } });

export const confirmEmailChange = (email: string, code: string) =>
  call<{ email: string }>('post', '/user/email/change', { auth: 'member', body: { flow: 'email_change', email, code } });

export const withdraw = (password: string, reason: string) =>
  call<unknown>('post', '/user/withdraw', { auth: 'member', body: { password, reason } });
