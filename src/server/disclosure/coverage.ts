// What the disclosure covers, table by table and column by column (issue 37, docs/decisions/040).
// Every table of the database is here: one that holds a member's data names, for each of its
// columns, the group of the disclosure (schemas/api/user-disclosure.json) that shows it or why it
// is withheld (a secret, the office's own working data, a key that means nothing to a person);
// one that holds none says why. tests/api/disclosure.test.ts reads the database's own schema and
// fails on a table or column that is not here, so a migration that adds member data cannot leave
// the disclosure behind: it must say where that data is shown, or why not.
import { PROFILE_COLUMNS } from '../db/migrations';

export type ColumnCoverage = { group: string } | { withheld: string };

export type TableCoverage =
  | { member: true; columns: Record<string, ColumnCoverage> }
  | { member: false; why: string };

const g = (group: string): ColumnCoverage => ({ group });
const w = (withheld: string): ColumnCoverage => ({ withheld });

const ROW_ID = w('the row\'s internal key: no meaning to a person');
const MEMBER_KEY = w('the member\'s own internal key (the row is theirs)');
const SECRET = w('a secret (a hash of a password, code, link or token): disclosing it would weaken the account');
const OPERATOR = w('which operator: the disclosure names the office and the role, not the person (ADR 040)');
const WORKING = w('the working state of a short-lived step (attempts, expiry, the flow that asked): gone within hours');
const MAIL_REF = w('the mail it sent: listed under mails');
const ERASED = w('when the retention job erased the row (ADR 041): set only after the member has withdrawn and can no longer sign in to ask');

