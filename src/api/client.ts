// The one API client. It adds the client credential or the member's bearer token, and turns
// every failure into an ApiFailure carrying the server's Japanese message and field errors.
// A member call that finds the session gone (no token here, or a 401 from the server) ends the
// session in one place and never settles: the app shell takes the member to login, so no screen
// handles a dead session, and no screen retries into it.
import redaxios from 'redaxios';
import messages from '../../messages/ja.json';
import { format } from '../shared/format';
import type { FieldErrors } from '../shared/validation/field-errors';
import { settings } from './settings';
import { keepSessionTimes, sessionEndedByServer, token, type SessionEndReason } from './session';
import { sessionSecondsIn } from '../shared/session-headers';

export type Auth = 'client' | 'member' | 'none' | 'member-or-client';

export class ApiFailure extends Error {
  constructor(
    message: string,
    /** HTTP status; 0 for a network failure, -1 for a time-out. */
    readonly status: number,
    readonly code?: string,
    readonly fields?: FieldErrors,
  ) {
    super(message);
  }
  get isNetwork() {
    return this.status === 0;
  }
  get isTimeout() {
    return this.status === -1;
  }
}

interface ErrorBody {
  error?: string;
  message?: string;
  code?: string;
  fields?: FieldErrors;
}

function credentialsFor(auth: Auth, bearer: string | null): Record<string, string> {
  if ((auth === 'member' || auth === 'member-or-client') && bearer) return { Authorization: `Bearer ${bearer}` };
  if (auth === 'client' || auth === 'member-or-client') return { 'X-Client-Key': settings().clientKey };
  return {};
}

/** A mailed code belongs to the flow (this tab) that asked for it: the answer that mailed it
 *  names the flow in this header, and the tab carries it back with the code, and with a resend
 *  (docs/decisions/015). Kept per tab, so a reload on the code step goes on with the same code. */
const CODE_FLOW_HEADER = 'X-Code-Flow';
const CODE_FLOW_KEY = 'codeFlow';

function headersFor(auth: Auth, bearer: string | null): Record<string, string> {
  const flow = sessionStorage.getItem(CODE_FLOW_KEY);
  return { ...credentialsFor(auth, bearer), ...(flow ? { [CODE_FLOW_HEADER]: flow } : {}) };
}

function keepCodeFlow(headers: Headers | undefined) {
  const flow = headers?.get(CODE_FLOW_HEADER);
  if (flow) sessionStorage.setItem(CODE_FLOW_KEY, flow);
}

/** The server's answers that mean the bearer token no longer opens a session, and why. */
const SESSION_GONE = new Map<string, SessionEndReason>([
  ['UNAUTHENTICATED', 'ended'],
  ['SESSION_EXPIRED', 'idle'],
  ['SESSION_LIMIT', 'limit'],
]);

/** The session is over: end it once and leave the caller waiting while the app leaves the screen. */
function sessionGone(reason: SessionEndReason = 'ended'): Promise<never> {
  sessionEndedByServer(reason);
  return new Promise<never>(() => undefined);
}

/** A member answer says how long the session has left (it slid with this request; ADR 024). */
function keepSessionFrom(headers: Headers | undefined) {
  const told = sessionSecondsIn(headers);
  if (told) keepSessionTimes(told.expiresIn, told.endsIn);
}

export interface CallOptions {
  auth: Auth;
  body?: unknown;
  params?: Record<string, string | number>;
  timeoutMs?: number;
  /** Logout ends the session itself: a dead session is then a plain failure, not a redirect. */
  sessionGoneFails?: boolean;
  /** 'blob': the answer's body as it came (a file to save). redaxios parses any text it can as
   *  JSON, so a JSON file is taken as a blob to stay byte for byte what the server sent. */
  responseType?: 'blob';
}

export async function call<T>(method: 'get' | 'post' | 'put' | 'delete', path: string, options: CallOptions): Promise<T> {
  const bearer = token();
  if (options.auth === 'member' && !bearer && !options.sessionGoneFails) return sessionGone();
  const controller = new AbortController();
  const timer = options.timeoutMs ? window.setTimeout(() => controller.abort(), options.timeoutMs) : undefined;
  try {
    const response = await redaxios<T>({
      method,
      url: `/v1${path}`,
      data: options.body,
      params: options.params,
      ...(options.responseType ? { responseType: options.responseType } : {}),
      headers: headersFor(options.auth, bearer),
      withCredentials: true,
      // redaxios has no `signal` option; its `fetch` option lets the time-out abort the request.
      fetch: (url: RequestInfo | URL, init?: RequestInit) => fetch(url, { ...init, signal: controller.signal }),
    });
    keepCodeFlow(response.headers);
    keepSessionFrom(response.headers);
    return response.data as T;
  } catch (thrown) {
    if (thrown instanceof ApiFailure) throw thrown;
    if (controller.signal.aborted) throw new ApiFailure(messages.client.network, -1, 'TIMEOUT');
    const response = thrown as { status?: number; data?: ErrorBody | string; headers?: Headers };
    if (!response || typeof response.status !== 'number') throw new ApiFailure(messages.client.network, 0, 'NETWORK');
    const body = typeof response.data === 'object' && response.data ? response.data : {};
    const gone = SESSION_GONE.get(body.code ?? '');
    if (response.status === 401 && bearer && gone && !options.sessionGoneFails) return sessionGone(gone);
    keepSessionFrom(response.headers);
    const text = body.error ?? body.message ?? format(messages.client.httpStatus, { status: response.status });
    throw new ApiFailure(text, response.status, body.code, body.fields);
  } finally {
    window.clearTimeout(timer);
  }
}
