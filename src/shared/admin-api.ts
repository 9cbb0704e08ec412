// Shapes of the back office's API (/v1/admin/…): the server's services and routes build their
// answers as these types and the back office (src/admin) reads them, so a change of shape on one
// side fails the other's typecheck. The answers are generated from their schemas
// (schemas/api/answers/admin.json → src/shared/generated/admin-answers.ts, npm run
// generate:api-types), and tests/api/admin-roles.test.ts checks every answer the server gives
// against its schema; what a form submits is its schemas/api payload. Who may do what stays on
// the server (src/server/admin/permissions.ts).
import type { ApplicationPage, Audience, Decision, Role } from './generated/admin-answers';

export type * from './generated/admin-answers';

/** Every operator role: the server's permissions name them, the back office's catalogue too. */
export const ROLES = ['admin', 'secretariat', 'municipality'] as const satisfies readonly Role[];

/** Every list of the API (GET /v1/admin/applications, notices, inquiries, members, audit): one
 *  page of T, as each list's page answer states it (ApplicationPage, NoticePage, …). */
export type Page<T> = Omit<ApplicationPage, 'items'> & { items: T[] };

// What the forms submit (their payload schemas are under schemas/api) --------------------------

/** POST /v1/admin/login: what the login form submits. */
export interface LoginInput {
  email: string;
  password: string;
}

/** POST /v1/admin/login/code: the login's flow and the code mailed for it. */
export interface LoginCodeInput {
  flow: string;
  code: string;
}

/** POST /v1/admin/setup: the link's key and the set-up form (the password twice). */
export interface SetupInput {
  key: string;
  password: string;
  password_confirm: string;
}

/** POST /v1/admin/password-reset: the address an operator asks a password-reset link for
 *  (answered 202 whoever's it is). GET /v1/admin/password-reset/link answers a SetupLink, and
 *  POST /v1/admin/password-reset/link takes a SetupInput, as the set-up link's routes do. */
export interface PasswordResetInput {
  email: string;
}

/** POST /v1/admin/operators: the operator to add (a set-up link is mailed). */
export interface NewOperator {
  email: string;
  name: string;
  role: Role;
}

/** POST /v1/admin/applications/:n/preview and …/decision: what the decision form submits. */
export interface DecisionInput {
  decision: Decision;
  reason?: string;
}

/** POST /v1/admin/applications/:n/reversal: the reason a decision is reversed. */
export interface ReversalInput {
  reason: string;
}

/** POST /v1/admin/notices and …/preview: the notice to send. */
export interface NoticeInput {
  audience: Audience;
  register_number?: string;
  message: string;
  /** ISO date-time; empty or absent: now. */
  publish_at?: string;
}

/** POST /v1/admin/inquiries/:id/answer and …/preview: the answer to send. */
export interface AnswerInput {
  answer: string;
}

/** POST /v1/admin/inquiries/:id/answers/:answerId/correction and …/preview: the corrected answer and why. */
export interface CorrectionInput {
  answer: string;
  note: string;
}

/** POST /v1/admin/inquiries/:id/assign: to whom. */
export interface AssignInput {
  operator_id: string;
}

/** POST /v1/admin/requests/:id/handle: done or refused, and the answer the member reads
 *  (schemas/forms/admin-request-handle.schema.json). */
export interface RequestHandleInput {
  status: 'done' | 'refused';
  answer: string;
}
