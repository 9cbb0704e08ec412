// Shapes of the back office's API (/v1/admin/…): the server's services and routes build their
// answers as these types and the back office (src/admin) reads them, so a change of shape on one
// side fails the other's typecheck. Who may do what stays on the server (src/server/admin/permissions.ts).
import type { MasterOption } from './api-types';

/** Every operator role: the server's permissions name them, the back office's catalogue too. */
export const ROLES = ['admin', 'secretariat', 'municipality'] as const;
/** An operator's role (GET /v1/admin/session): what the permissions and the catalogue's pages allow. */
export type Role = (typeof ROLES)[number];

/** An application's status in every answer that shows one (and the applications list's filter). */
export type ApplicationStatus = 'pending' | 'approved' | 'declined';
/** An inquiry's status in every answer that shows one (and the inquiries list's filter). */
export type InquiryStatus = 'open' | 'answered' | 'closed';
/** A member's account status in every answer that shows one. */
export type MemberStatus = 'active' | 'withdrawn';
/** An operator's status (GET /v1/admin/operators): invited until the set-up link is used. */
export type OperatorStatus = 'invited' | 'active' | 'disabled';

/** Every list of the API (GET /v1/admin/applications, notices, inquiries, members, audit): one page. */
export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  size: number;
}

/** The mail a change queued, once tried (POST …/decision, …/reversal, …/answer, …/correction):
 *  sent, or waiting in the outbox for the worker. */
export interface MailOutcome {
  id: string;
  to: string;
  status: 'sent' | 'queued';
}

/** A mail as it would go (POST …/preview of a decision, an answer, a correction), nothing sent. */
export interface MailPreview {
  to: string;
  subject: string;
  body: string;
}

// Accounts and sessions -----------------------------------------------------------------------

/** The operator of a session (GET /v1/admin/session, POST /v1/admin/login/code). */
export interface SessionOperator {
  id: string;
  email: string;
  name: string;
  role: Role;
}

/** GET /v1/admin/session and POST /v1/admin/login/code: who is logged in and the session's CSRF token and ends. */
export interface SessionAnswer {
  operator: SessionOperator;
  csrfToken: string;
  expiresAt: string;
  endsAt: string;
}

/** POST /v1/admin/login: the flow whose code was mailed. */
export interface LoginStarted {
  flow: string;
  /** The operator has a passkey, which may stand in for the mailed code (docs/decisions/031). */
  passkey: boolean;
}

