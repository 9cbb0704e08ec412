// Back-office operator accounts (docs/decisions/030): adding one, its single-use set-up link,
// disabling, setting the password from the link. The API (routes/auth.ts) and the command-line
// tool (src/server/operator/operators.ts) both call these, so both write the same rows and the
// same single audit entry, in the transaction that makes the change.
//
// A set-up link is mailed before anything is stored, as codes and registration links are: the
// database keeps only the key's hash (never the key, not even in the mail outbox), and a relay
// that refuses the mail leaves nothing saved (an earlier link stays as it was).
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/connect';
import { isUniqueViolation } from '../db/errors';
import type { OperatorsTable } from '../db/types';
import type { Mailer } from '../mail/mailer';
import { lifetimeText } from '../old-flow';
import { hashPassword } from '../services/passwords';
import { hashToken, randomToken } from '../services/secrets';
import { iso, inSeconds, now } from '../services/clock';
import { canonicalEmail } from '../../shared/canonical-email';
import { audited, type AuditActor } from './audit';
import { isRole } from './permissions';
import { RECORD_KINDS, type RecordKind } from '../../shared/record-kinds';
import { listRecords, type ListKey } from './records/list';
import type { NewOperator } from '../../shared/admin-api';
import { endOperatorSessions } from './sessions';

/** A set-up link works for 24 hours, once (issue 23). */
export const SETUP_LINK_SECONDS = 24 * 3600;

/** A password-reset link (asked for by the operator on the login page) works for an hour, once. */
export const RESET_LINK_SECONDS = 3600;

/** A key as randomToken makes them (256 bits, URL-safe); anything else opens nothing. */
const SETUP_KEY = /^[A-Za-z0-9_-]{43}$/;

/** Where the mailed link opens: the back office's set-up page. */
export const setupUrl = (publicUrl: string, key: string) => `${publicUrl}/admin/setup?key=${encodeURIComponent(key)}`;

/** Where a password-reset link opens: the back office's password-reset page. */
export const resetUrl = (publicUrl: string, key: string) => `${publicUrl}/admin/password-reset?key=${encodeURIComponent(key)}`;

/** The two kinds of link kept in operator_setup_links: a set-up link (an admin's, or the command
 *  line's) and a password-reset link (the operator's own, from the login page). A reset key is
 *  stored hashed with its kind in front, so each kind opens only its own page: a reset link does
 *  not set up an invited operator, nor take a disabled one back, and a set-up link is not a reset. */
export type LinkKind = 'setup' | 'reset';
const keyHashOf = (kind: LinkKind, key: string) => (kind === 'setup' ? hashToken(key) : hashToken(`operator-password-reset\n${key}`));

/** Why an account change was refused; the API and the tool each say it in their own words. */
export type RefusalReason = 'exists' | 'disabled' | 'self' | 'mail' | 'linkInvalid' | 'notSaved';

export class AccountRefusal extends Error {
  override name = 'AccountRefusal';
  constructor(
    readonly reason: RefusalReason,
    /** What went wrong underneath (the relay's error; for 'notSaved', the database's after the
     *  link was mailed: that link opens nothing), for the tool's message. */
    readonly detail?: unknown,
  ) {
    super(reason);
  }
}

export type Operator = Pick<OperatorsTable, 'id' | 'email' | 'name' | 'role' | 'status' | 'created_at'>;

/** Who asks for a change and from where (request.ip; null from the command line). */
export interface Change {
  actor: AuditActor;
  ip: string | null;
}

const OPERATOR_COLUMNS = ['id', 'email', 'name', 'role', 'status', 'created_at'] as const;

/** The operators' list as declared (schemas/records/operators.json), with the time each was added. */
const OPERATORS: RecordKind = { ...RECORD_KINDS.operators, columns: [...RECORD_KINDS.operators.columns, { name: 'created_at' }] };

/** Every operator, in the order they were added: the declared list read by the back office's
 *  list function (listRecords), page after page from the last row of the one before (keyset),
 *  so GET /v1/admin/operators and `operators list` keep answering every operator in one list
 *  (the office's staff: in practice one page). Not recorded: the list shows staff, no member. */
export async function listOperators(db: Db): Promise<Operator[]> {
  const operators: Operator[] = [];
  let after: ListKey | undefined;
  for (;;) {
    const page = await listRecords<Operator>(db, undefined, OPERATORS, { filters: {}, ...(after ? { after } : {}) });
    operators.push(...page.items);
    if (page.items.length < page.size || !page.last) return operators;
    after = page.last;
  }
}