export const DISCLOSURE_COVERAGE: Record<string, TableCoverage> = {
  users: {
    member: true,
    columns: {
      id: MEMBER_KEY,
      email: g('account'),
      status: g('account'),
      password_hash: SECRET,
      created_at: g('account'),
      updated_at: g('account'),
      withdrawn_at: g('withdrawals'),
      attributes: g('profile'),
      prefecture: w('derived by the database from address_current, which profile shows'),
      erased_at: ERASED,
      ...Object.fromEntries(PROFILE_COLUMNS.map((column) => [column, g('profile')])),
    },
  },
  sessions: { member: true, columns: { token_hash: SECRET, user_id: MEMBER_KEY, created_at: g('sessions'), expires_at: g('sessions'), ends_at: g('sessions'), revoked_at: g('sessions') } },
  trusted_devices: { member: true, columns: { token_hash: SECRET, user_id: MEMBER_KEY, created_at: g('trusted_devices'), expires_at: g('trusted_devices') } },
  email_codes: {
    member: true,
    columns: {
      id: ROW_ID,
      purpose: g('mails'),
      email: g('mails'),
      user_id: MEMBER_KEY,
      code_hash: SECRET,
      attempts: WORKING,
      created_at: g('mails'),
      expires_at: WORKING,
      consumed_at: WORKING,
      flow_hash: WORKING,
      link_hash: SECRET,
      from_link: WORKING,
    },
  },
  email_verifications: {
    member: true,
    columns: {
      id: ROW_ID,
      email: w('the address being registered, the account\'s own (account)'),
      code_hash: SECRET,
      verified_at: w('the registration step\'s time: the registration itself is account.registered_at'),
      expires_at: WORKING,
      used_at: WORKING,
      flow_hash: WORKING,
    },
  },
  registration_links: { member: true, columns: { id: ROW_ID, key_hash: SECRET, email: g('mails'), created_at: g('mails'), expires_at: WORKING, used_at: WORKING } },
  applications: { member: true, columns: { id: ROW_ID, user_id: MEMBER_KEY, register_number: g('applications'), status: g('applications'), applied_at: g('applications'), decided_at: g('applications') } },
  application_decisions: {
    member: true,
    columns: { id: ROW_ID, application_id: ROW_ID, kind: g('decisions'), decision: g('decisions'), reason: g('decisions'), operator_id: OPERATOR, actor_label: OPERATOR, at: g('decisions'), mail_id: MAIL_REF },
  },
  notifications: {
    member: true,
    columns: {
      id: ROW_ID,
      user_id: MEMBER_KEY,
      message: g('notices'),
      created_at: g('notices'),
      posted_at: w('when it was written; created_at is when it showed on my page'),
      retracted_at: g('notices'),
      created_by: OPERATOR,
      created_by_label: OPERATOR,
    },
  },
  withdrawals: { member: true, columns: { id: ROW_ID, user_id: MEMBER_KEY, reason: g('withdrawals'), created_at: g('withdrawals') } },
  inquiries: {
    member: true,
    columns: {
      id: ROW_ID,
      ticket_no: g('inquiries'),
      user_id: MEMBER_KEY,
      last_name_kanji: g('inquiries'),
      first_name_kanji: g('inquiries'),
      email: g('inquiries'),
      inquiry_user_type: g('inquiries'),
      inquiry_type: g('inquiries'),
      job: g('inquiries'),
      content: g('inquiries'),
      status: g('inquiries'),
      answer: g('answers'),
      created_at: g('inquiries'),
      updated_at: w('the time of its last change: its answers each carry theirs'),
      assigned_to: OPERATOR,
      erased_at: ERASED,
    },
  },
  inquiry_answers: {
    member: true,
    columns: { id: ROW_ID, inquiry_id: ROW_ID, answer: g('answers'), note: g('answers'), corrects_id: ROW_ID, operator_id: OPERATOR, actor_label: OPERATOR, at: g('answers'), mail_id: MAIL_REF },
  },
  mail_outbox: {
    member: true,
    columns: {
      id: ROW_ID,
      to_address: g('mails'),
      template: g('mails'),
      values_json: w('the words filled into the mail: each comes from a group shown on its own (answers, notices, applications)'),
      attempts: WORKING,
      next_attempt_at: WORKING,
      locked_until: WORKING,
      last_error: w('the relay\'s answer to a failed try: the office\'s working data'),
      created_at: g('mails'),
      sent_at: g('mails'),
      status: g('mails'),
      attempt_id: WORKING,
      send_started_at: WORKING,
      uncertain_at: WORKING,
    },
  },
  passkeys: {
    member: true,
    columns: {
      id: ROW_ID,
      owner_type: ROW_ID,
      owner_id: MEMBER_KEY,
      credential_id: SECRET,
      public_key: w('the passkey\'s public key: key material, no meaning to a person'),
      counter: WORKING,
      transports: WORKING,
      name: g('passkeys'),
      created_at: g('passkeys'),
      last_used_at: g('passkeys'),
    },
  },
  webauthn_challenges: {
    member: true,
    columns: { challenge: SECRET, purpose: WORKING, owner_id: MEMBER_KEY, flow_hash: WORKING, created_at: WORKING, expires_at: WORKING, used_at: WORKING },
  },
  member_search: { member: true, columns: { user_id: MEMBER_KEY, kind: w('search keys derived from the profile (shown in profile)'), key: w('search keys derived from the profile (shown in profile)') } },
  inquiry_list_versions: { member: true, columns: { user_id: MEMBER_KEY, version: w('a counter the inquiry list\'s cache reads') } },
  audit_log: {
    member: true,
    columns: {
      id: ROW_ID,
      at: g('accesses'),
      actor_type: g('accesses'),
      operator_id: OPERATOR,
      actor_label: OPERATOR,
      actor_role: g('accesses'),
      action: g('accesses'),
      member_id: MEMBER_KEY,
      target: g('accesses'),
      detail: g('accesses'),
      ip: w('the office\'s network address'),
    },
  },
  audit_members: { member: true, columns: { audit_id: ROW_ID, member_id: MEMBER_KEY, at: g('accesses') } },
  member_requests: {
    member: true,
    columns: {
      id: g('requests'),
      user_id: MEMBER_KEY,
      kind: g('requests'),
      text: g('requests'),
      created_at: g('requests'),
      due_at: g('requests'),
      status: g('requests'),
      handled_by: OPERATOR,
      handled_at: g('requests'),
      answer: g('requests'),
    },
  },
  // Tables that hold no member's data.
  master_options: { member: false, why: 'the option lists' },
  instance_secrets: { member: false, why: 'the site\'s own keys' },
  stats_snapshots: { member: false, why: 'counts for the municipalities, none under 5 (ADR 033)' },
  retention_runs: { member: false, why: 'the daily retention job\'s claim of its day and how many rows it erased (ADR 041)' },
  operators: { member: false, why: 'the office\'s staff' },
  operator_setup_links: { member: false, why: 'the office\'s staff' },
  operator_sessions: { member: false, why: 'the office\'s staff' },
  known_networks: { member: false, why: 'networks operators logged in from' },
  rate_limits: { member: false, why: 'attempt counters: a key and a count, gone when their window ends (ADR 015)' },
  failed_attempts: { member: false, why: 'wrong password-reset identities: a time per try, kept 24 hours (ADR 015)' },
  acknowledgement_counts: { member: false, why: 'contact acknowledgements per address and day: a count, earlier days deleted' },
  attempt_notices: { member: false, why: 'attempts per address, kind and day: a count; the notice mail itself is listed under mails' },
};

/** The tables Kysely's migrator keeps for itself. */
export const MIGRATOR_TABLES = ['kysely_migration', 'kysely_migration_lock'];
