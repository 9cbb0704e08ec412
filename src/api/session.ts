// The member's session on this device, as the specification names it: the token in local
// storage "token", cookies ak_logged_in / ak_login_exp (the session timer) and lastLogin. The
// session slides (docs/decisions/024): every member answer tells how long it has left
// (X-Session-Expires-In, X-Session-Ends-In), and the timer cookie follows; ak_login_end holds the
// absolute end, which no activity moves.
// It sits below the API client: the client reads the token here and, when the server says the
// session is gone, ends it here once; the app shell listens and takes the member to login.
import { settings } from './settings';

export const TOKEN_KEY = 'token';
export const SESSION_SECONDS = 3600;
const LAST_LOGIN_SECONDS = 7_776_000; // 90 days
/** Form drafts in session storage (src/app/use-session-draft.ts) start with this. */
export const DRAFT_PREFIX = 'member-site:draft:';

/** Why a session ended, as the member is told: no activity for SESSION_SECONDS, the absolute
 *  limit since login, or anything else (logged out in another tab, withdrawn, password reset). */
export type SessionEndReason = 'idle' | 'limit' | 'ended';

function setCookie(name: string, value: string, maxAge: number, extra = '') {
  document.cookie = `${name}=${encodeURIComponent(value)}; Max-Age=${maxAge}; Path=/; SameSite=Strict${extra}`;
}

function readCookie(name: string): string | undefined {
  const pair = document.cookie.split('; ').find((c) => c.startsWith(`${name}=`));
  return pair ? decodeURIComponent(pair.slice(name.length + 1)) : undefined;
}

export function token(): string | null {
  return localStorage.getItem(TOKEN_KEY);
}

/** The timer cookies: the idle end (ak_login_exp, the spec's) and the absolute end, in epoch
 *  seconds. The logged-in flag lasts until the idle end; the two times outlive it (until the
 *  absolute end), so the app can still tell, at the idle end, that the session ended and why. */
function setTimes(expiresIn: number, endsIn: number) {
  const nowSeconds = Math.floor(Date.now() / 1000);
  setCookie('ak_logged_in', '1', expiresIn);
  setCookie('ak_login_exp', String(nowSeconds + expiresIn), endsIn + 60);
  setCookie('ak_login_end', String(nowSeconds + endsIn), endsIn + 60);
}

/** After a successful login or registration; the server says how long the session lasts. */
export function startSession(newToken: string, seconds: number = SESSION_SECONDS, endsIn: number = settings().sessionMaxSeconds) {
  ended = false;
  localStorage.setItem(TOKEN_KEY, newToken);
  setTimes(seconds, Math.max(seconds, endsIn));
  // Secure is honoured on https and on http://localhost alike.
  setCookie('lastLogin', 'true', LAST_LOGIN_SECONDS, '; Secure');
}

/** A member answer said how long the session has left: the timer follows (it moves forward
 *  while the member is active, in this tab or another). Nothing is set once the session ended here. */
export function keepSessionTimes(expiresIn: number, endsIn: number) {
  if (!token() || !Number.isFinite(expiresIn) || !Number.isFinite(endsIn) || expiresIn <= 0) return;
  setTimes(expiresIn, Math.max(expiresIn, endsIn));
}

export function hasLastLogin(): boolean {
  return readCookie('lastLogin') === 'true';
}

/** The session's idle end and absolute end (epoch ms), while this device holds a token. */
export function sessionEnds(): { idleEnd: number; end: number } | null {
  const idle = Number(readCookie('ak_login_exp'));
  if (!token() || !Number.isFinite(idle) || idle <= 0) return null;
  const end = Number(readCookie('ak_login_end'));
  return { idleEnd: idle * 1000, end: Number.isFinite(end) && end > 0 ? end * 1000 : idle * 1000 };
}

/** Ends the session on this device. Drafts stay (they are restored after the next login)
 *  unless the member left on purpose (`clearDrafts`: logout) or withdrew (`clearSessionStorage`). */
export function endSession({ clearSessionStorage = false, clearDrafts = false } = {}) {
  localStorage.removeItem(TOKEN_KEY);
  setCookie('ak_logged_in', '', 0);
  setCookie('ak_login_exp', '', 0);
  setCookie('ak_login_end', '', 0);
  if (clearSessionStorage) sessionStorage.clear();
  else if (clearDrafts) removeDrafts();
}

/** Every form draft of this tab (src/app/use-session-draft.ts keeps them under this prefix). */
function removeDrafts() {
  try {
    for (const key of Object.keys(sessionStorage)) if (key.startsWith(DRAFT_PREFIX)) sessionStorage.removeItem(key);
  } catch {
    // Storage off: there are no drafts.
  }
}

type SessionEndedListener = (reason: SessionEndReason) => void;
const listeners = new Set<SessionEndedListener>();
let ended = false;

/** The app shell's hook: called once when a member call finds the session gone. */
export function onSessionEnded(listener: SessionEndedListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Ends the session because the server no longer knows it. Several calls failing together (my
 *  page loads three things at once) end it once: only the first tells the listeners. */
export function sessionEndedByServer(reason: SessionEndReason = 'ended') {
  endSession();
  if (ended) return;
  ended = true;
  listeners.forEach((listener) => listener(reason));
}
