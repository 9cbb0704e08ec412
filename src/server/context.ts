// What route modules are given: the database, mail, services and the validated-body helper.
import type { Db } from './db/connect';
import type { Mailer } from './mail/mailer';
import type { Codes } from './services/codes';
import type { Sessions } from './services/sessions';
import type { Passkeys } from './services/passkeys';
import type { Config } from './config';
import type { Municipality } from '../shared/api-types';
import type { RateLimits } from './limits/rate-limits';
import type { PasswordGuard } from './limits/password-guard';
import type { Outbox } from './mail/outbox';
import type { AttemptNotices } from './mail/attempt-notices';
import type { SchemaSet } from '../shared/validation/schema-files';

export type AppConfig = Pick<
  Config,
  | 'sessionSeconds' | 'sessionMaxSeconds' | 'codeTtlSeconds' | 'codeMaxAttempts' | 'codesPerHour' | 'trustedDeviceDays' | 'verifiedEmailSeconds' | 'parentOrigins'
  | 'siteTopUrl' | 'monitorUrl' | 'surveyUrl' | 'mailDomain' | 'limits' | 'publicUrl' | 'registrationLinkSeconds'
>;

export interface AppContext {
  db: Db;
  /** The same database for the back office: on SQLite its selects outside a transaction run on a
   *  reader thread (db/office-reads.ts), so an operator's reads never hold a member's request. */
  officeDb: Db;
  /** Sends at once and throws MAIL_FAILED (502) when the relay refuses: for codes. */
  mailer: Mailer;
  /** Queues durably and retries: for notices and acknowledgements that must not be lost. */
  outbox: Outbox;
  /** Unrequested notices, combined per address, kind and day (docs/decisions/015). */
  notices: AttemptNotices;
  codes: Codes;
  sessions: Sessions;
  /** Members' and operators' passkeys and their WebAuthn challenges (ADR 031). */
  passkeys: Passkeys;
  limits: RateLimits;
  /** Counts, slows and refuses wrong passwords (limits/password-guard.ts). */
  passwords: PasswordGuard;
  config: AppConfig;
  /** The denshijiti master (GET /v1/master/denshijiti), fixed at start-up. */
  municipalities: readonly Municipality[];
  /** Server secret for keyed hashes. */
  secret: string;
  /** The prepared schemas the server runs on (forms, API payloads, catalogue). */
  schemas: SchemaSet;
  /** The payload of the API schema with this $id as validated, normalised form data (see
   *  src/server/validation.ts); throws a 400 with field messages. */
  parse<T>(schemaId: string, body: unknown): T;
  /** Throws a 400 on the fields whose value is not in the option list their schema names. */
  checkMasters(schemaId: string, data: Record<string, unknown>): Promise<void>;
}