/** A passkey of the operator's own (GET /v1/admin/account/passkeys; docs/decisions/031). */
export interface PasskeyItem {
  id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

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

/** GET /v1/admin/setup?key=…: whose set-up link it is. */
export interface SetupLink {
  email: string;
  name: string;
}

/** POST /v1/admin/setup: the link's key and the set-up form (the password twice). */
export interface SetupInput {
  key: string;
  password: string;
  password_confirm: string;
}

/** An operator as another sees them (GET /v1/admin/operators items, POST /v1/admin/operators);
 *  role as stored (text). */
export interface OperatorItem {
  id: string;
  email: string;
  name: string;
  role: string;
  status: OperatorStatus;
  created_at: string;
}

/** GET /v1/admin/operators: every operator. */
export interface OperatorList {
  items: OperatorItem[];
}

/** POST /v1/admin/operators: the operator to add (a set-up link is mailed). */
export interface NewOperator {
  email: string;
  name: string;
  role: Role;
}

// Applications --------------------------------------------------------------------------------

/** An application in GET /v1/admin/applications (and in its detail and a decision's answer). */
export interface ApplicationItem {
  register_number: string;
  status: ApplicationStatus;
  applied_at: string;
  decided_at: string | null;
  name: string;
  email: string;
  member_status: MemberStatus;
}

/** A decision or reversal of an application (GET /v1/admin/applications/:n, /v1/admin/members/:id). */
export interface DecisionItem {
  kind: 'decision' | 'reversal';
  decision: ApplicationStatus;
  reason: string;
  operator: string;
  at: string;
  reversed_by?: { reason: string; operator: string; at: string };
}

/** One row of a member's record, titled by its form, shown as on /user/info (an application's or a member's detail). */
export interface MemberFieldValue {
  /** The stored field (the first, for a row that joins several). */
  name: string;
  /** Every stored field the row shows. */
  names: string[];
  label: string;
  /** As stored (the fields a row joins, with a space between). */
  value: string;
  /** As the member reads it on /user/info. */
  display: string;
}

/** The member of GET /v1/admin/applications/:n and GET /v1/admin/members/:id, with their record. */
export interface MemberSummary {
  id: string;
  email: string;
  status: MemberStatus;
  name: string;
  registered_at: string;
  withdrawn_at: string | null;
  fields: MemberFieldValue[];
}

/** GET /v1/admin/applications/:registerNumber: one application in full. */
export interface ApplicationDetail {
  application: ApplicationItem;
  member: MemberSummary;
  purposes: MasterOption[];
  decisions: DecisionItem[];
}

/** What a decision makes of a pending application (POST /v1/admin/applications/:n/decision). */
export type Decision = 'approved' | 'declined';

/** POST /v1/admin/applications/:n/preview and …/decision: what the decision form submits. */
export interface DecisionInput {
  decision: Decision;
  reason?: string;
}

/** POST /v1/admin/applications/:n/reversal: the reason a decision is reversed. */
export interface ReversalInput {
  reason: string;
}

/** POST /v1/admin/applications/:n/preview: whom a decision would tell, and how; nothing saved. */
export interface DecisionPreview {
  member: { name: string; email: string };
  mail: MailPreview;
  notice: string;
}

/** POST /v1/admin/applications/:n/decision and …/reversal: the application after, the member's notice and the mail. */
export interface DecisionAnswer {
  application: ApplicationItem;
  notice: string;
  mail: MailOutcome;
}

// Notices -------------------------------------------------------------------------------------

/** Whom a notice is to: one member (by register number) or every member. */
export type Audience = 'one' | 'all';
/** A notice's state (GET /v1/admin/notices): scheduled until its time, retracted once taken back. */
export type NoticeStatus = 'scheduled' | 'published' | 'retracted';

/** POST /v1/admin/notices and …/preview: the notice to send. */
export interface NoticeInput {
  audience: Audience;
  register_number?: string;
  message: string;
  /** ISO date-time; empty or absent: now. */
  publish_at?: string;
}

/** A notice in GET /v1/admin/notices (and a member's detail, a send's and a retraction's answer). */
export interface NoticeItem {
  id: string;
  audience: Audience;
  register_number?: string;
  member_id?: string;
  member_name?: string;
  message: string;
  publish_at: string;
  created_at: string;
  created_by: string | null;
  retracted_at: string | null;
  status: NoticeStatus;
}

/** POST /v1/admin/notices/preview: whom a notice would reach and when, nothing saved. */
export interface NoticePreview {
  recipients: number;
  /** A notice to one member: that member. */
  member?: { name: string; email: string };
  message: string;
  publish_at: string;
}

/** POST /v1/admin/notices: the notice posted and how many it reaches. */
export interface NoticeSent {
  notice: NoticeItem;
  recipients: number;
}

/** POST /v1/admin/notices/:id/retract: the notice taken back. */
export interface NoticeRetracted {
  notice: NoticeItem;
}

// Inquiries -----------------------------------------------------------------------------------

/** An inquiry in GET /v1/admin/inquiries (and a member's detail). */
export interface InquiryItem {
  id: string;
  ticket_no: string;
  status: InquiryStatus;
  created_at: string;
  updated_at: string;
  name: string;
  email: string;
  inquiry_type: string;
  inquiry_type_label: string;
  member_id: string | null;
  assigned_to?: { id: string; name: string };
}

/** An answer or correction sent, with its mail's state (GET /v1/admin/inquiries/:id). */
export interface AnswerItem {
  id: string;
  answer: string;
  note?: string;
  /** The answer this one corrects. */
  corrects?: string;
  operator: string;
  at: string;
  mail_status: 'sent' | 'queued' | 'none';
}

/** A mail an inquiry's answers sent (GET /v1/admin/inquiries/:id). */
export interface InquiryMail {
  id: string;
  to: string;
  template: string;
  /** The subject it went out with (messages/mail.ja.json's template, filled). */
  subject: string;
  created_at: string;
  sent_at: string | null;
  attempts: number;
  status: 'sent' | 'queued';
}

/** Whom an answer goes to: an active member at their current address, anyone else at the form's. */
export interface InquiryRecipient {
  name: string;
  email: string;
  member: boolean;
}

/** GET /v1/admin/inquiries/:id: the question in full, every answer, the mails. */
export interface InquiryDetail {
  inquiry: InquiryItem & {
    inquiry_user_type: string;
    inquiry_user_type_label: string;
    job: string;
    job_label: string;
    content: string;
    /** null: not a member's inquiry. */
    member_status: MemberStatus | null;
    recipient: InquiryRecipient;
  };
  answers: AnswerItem[];
  mails: InquiryMail[];
}

/** An operator an inquiry may be assigned to: active office staff (GET /v1/admin/inquiries/operators). */
export type AssignableOperator = Pick<OperatorItem, 'id' | 'name' | 'email' | 'role'>;

/** GET /v1/admin/inquiries/operators: the operators an inquiry may be assigned to. */
export interface AssignableOperators {
  items: AssignableOperator[];
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

/** POST /v1/admin/inquiries/:id/answer/preview and …/correction/preview: the mail, nothing sent. */
export interface AnswerPreview {
  mail: MailPreview & { name: string };
}

/** POST /v1/admin/inquiries/:id/answer and …/correction: the answer saved, the member's notice (null: not a member) and the mail. */
export interface AnswerSent {
  answer_id: string;
  /** …/answer only: the inquiry's status after. */
  status?: 'answered';
  notice: string | null;
  mail: MailOutcome;
}

/** POST /v1/admin/inquiries/:id/assign: whom it is assigned to now. */
export interface InquiryAssigned {
  id: string;
  ticket_no: string;
  assigned_to: { id: string; name: string };
}

/** POST /v1/admin/inquiries/:id/done: closed, and the status before. */
export interface InquiryClosed {
  id: string;
  ticket_no: string;
  status: 'closed';
  previous: InquiryStatus;
}

// Members -------------------------------------------------------------------------------------

/** A member in GET /v1/admin/members. */
export interface MemberItem {
  id: string;
  register_number?: string;
  name: string;
  email: string;
  status: MemberStatus;
  registered_at: string;
}

/** GET /v1/admin/members/:id: one member in full, with their applications, inquiries and notices. */
export interface MemberDetail {
  member: MemberSummary;
  purposes: MasterOption[];
  applications: Array<Pick<ApplicationItem, 'register_number' | 'status' | 'applied_at' | 'decided_at'> & { decisions: DecisionItem[] }>;
  inquiries: InquiryItem[];
  notices: NoticeItem[];
}

/** GET /v1/admin/members/export-columns: a column the export may have. */
export interface ExportColumn {
  name: string;
  label: string;
}

// Statistics and the audit log ----------------------------------------------------------------

/** A count of GET /v1/admin/stats; null: hidden, `suppressed` says why ('floor': under the
 *  floor, zero included; 'complement': hidden so that no hidden count can be worked out by
 *  subtraction, docs/decisions/033). */
export interface Count {
  label: string;
  count: number | null;
  suppressed?: 'floor' | 'complement';
}

/** GET /v1/admin/stats: counts only, as of the end of a Japan day (`asOf`, YYYY-MM-DD: the day
 *  before the day they were computed, `at`), every category listed, none under the floor. */
export interface Stats {
  at: string;
  asOf: string;
  floor: number;
  total: number | null;
  /** Why the total is hidden (under the floor, or so that no hidden count can be worked out). */
  totalSuppressed?: Count['suppressed'];
  registrationsPerWeek: Array<{ week: string; count: number | null; suppressed?: Count['suppressed'] }>;
  purposes: Count[];
  prefectures: Count[];
  ageBands: Count[];
  desiredMunicipalities: Count[];
}

/** An entry of GET /v1/admin/audit. */
export interface AuditItem {
  id: string;
  at: string;
  actor_type: 'operator' | 'cli';
  actor_label: string;
  actor_role: string | null;
  action: string;
  member_id: string | null;
  member_name?: string;
  target: string | null;
  detail: Record<string, unknown>;
  ip: string | null;
}
