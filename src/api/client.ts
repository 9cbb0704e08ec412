// The one API client. It adds the client credential or the member's bearer token, and turns
// every failure into an ApiFailure carrying the server's Japanese message and field errors.
import redaxios from 'redaxios';
import messages from '../../messages/ja.json';
import { format } from '../shared/format';
import type { FieldErrors } from '../shared/validation/field-errors';
import { settings } from '../app/settings';
import { token } from '../app/session';

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

function headersFor(auth: Auth): Record<string, string> {
  const bearer = token();
  if ((auth === 'member' || auth === 'member-or-client') && bearer) return { Authorization: `Bearer ${bearer}` };
  if (auth === 'member') throw new ApiFailure(messages.api.UNAUTHENTICATED, 401, 'UNAUTHENTICATED');
  if (auth === 'client' || auth === 'member-or-client') return { 'X-Client-Key': settings().clientKey };
  return {};
}

export interface CallOptions {
  auth: Auth;
  body?: unknown;
  params?: Record<string, string | number>;
  timeoutMs?: number;
}

export async function call<T>(method: 'get' | 'post' | 'put', path: string, options: CallOptions): Promise<T> {
  const controller = new AbortController();
  const timer = options.timeoutMs ? window.setTimeout(() => controller.abort(), options.timeoutMs) : undefined;
  try {
    const response = await redaxios<T>({
      method,
      url: `/v1${path}`,
      data: options.body,
      params: options.params,
      headers: headersFor(options.auth),
      withCredentials: true,
      // redaxios has no `signal` option; its `fetch` option lets the time-out abort the request.
      fetch: (url: RequestInfo | URL, init?: RequestInit) => fetch(url, { ...init, signal: controller.signal }),
    });
    return response.data as T;
  } catch (thrown) {
    if (thrown instanceof ApiFailure) throw thrown;
    if (controller.signal.aborted) throw new ApiFailure(messages.client.network, -1, 'TIMEOUT');
    const response = thrown as { status?: number; data?: ErrorBody | string };
    if (!response || typeof response.status !== 'number') throw new ApiFailure(messages.client.network, 0, 'NETWORK');
    const body = typeof response.data === 'object' && response.data ? response.data : {};
    const text = body.error ?? body.message ?? format(messages.client.httpStatus, { status: response.status });
    throw new ApiFailure(text, response.status, body.code, body.fields);
  } finally {
    window.clearTimeout(timer);
  }
}
