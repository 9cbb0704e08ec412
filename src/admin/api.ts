// The back office's API client (/v1/admin/…). The session is the HttpOnly cookie the browser
// sends by itself; every call that changes something carries the session's CSRF token
// (x-csrf-token), which the login answer and GET /v1/admin/session give. A 401 on any call
// but the login's own means the session is gone: the one listener (src/admin/session.tsx)
// takes the operator to the login page, and what they typed stays in its draft.
import redaxios from 'redaxios';
import text from '../../messages/admin.ja.json';
import { format } from '../shared/format';
import { sessionSecondsIn } from '../shared/session-headers';
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
const NO_SESSION_NEEDED = ['/login', '/login/code', '/login/passkey/options', '/login/passkey', '/setup', '/session'];

type Method = 'get' | 'post' | 'delete';

/** When the session ends, in this device's time: its idle end (moved by every call) and its
 *  absolute end. Each answer of a guarded route says how many seconds are left of each. */
export interface SessionTimes {
  /** When the answer came that told these. */
  at: number;
  idleEnd: number;
  end: number;
}
let sessionTimes: SessionTimes | undefined;
const timesListeners = new Set<() => void>();

function keepSessionTimes(headers: Headers | undefined) {
  const told = sessionSecondsIn(headers);
  if (!told) return;
  const at = Date.now();
  sessionTimes = { at, idleEnd: at + told.expiresIn * 1000, end: at + told.endsIn * 1000 };
  timesListeners.forEach((listener) => listener());
}

/** The session's times as the last answer told them (undefined before any, or once it ended). */
export const currentSessionTimes = () => sessionTimes;
export function forgetSessionTimes() {
  sessionTimes = undefined;
  timesListeners.forEach((listener) => listener());
}
/** The idle end has passed with no call: the session is gone, as a 401 would say. */
export function sessionRanOut() {
  forgetSessionTimes();
  sessionGone?.();
}
export function onSessionTimes(listener: () => void) {
  timesListeners.add(listener);
  return () => void timesListeners.delete(listener);
}

type Query = Record<string, string | number | undefined>;

export async function adminCall<T>(method: Method, path: string, options: { body?: unknown; query?: Query } = {}): Promise<T> {
  return (await send<T>(method, path, options)).data as T;
}

/** A file the API answers (the members' CSV) as a Blob, through the same 401 handling as every
 *  call, with the name the server gave it in Content-Disposition, when it gave one. */
export async function adminDownload(path: string, query: Query = {}): Promise<{ blob: Blob; fileName?: string }> {
  const response = await send<Blob>('get', path, { query }, 'blob');
  return { blob: response.data, fileName: fileNameOf(response.headers.get('content-disposition')) };
}

/** The file name of a Content-Disposition header (filename*=UTF-8'' first, then filename=). */
export function fileNameOf(disposition: string | null | undefined): string | undefined {
  const encoded = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(disposition ?? '')?.[1];
  if (encoded) {
    try {
      return decodeURIComponent(encoded.trim());
    } catch {
      // a malformed escape: fall back to the plain filename=
    }
  }
  return /filename\s*=\s*"([^"]+)"|filename\s*=\s*([^;\s]+)/i.exec(disposition ?? '')?.slice(1).find(Boolean);
}

async function send<T>(method: Method, path: string, options: { body?: unknown; query?: Query }, responseType?: 'blob') {
  const params = Object.fromEntries(Object.entries(options.query ?? {}).filter(([, v]) => v !== undefined && v !== ''));
  try {
    const response = await redaxios<T>({
      method,
      url: `/v1/admin${path}`,
      data: options.body ?? (method === 'post' ? {} : undefined),
      params,
      headers: method === 'get' ? {} : { 'x-csrf-token': csrfToken },
      withCredentials: true,
      responseType,
    });
    keepSessionTimes(response.headers);
    return response;
  } catch (thrown) {
    const response = thrown as { status?: number; data?: unknown };
    if (!response || typeof response.status !== 'number') throw new AdminFailure(text.errors.network, 0, 'NETWORK');
    const body = await errorBody(response.data);
    if (response.status === 401 && !NO_SESSION_NEEDED.includes(path)) sessionGone?.();
    throw new AdminFailure(body.error ?? format(text.errors.httpStatus, { status: response.status }), response.status, body.code, body.fields);
  }
}

/** The API's error answer; a download's arrives as a Blob, read here as the JSON it is. */
async function errorBody(data: unknown): Promise<{ error?: string; code?: string; fields?: FieldErrors }> {
  let parsed = data;
  if (typeof Blob !== 'undefined' && data instanceof Blob) {
    try {
      parsed = JSON.parse(await data.text());
    } catch {
      parsed = undefined;
    }
  }
  return typeof parsed === 'object' && parsed ? parsed : {};
}
