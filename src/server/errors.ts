// The API's error catalogue: a stable code, its HTTP status, and the Japanese message from
// messages/ja.json. Clients read `error` (the message), `code`, and `fields` for inline errors.
import messages from '../../messages/ja.json';
import type { FieldErrors } from '../shared/validation/field-errors';

export const errorStatus = {
  VALIDATION: 400,
  BAD_REQUEST: 400,
  CODE_INVALID: 400,
  CLIENT_KEY_INVALID: 401,
  UNAUTHENTICATED: 401,
  SESSION_EXPIRED: 401,
  SESSION_LIMIT: 401,
  LOGIN_FAILED: 401,
  CODE_REQUIRED: 401,
  VERIFICATION_REQUIRED: 400,
  LINK_INVALID: 400,
  CODE_LINK_INVALID: 400,
  MASTER_UNKNOWN: 400,
  WRONG_PASSWORD: 400,
  IDENTITY_FAILED: 400,
  NOT_FOUND: 404,
  REQUEST_TIMEOUT: 408,
  EMAIL_TAKEN: 409,
  CODE_LOCKED: 429,
  CODE_RATE_LIMITED: 429,
  TOO_MANY_ATTEMPTS: 429,
  LINK_RATE_LIMITED: 429,
  MAIL_FAILED: 502,
  INTERNAL: 500,
  DB_UNAVAILABLE: 503,
  ADMIN_UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  CSRF_INVALID: 403,
  OPERATOR_EXISTS: 409,
  OPERATOR_DISABLED: 409,
  OPERATOR_SELF: 409,
  SETUP_MAIL_FAILED: 502,
  RECORD_NOT_FOUND: 404,
  ALREADY_DECIDED: 409,
  DECIDED_MEANWHILE: 409,
  NOT_DECIDED: 409,
  MEMBER_WITHDRAWN: 409,
  NOTICE_RETRACTED: 409,
  INQUIRY_CLOSED: 409,
  ALREADY_ANSWERED: 409,
  NOT_ANSWERED: 409,
  CHANGED_MEANWHILE: 409,
  PASSKEY_FAILED: 400,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly fields?: FieldErrors,
  ) {
    super(messages.api[code]);
    this.status = errorStatus[code];
  }

  toBody() {
    return { error: this.message, code: this.code, ...(this.fields ? { fields: this.fields } : {}) };
  }
}
