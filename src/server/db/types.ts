// Row types. Timestamps are ISO-8601 UTC strings in both SQLite and PostgreSQL, so they
// compare correctly as text and read back identically from either database.
import type { Generated, Insertable, Selectable } from 'kysely';
import type { ProfileColumn } from './migrations';

/** A member: the account (address, status, password) and the member record. The record's fields
 *  are read from the form schemas (src/shared/member-record.ts): those with a column of their own
 *  (PROFILE_COLUMNS, as migrations 001 and 007 made them, default '') and the rest in
 *  `attributes`, one JSON object (010; src/server/member-store.ts reads and writes both). */
export type UsersTable = {
  id: string;
  email: string;
  status: 'active' | 'withdrawn';
  password_hash: string;
  /** The record's fields without a column, as a JSON object ('{}' when none). */
  attributes: Generated<string>;
  created_at: string;
  updated_at: string;
  withdrawn_at: string | null;
  /** The prefecture of the current address (migration 022: a column the database derives from
   *  address_current, never written). */
  prefecture: Generated<string | null>;
  /** When the retention job erased the withdrawn member's personal data (migration 024, ADR 041). */
  erased_at: Generated<string | null>;
} & { [column in ProfileColumn]: Generated<string> };

export interface SessionsTable {
  token_hash: string;
  user_id: string;
  created_at: string;
  /** The idle end: moved forward by the member's requests, never past ends_at. */
  expires_at: string;
  /** The absolute end, fixed at login (null only for rows older than migration 011). */
  ends_at: string | null;
  revoked_at: string | null;
}

export interface EmailCodesTable {
  id: string;
  purpose: string;
  email: string;
  user_id: string | null;
  code_hash: string;
  attempts: Generated<number>;
  created_at: string;
  expires_at: string;
  consumed_at: string | null;
  /** Hash of the flow that asked for the code: only that flow may use it (null: before flows). */
  flow_hash: string | null;
  /** Hash of the link mailed with the code (registration and password reset, migration 016): the
   *  mailbox's owner opens it in any tab, and no count of anyone's wrong codes refuses it. */
  link_hash: Generated<string | null>;
  /** 1 for a code a mailed link gave its flow (the answer carried it; no ceiling counts it). */
  from_link: Generated<number>;
}

export interface TrustedDevicesTable {
  token_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
}

export interface MasterOptionsTable {
  master_name: string;
  value: string;
  label: string;
  sort_order: number;
}

export interface EmailVerificationsTable {
  id: string;
  email: string;
  code_hash: string;
  verified_at: string;
  expires_at: string;
  used_at: string | null;
  /** Hash of the flow that verified the address: only that flow may register with it. */
  flow_hash: string | null;
}

export type ApplicationStatus = 'pending' | 'approved' | 'declined';

export interface ApplicationsTable {
  id: string;
  user_id: string;
  register_number: string;
  status: ApplicationStatus;
  applied_at: string;
  decided_at: string | null;
}

export interface NotificationsTable {
  id: string;
  /** null: a notice to every member. */
  user_id: string | null;
  message: string;
  /** When it shows on my page (its place in the member's list); later than now while scheduled. */
  created_at: string;
  /** When an operator posted it (null: at created_at; migration 015). */
  posted_at?: string | null;
  /** Taken back: gone from my page, kept here and in the audit log. */
  retracted_at?: string | null;
  /** The operator who posted it (null: the command line or the site itself). */
  created_by?: string | null;
  /** Who posted it, as the audit log names them (null: the site itself). */
  created_by_label?: string | null;
}

export interface WithdrawalsTable {
  id: string;
  user_id: string;
  reason: string;
  created_at: string;
}

export type InquiryStatus = 'open' | 'answered' | 'closed';

export interface InquiriesTable {
  id: string;
  ticket_no: string;
  user_id: string | null;
  last_name_kanji: string;
  first_name_kanji: string;
  email: string;
  inquiry_user_type: string;
  inquiry_type: string;
  job: string;
  content: string;
  status: InquiryStatus;
  answer: string | null;
  created_at: string;
  updated_at: string;
  /** The operator it is assigned to (migration 015). */
  assigned_to?: string | null;
  /** When the retention job erased its personal fields (migration 024, ADR 041). */
  erased_at: Generated<string | null>;
}

