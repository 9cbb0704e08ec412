// A member's passkeys (docs/decisions/031) and the passkey login. @simplewebauthn/browser is
// loaded only when a passkey is used, so no screen's first render carries it (ADR 029).
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { call } from './client';

export interface PasskeyItem {
  id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

/** Whether this browser can use passkeys at all (the login screen hides its button otherwise). */
export const passkeysSupported = () => typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function' && !!navigator.credentials;

export const loadWebAuthn = () => import('@simplewebauthn/browser');

export const listPasskeys = () => call<{ items: PasskeyItem[] }>('get', '/user/passkeys', { auth: 'member' }).then((answer) => answer.items);

/** Asks the server for a challenge, lets the authenticator make a passkey, and keeps it under `name`. */
export async function addPasskey(name: string): Promise<PasskeyItem> {
  const [{ startRegistration }, optionsJSON] = await Promise.all([loadWebAuthn(), call<PublicKeyCredentialCreationOptionsJSON>('post', '/user/passkeys/options', { auth: 'member' })]);
  const response = await startRegistration({ optionsJSON });
  return (await call<{ passkey: PasskeyItem }>('post', '/user/passkeys', { auth: 'member', body: { name, response } })).passkey;
}

export const removePasskey = (id: string) => call<void>('delete', `/user/passkeys/${encodeURIComponent(id)}`, { auth: 'member' });

/** The usernameless login: the authenticator offers this site's passkeys; the answer is the
 *  session a password and code would open. */
export async function passkeyLogin() {
  const [{ startAuthentication }, optionsJSON] = await Promise.all([loadWebAuthn(), call<PublicKeyCredentialRequestOptionsJSON>('post', '/user/passkey-login/options', { auth: 'client' })]);
  const response = await startAuthentication({ optionsJSON });
  return call<{ token?: string; expires_in?: number; ends_in?: number }>('post', '/user/passkey-login', { auth: 'client', body: { response } });
}
