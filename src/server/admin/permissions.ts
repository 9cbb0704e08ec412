// Who may do what in the back office (/admin/, /v1/admin/…; docs/decisions/030). Every admin
// route names one action; the guard (./guard.ts) refuses an operator whose role lacks it with
// 403 FORBIDDEN, and tests/api/admin-roles.test.ts tries every role on every action.
import { ROLES, type Role } from '../../shared/admin-api';

// The roles themselves are shared: the back office's catalogue names them too.
export { ROLES, type Role };

const OFFICE: readonly Role[] = ['admin', 'secretariat'];
const EVERYONE: readonly Role[] = ROLES;

export const PERMISSIONS = {
  /** Their own session: who am I, log out. */
  'session.own': EVERYONE,
  /** List operators, add one (mails a set-up link), disable, send a new set-up link. */
  'operators.manage': ['admin'],
  /** Read the audit log. */
  'audit.view': ['admin'],
  /** The application list and one application in full (the detail view is recorded). */
  'applications.view': OFFICE,
  /** Approve or decline a pending application. */
  'applications.decide': OFFICE,
  /** Reverse a decision (with a reason; the member is told). */
  'applications.reverse': ['admin'],
  /** Notices sent, their recipients count and preview. */
  'notices.view': OFFICE,
  /** Send or schedule a notice to one member or to all. */
  'notices.send': OFFICE,
  /** Take a notice back from my page. */
  'notices.retract': OFFICE,
  /** The inquiry list and a thread. */
  'inquiries.view': OFFICE,
  /** Answer, correct a sent answer, assign, mark done. */
  'inquiries.handle': OFFICE,
  /** Members' correction and deletion requests: the list and one in full (ADR 042: the roles
   *  that answer inquiries, since a request is a member's question about their own data). */
  'requests.view': OFFICE,
  /** Close a request as done or refused, with the answer the member reads (notice and mail). */
  'requests.handle': OFFICE,
  /** Search members and view one (the view is recorded). */
  'members.view': OFFICE,
  /** CSV of members who agreed to mail (recorded with its filter). */
  'members.export': OFFICE,
  /** Counts for the consortium: never a person's data, no count under the floor. */
  'stats.view': EVERYONE,
} as const satisfies Record<string, readonly Role[]>;

export type AdminAction = keyof typeof PERMISSIONS;

export const mayDo = (role: Role, action: AdminAction): boolean => (PERMISSIONS[action] as readonly Role[]).includes(role);

export const isRole = (value: unknown): value is Role => typeof value === 'string' && (ROLES as readonly string[]).includes(value);
