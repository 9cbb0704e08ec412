// The back office's session lengths (issue 23: 30 minutes idle, 8 hours in all), overridable
// for tests; src/server/config.ts may read them from the environment.
export interface AdminSettings {
  /** A session ends this long after the operator's last request. */
  sessionSeconds: number;
  /** …and this long after login, however active. */
  sessionMaxSeconds: number;
}

export const DEFAULT_ADMIN_SETTINGS: AdminSettings = { sessionSeconds: 1800, sessionMaxSeconds: 8 * 3600 };

/** The session cookie: __Host- (Secure, Path=/, no Domain), HttpOnly, SameSite=Strict. */
export const ADMIN_COOKIE = '__Host-admin_session';
/** The header that must carry the session's CSRF token on every request that changes something. */
export const CSRF_HEADER = 'x-csrf-token';
