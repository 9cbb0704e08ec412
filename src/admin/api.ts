// The back office's API client (/v1/admin/…). The session is the HttpOnly cookie the browser
// sends by itself; every call that changes something carries the session's CSRF token
// (x-csrf-token), which the login answer and GET /v1/admin/session give. A 401 on any call
// but the login's own means the session is gone: the one listener (src/admin/session.tsx)
// takes the operator to the login page, and what they typed stays in its draft.
import redaxios from 'redaxios';
import text from '../../messages/admin.ja.json';
import { format } from '../shared/format';
import type { FieldErrors } from '../shared/validation/field-errors';

export class AdminFailure extends Error {
  constructor(
    message: string,
    /** HTTP status; 0 when the server could not be reached. */
    readonly status: number,
    readonly code?: string,
    readonly fields?: FieldErrors,
  ) {
    super(message);
  }
}

let csrfToken = '';
export const setCsrfToken = (token: string) => void (csrfToken = token);

let sessionGone: (() => void) | undefined;
/** Called when a call finds the session gone (401). One listener: the session provider. */
export function onSessionGone(listener: () => void) {
  sessionGone = listener;
  return () => {
    if (sessionGone === listener) sessionGone = undefined;
  };
}

/** Calls that answer 401 for another reason than a dead session (wrong code, no session yet). */
const NO_SESSION_NEEDED = ['/login', '/login/code', '/setup', '/session'];

type Method = 'get' | 'post';

export async function adminCall<T>(method: Method, path: string, options: { body?: unknown; query?: Record<string, string | number | undefined> } = {}): Promise<T> {
  const params = Object.fromEntries(Object.entries(options.query ?? {}).filter(([, v]) => v !== undefined && v !== ''));
  try {
    const response = await redaxios<T>({
      method,
      url: `/v1/admin${path}`,
      data: options.body ?? (method === 'post' ? {} : undefined),
      params,
      headers: method === 'get' ? {} : { 'x-csrf-token': csrfToken },
      withCredentials: true,
    });
    return response.data as T;
  } catch (thrown) {
    const response = thrown as { status?: number; data?: { error?: string; code?: string; fields?: FieldErrors } | string };
    if (!response || typeof response.status !== 'number') throw new AdminFailure(text.errors.network, 0, 'NETWORK');
    const body = typeof response.data === 'object' && response.data ? response.data : {};
    if (response.status === 401 && !NO_SESSION_NEEDED.includes(path)) sessionGone?.();
    throw new AdminFailure(body.error ?? format(text.errors.httpStatus, { status: response.status }), response.status, body.code, body.fields);
  }
}