export function operatorByEmail(db: Db, email: string): Promise<Operator | undefined> {
  return db.selectFrom('operators').select(OPERATOR_COLUMNS).where('email', '=', canonicalEmail(email)).executeTakeFirst();
}

export function operatorById(db: Db, id: string): Promise<Operator | undefined> {
  return db.selectFrom('operators').select(OPERATOR_COLUMNS).where('id', '=', id).executeTakeFirst();
}

/** The operator as the audit log names them (an operator acting on their own account). */
export function operatorActor(operator: Operator): AuditActor {
  if (!isRole(operator.role)) throw new Error(`operator ${operator.id} has an unknown role ${operator.role}`);
  return { type: 'operator', id: operator.id, email: operator.email, name: operator.name, role: operator.role };
}

/** Mails a set-up link to `operator` and returns the new key's hash; nothing is stored yet.
 *  A relay that does not take the mail: AccountRefusal 'mail'. */
async function mailSetupLink(mailer: Mailer, publicUrl: string, operator: Pick<Operator, 'email' | 'name'>): Promise<string> {
  const key = randomToken();
  try {
    await mailer.send(operator.email, 'operatorSetup', { name: operator.name, url: setupUrl(publicUrl, key), lifetime: lifetimeText(SETUP_LINK_SECONDS) });
  } catch (error) {
    throw new AccountRefusal('mail', error);
  }
  return hashToken(key);
}

/** Voids every live set-up link of an operator (a newer link, disabling them). */
async function voidSetupLinks(db: Db, operatorId: string, at: string): Promise<void> {
  await db.updateTable('operator_setup_links').set({ expires_at: at }).where('operator_id', '=', operatorId).where('used_at', 'is', null).where('expires_at', '>', at).execute();
}

async function storeSetupLink(db: Db, operatorId: string, keyHash: string, at: string, seconds = SETUP_LINK_SECONDS): Promise<void> {
  await db
    .insertInto('operator_setup_links')
    .values({ id: randomUUID(), operator_id: operatorId, key_hash: keyHash, created_at: at, expires_at: inSeconds(seconds, new Date(at)), used_at: null })
    .execute();
}

/** A new operator ('invited') with a set-up link mailed to them; audit `operators.add`. An
 *  address that already belongs to an operator (disabled ones too): AccountRefusal 'exists'. */
export async function addOperator(db: Db, mailer: Mailer, publicUrl: string, input: NewOperator, change: Change): Promise<Operator> {
  const email = canonicalEmail(input.email);
  if (await operatorByEmail(db, email)) throw new AccountRefusal('exists');
  const keyHash = await mailSetupLink(mailer, publicUrl, { email, name: input.name });
  const at = iso(now());
  const operator: Operator = { id: randomUUID(), email, name: input.name, role: input.role, status: 'invited', created_at: at };
  try {
    await audited(db, change, 'operators.add', async (tx) => {
      await tx.insertInto('operators').values({ ...operator, password_hash: null, updated_at: at }).execute();
      await storeSetupLink(tx, operator.id, keyHash, at);
      return { result: undefined, target: email, detail: { name: input.name, role: input.role } };
    });
  } catch (error) {
    // The same address added at the same moment by someone else: theirs stands.
    if (isUniqueViolation(error)) throw new AccountRefusal('exists');
    throw new AccountRefusal('notSaved', error);
  }
  return operator;
}

/** A new set-up link for `operator`, every earlier one void; audit `operators.link`. Serves an
 *  invited operator whose link expired, an active one who forgot the password, and a disabled
 *  one an admin takes back (they are active again once they set a password). */
export async function renewSetupLink(db: Db, mailer: Mailer, publicUrl: string, operator: Operator, change: Change): Promise<void> {
  const keyHash = await mailSetupLink(mailer, publicUrl, operator);
  const at = iso(now());
  await audited(db, change, 'operators.link', async (tx) => {
    await voidSetupLinks(tx, operator.id, at);
    await storeSetupLink(tx, operator.id, keyHash, at);
    return { result: undefined, target: operator.email, detail: { status: operator.status } };
  }).catch((error: unknown) => {
      throw new AccountRefusal('notSaved', error);
    });
}

/** Disables `operator`: every session ends, every set-up link is void; audit `operators.disable`.
 *  Already disabled: AccountRefusal 'disabled'. */
export async function disableOperator(db: Db, operator: Operator, change: Change): Promise<void> {
  if (change.actor.type === 'operator' && change.actor.id === operator.id) throw new AccountRefusal('self');
  const at = iso(now());
  await audited(db, change, 'operators.disable', async (tx) => {
    const updated = await tx.updateTable('operators').set({ status: 'disabled', updated_at: at }).where('id', '=', operator.id).where('status', '!=', 'disabled').executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw new AccountRefusal('disabled');
    await endOperatorSessions(tx, operator.id);
    await voidSetupLinks(tx, operator.id, at);
    return { result: undefined, target: operator.email, detail: { previous: operator.status } };
  });
}

