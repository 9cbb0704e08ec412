// The member's session on this device, as the specification names it: the token in local
// storage "token", cookies ak_logged_in / ak_login_exp (the session timer) and lastLogin.
// It sits below the API client: the client reads the token here and, when the server says the
// session is gone, ends it here once; the app shell listens and takes the member to login.
export const TOKEN_KEY = 'token';
export const SESSION_SECONDS = 3600;
const LAST_LOGIN_SECONDS = 7_776_000; // 90 days

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

/** After a successful login or registration; the server says how long the session lasts. */
export function startSession(newToken: string, seconds: number = SESSION_SECONDS) {
  ended = false;
  localStorage.setItem(TOKEN_KEY, newToken);
  const expires = Math.floor(Date.now() / 1000) + seconds;
  setCookie('ak_logged_in', '1', seconds);
  setCookie('ak_login_exp', String(expires), seconds);
  // Secure is honoured on https and on http://localhost alike.
  setCookie('lastLogin', 'true', LAST_LOGIN_SECONDS, '; Secure');
}

export function hasLastLogin(): boolean {
  return readCookie('lastLogin') === 'true';
}

/** Milliseconds left on the session timer; null when no timer is running. */
export function sessionRemainingMs(): number | null {
  const exp = Number(readCookie('ak_login_exp'));
  return Number.isFinite(exp) && exp > 0 ? exp * 1000 - Date.now() : null;
}

export function endSession({ clearSessionStorage = false } = {}) {
  localStorage.removeItem(TOKEN_KEY);
  setCookie('ak_logged_in', '', 0);
  setCookie('ak_login_exp', '', 0);
  if (clearSessionStorage) sessionStorage.clear();
}

type SessionEndedListener = () => void;
const listeners = new Set<SessionEndedListener>();
let ended = false;

/** The app shell's hook: called once when a member call finds the session gone. */
export function onSessionEnded(listener: SessionEndedListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Ends the session because the server no longer knows it. Several calls failing together (my
 *  page loads three things at once) end it once: only the first tells the listeners. */
export function sessionEndedByServer() {
  endSession();
  if (ended) return;
  ended = true;
  listeners.forEach((listener) => listener());
}