export interface FailedAttemptsTable {
  id: string;
  scope: string;
  subject: string;
  created_at: string;
}

export interface RegistrationLinksTable {
  id: string;
  key_hash: string;
  email: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface RateLimitsTable {
  key: string;
  points: number;
  /** Epoch milliseconds when the window ends (PostgreSQL bigint reads back as a string). */
  expire: number | string | null;
}

export interface MailOutboxTable {
  id: string;
  to_address: string;
  template: string;
  values_json: string;
  attempts: Generated<number>;
  next_attempt_at: string;
  /** Set while one worker is sending it, so two instances do not send it twice. */
  locked_until: string | null;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
  /** queued (waits for its next try), sending (claimed; the SMTP transaction may have begun),
   *  sent, or uncertain (a send whose claim ran out without a result: the operator decides). */
  status: Generated<MailStatus>;
  /** The claim of the current or last try; its result is written only by the sender holding it. */
  attempt_id: string | null;
  /** When the current or last try began (written before the SMTP transaction starts). */
  send_started_at: string | null;
  /** When the row was set aside as uncertain (kept after the operator settles it). */
  uncertain_at: string | null;
}

export type MailStatus = 'queued' | 'sending' | 'sent' | 'uncertain';

/** Contact acknowledgements queued per recipient (canonical address) and day in Japan (YYYYMMDD). */
export interface AcknowledgementCountsTable {
  recipient: string;
  day: string;
  sent: number;
}

/** With DATABASE_URL: the secrets every instance must share, stored by the first to start
 *  (name 'client_key' or 'app_secret'; src/server/instance-secrets.ts). */
export interface InstanceSecretsTable {
  name: string;
  value: string;
  created_at: string;
}

/** Raised by the database on every change to a member's inquiries (migration 013's triggers). */
export interface InquiryListVersionsTable {
  user_id: string;
  version: number;
}

/** A person of the programme's office who uses the back office (docs/decisions/030). */
export interface OperatorsTable {
  id: string;
  /** Canonical (lower-case) address: one operator per address. */
  email: string;
  name: string;
  /** 'admin' | 'secretariat' | 'municipality' (ROLES, src/shared/admin-api.ts). */
  role: string;
  /** 'invited' until the set-up link is used, then 'active'; 'disabled' ends every session. */
  status: 'invited' | 'active' | 'disabled';
  password_hash: string | null;
  created_at: string;
  updated_at: string;
}

/** A single-use link to choose a password, mailed when an operator is added (24 h). */
export interface OperatorSetupLinksTable {
  id: string;
  operator_id: string;
  key_hash: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** A back-office session: the cookie's token (hashed), its CSRF token, an idle end that slides
 *  with the operator's requests and an absolute end fixed at login. */
export interface OperatorSessionsTable {
  token_hash: string;
  operator_id: string;
  csrf_token: string;
  created_at: string;
  expires_at: string;
  ends_at: string;
  revoked_at: string | null;
}

/** Append-only (triggers refuse UPDATE and DELETE): src/server/admin/audit.ts. */
export interface AuditLogTable {
  id: string;
  at: string;
  /** 'member': the member themself (a download of their own data, a request; issue 37);
   *  'system': the server's own scheduled job (retention, ADR 041). */
  actor_type: 'operator' | 'cli' | 'member' | 'system';
  operator_id: string | null;
  actor_label: string;
  actor_role: string | null;
  action: string;
  member_id: string | null;
  target: string | null;
  /** JSON object. */
  detail: string;
  ip: string | null;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  email_codes: EmailCodesTable;
  trusted_devices: TrustedDevicesTable;
  master_options: MasterOptionsTable;
  email_verifications: EmailVerificationsTable;
  applications: ApplicationsTable;
  notifications: NotificationsTable;
  withdrawals: WithdrawalsTable;
  inquiries: InquiriesTable;
  failed_attempts: FailedAttemptsTable;
  registration_links: RegistrationLinksTable;
  rate_limits: RateLimitsTable;
  mail_outbox: MailOutboxTable;
  acknowledgement_counts: AcknowledgementCountsTable;
  instance_secrets: InstanceSecretsTable;
  inquiry_list_versions: InquiryListVersionsTable;
  operators: OperatorsTable;
  operator_setup_links: OperatorSetupLinksTable;
  operator_sessions: OperatorSessionsTable;
  audit_log: AuditLogTable;
  application_decisions: ApplicationDecisionsTable;
  inquiry_answers: InquiryAnswersTable;
  attempt_notices: AttemptNoticesTable;
  known_networks: KnownNetworksTable;
  passkeys: PasskeysTable;
  webauthn_challenges: WebauthnChallengesTable;
  member_search: MemberSearchTable;
  stats_snapshots: StatsSnapshotsTable;
  member_requests: MemberRequestsTable;
  audit_members: AuditMembersTable;
  retention_runs: RetentionRunsTable;
}

/** The retention job's daily claim (migration 024, ADR 041). */
export interface RetentionRunsTable {
  day: string;
  claimed_at: string;
  finished_at: string | null;
  members: number | null;
  inquiries: number | null;
}

/** The statistics' figures as of a Japan day (migration 020, docs/decisions/033). */
export interface StatsSnapshotsTable {
  day: string;
  claimed_at: string;
  figures: string | null;
  computed_at: string | null;
}

/** Unrequested notices combined per address, kind and day in Japan (migration 016). */
export interface AttemptNoticesTable {
  recipient: string;
  kind: string;
  day: string;
  attempts: number;
  /** The one queued mail of this kind and day (mail_outbox.id). */
  mail_id: string;
}

/** Requesting networks a subject (`operator:<id>`) has logged in from (migration 016). */
export interface KnownNetworksTable {
  subject: string;
  network: string;
  last_seen_at: string;
}

/** A passkey (a WebAuthn credential) of a member or an operator (migration 017, ADR 031). */
export interface PasskeysTable {
  id: string;
  owner_type: 'member' | 'operator';
  owner_id: string;
  /** base64url */
  credential_id: string;
  /** The COSE public key, base64url. */
  public_key: string;
  counter: number;
  /** The authenticator's transports as a JSON array. */
  transports: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

/** A WebAuthn challenge: single use (used_at), short-lived, bound to its purpose and, where
 *  known, to its owner and to the operator's login flow (migration 017). */
export interface WebauthnChallengesTable {
  challenge: string;
  purpose: 'member_register' | 'member_login' | 'operator_register' | 'operator_login';
  owner_id: string | null;
  flow_hash: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;

/** Each decision on an application and each reversal of one (migration 015). */
export interface ApplicationDecisionsTable {
  id: string;
  application_id: string;
  kind: 'decision' | 'reversal';
  /** The status after this row: approved, declined, or pending after a reversal. */
  decision: ApplicationStatus;
  reason: string;
  operator_id: string | null;
  actor_label: string;
  at: string;
  mail_id: string | null;
}

/** Each answer sent to an inquiry, and each correction of one (migration 015). */
export interface InquiryAnswersTable {
  id: string;
  inquiry_id: string;
  answer: string;
  note: string | null;
  corrects_id: string | null;
  operator_id: string | null;
  actor_label: string;
  at: string;
  mail_id: string | null;
}

/** What a search key was made from (migration 019, ADR 032). */
export type MemberSearchKind = 'name' | 'email' | 'phone' | 'number';

/** A member's search keys (src/server/member-search-keys.ts): folded, compared by prefix. */
export interface MemberSearchTable {
  user_id: string;
  kind: MemberSearchKind;
  key: string;
}

export type MemberRequestKind = 'correction' | 'deletion';
export type MemberRequestStatus = 'open' | 'done' | 'refused';

/** A member's request for a correction or the deletion of their data (migration 023, ADR 040). */
export interface MemberRequestsTable {
  id: string;
  user_id: string;
  kind: MemberRequestKind;
  /** What the member wrote. */
  text: string;
  created_at: string;
  /** When the office is to have answered (created_at + the disclosure route's settings.requestDueDays). */
  due_at: string;
  status: MemberRequestStatus;
  /** Who handled it, as the audit log names them (null while open). */
  handled_by: string | null;
  handled_at: string | null;
  /** The office's answer, which the member reads (null while open). */
  answer: string | null;
}

/** The members an audit entry's list page or export included (migration 023, ADR 040). */
export interface AuditMembersTable {
  audit_id: string;
  member_id: string;
  /** The entry's time, so a member's accesses read one index range in order. */
  at: string;
}