/** The live link of `key` (a set-up link, or with kind 'reset' a password-reset link) and its
 *  operator, or AccountRefusal 'linkInvalid' (malformed, unknown, used, replaced, expired; a
 *  reset link also when its operator is no longer active). */
export async function setupLinkOf(db: Db, key: unknown, kind: LinkKind = 'setup'): Promise<{ linkId: string; operator: Operator }> {
  if (typeof key !== 'string' || !SETUP_KEY.test(key)) throw new AccountRefusal('linkInvalid');
  const row = await db
    .selectFrom('operator_setup_links')
    .innerJoin('operators', 'operators.id', 'operator_setup_links.operator_id')
    .select(['operator_setup_links.id as link_id', 'operator_setup_links.used_at', 'operator_setup_links.expires_at', ...OPERATOR_COLUMNS.map((c) => `operators.${c}` as const)])
    .where('operator_setup_links.key_hash', '=', keyHashOf(kind, key))
    .executeTakeFirst();
  if (!row || row.used_at !== null || row.expires_at <= iso(now())) throw new AccountRefusal('linkInvalid');
  if (kind === 'reset' && row.status !== 'active') throw new AccountRefusal('linkInvalid');
  const { link_id: linkId, used_at: _used, expires_at: _expires, ...operator } = row;
  return { linkId, operator };
}

/** Sets the password from a set-up link (or with kind 'reset' a password-reset link): the link is
 *  used up, the operator active, every earlier session ended; audit `operators.setup` (a reset:
 *  `operators.password_reset`), by the operator, from `ip`. Returns the operator. */
export async function completeSetup(db: Db, key: string, password: string, ip: string | null, kind: LinkKind = 'setup'): Promise<Operator> {
  const { linkId, operator } = await setupLinkOf(db, key, kind);
  const passwordHash = await hashPassword(password);
  const at = iso(now());
  await audited(db, { actor: operatorActor(operator), ip }, kind === 'reset' ? 'operators.password_reset' : 'operators.setup', async (tx) => {
    // Used once: of two submissions of the same link only one finds it unused.
    const used = await tx.updateTable('operator_setup_links').set({ used_at: at }).where('id', '=', linkId).where('used_at', 'is', null).where('expires_at', '>', at).executeTakeFirst();
    if (Number(used.numUpdatedRows) !== 1) throw new AccountRefusal('linkInvalid');
    // A reset link sets a password only while its operator is active (disabled meanwhile: void).
    const set = tx.updateTable('operators').set({ password_hash: passwordHash, status: 'active', updated_at: at }).where('id', '=', operator.id);
    const updated = await (kind === 'reset' ? set.where('status', '=', 'active') : set).executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw new AccountRefusal('linkInvalid');
    await endOperatorSessions(tx, operator.id);
    return { result: undefined, target: operator.email, detail: { previous: operator.status } };
  });
  return { ...operator, status: 'active' };
}

/** The operator's own password reset, asked for on the login page with nothing but an address
 *  (docs/decisions/030): an active operator's address gets a reset link mailed (every earlier live
 *  link of theirs void), any other address a round trip to the relay that sends nothing, so the
 *  asker learns nothing and waits as long either way. The key is mailed before its hash is stored,
 *  as the set-up link's is. A relay that fails fails both ways alike: AccountRefusal 'mail'. */
export async function requestPasswordReset(db: Db, mailer: Mailer, publicUrl: string, email: string): Promise<void> {
  const operator = await db.selectFrom('operators').select(OPERATOR_COLUMNS).where('email', '=', canonicalEmail(email)).where('status', '=', 'active').executeTakeFirst();
  const key = randomToken();
  try {
    if (operator) await mailer.send(operator.email, 'operatorPasswordReset', { name: operator.name, url: resetUrl(publicUrl, key), lifetime: lifetimeText(RESET_LINK_SECONDS) });
    else await mailer.touch?.();
  } catch (error) {
    throw new AccountRefusal('mail', error);
  }
  if (!operator) return;
  const at = iso(now());
  await db
    .transaction()
    .execute(async (tx) => {
      await voidSetupLinks(tx, operator.id, at);
      await storeSetupLink(tx, operator.id, keyHashOf('reset', key), at, RESET_LINK_SECONDS);
    })
    .catch((error: unknown) => {
      throw new AccountRefusal('notSaved', error);
    });
}
