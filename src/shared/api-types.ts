// Shapes of API answers both sides agree on (the server builds them, the client reads them).
import type masterLists from '../../schemas/masters/options.json';
import type { WireValue } from './member-record';

/** GET /v1/user/info: the account's address, then every field of the member record the edit
 *  form has, under its stored name (roman names as *_alpha; a list such as purpose as one
 *  comma-separated string of codes; an empty text as ''), then jobLabel. Which fields: the
 *  forms' JSON (src/shared/member-record.ts, schemas/api/user-info-response.json), not this type. */
export type UserInfo = { email: string; jobLabel?: string } & { [field: string]: WireValue | undefined };

/** An item of a master list (GET /v1/master/options). */
export interface MasterOption {
  value: string;
  label: string;
}

/** An item of GET /v1/master/denshijiti: a municipality by its official 6-digit
 *  local-government code (value), its name (label) and its prefecture. */
export interface Municipality extends MasterOption {
  prefecture: string;
  prefecture_code: string;
}

/** POST /v1/user/register: the registration form's fields as they travel (src/shared/wire/registration.ts). */
export type { RegistrationPayload } from './wire/registration';

/** POST /v1/user/register-by-link: the old registration form's data (form.old-register.json)
 *  and the key of the mailed link. */
export type OldRegistrationPayload = Record<string, unknown> & { key: string; email: string };

/** PUT /v1/user/info: the edit form's fields as they travel (src/shared/wire/profile-update.ts). */
export type { ProfileUpdate } from './wire/profile-update';

/** Run-time settings the server writes into index.html as a <meta> tag (no inline script). */
export interface ClientSettings {
  clientKey: string;
  parentOrigin: string;
  siteTopUrl: string;
  monitorUrl: string;
  surveyUrl: string;
  /** The domain the site's mail comes from (the password reminder tells members to allow it). */
  mailDomain: string;
  /** SESSION_SECONDS: the warning before a session's end comes a fifth of it ahead, at most 5 minutes. */
  sessionSeconds: number;
  /** SESSION_MAX_SECONDS: the absolute limit the expiry notice names (docs/decisions/024). */
  sessionMaxSeconds: number;
}

/** The name of a master list GET /v1/master/options serves: a key of schemas/masters/options.json
 *  (annotations such as `$comment` aside). A type only: the browser gets none of the file from it.
 *  The server's list of names, MASTER_NAMES, is in src/server/masters.ts. */
export type MasterName = Exclude<keyof typeof masterLists, `$${string}`>;
