// Writing a new member: shared by both generations of registration (the coded STEP1-4 page and
// the old link flow), so both create the same kind of member with the same checks.
import { randomInt, randomUUID } from 'node:crypto';
import type { Db } from './db/connect';
import { isUniqueViolation, violatedKey } from './db/errors';
import { iso, japanDay, now } from './services/clock';
import type { Outbox } from './mail/outbox';
import type { MemberStore } from './member-store';
import { writeSearchKeys } from './member-search-keys';
import messages from '../../messages/ja.json';
import { refusal } from './server-checks';

/** A new member: the proven address and a registration form's validated data (the form named,
 *  so the member record knows which of its fields are stored, and under which names). */
export interface NewMember {
  email: string;
  form: string;
  data: Record<string, unknown>;
}

export const emailTaken = () => refusal('emailTakenAtRegistration', { email: [messages.api.EMAIL_TAKEN] });

export async function isTaken(db: Db, email: string): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').where('email', '=', email).where('status', '=', 'active').executeTakeFirst();
  return !!row;
}

export function registerNumber(at: Date): string {
  return `R${japanDay(at)}-${String(randomInt(0, 1_000_000)).padStart(6, '0')}`;
}

/** Runs the registration's transaction; a registration number drawn twice (one in a million a
 *  day) is drawn again, a second registration of one address racing the first answers
 *  EMAIL_TAKEN, and any other collision is an error, not a false "address taken". */
async function writeRetryingNumber<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const key = violatedKey(error);
      if (/register_number/.test(key) && attempt < 5) continue;
      if (/users_active_email|users\.email/.test(key)) throw emailTaken();
      throw error;
    }
  }
}

/** Inserts the member, their pending application and the queued welcome mail in one
 *  transaction; `prove` runs first in it and throws when the address is not (or no longer)
 *  proven. Returns the member, the application's register number (the reception number the welcome mail
 *  quotes, answered to the member at once) and the welcome mail's outbox id. */
export async function insertMember(
  db: Db,
  outbox: Outbox,
  store: MemberStore,
  member: NewMember,
  passwordHash: string,
  prove: (tx: Db) => Promise<void>,
): Promise<{ userId: string; registerNumber: string; welcomeId: string }> {
  const write = () =>
    db.transaction().execute(async (tx) => {
      await prove(tx);
      if (await isTaken(tx, member.email)) throw emailTaken();
      const at = now();
      const id = randomUUID();
      await tx
        .insertInto('users')
        .values({
          id,
          email: member.email,
          status: 'active',
          password_hash: passwordHash,
          // Validation dropped the "other" texts whose choice is not made (src/shared/validation/conditions.ts).
          ...store.insertValues(member.form, member.data),
          created_at: iso(at),
          updated_at: iso(at),
          withdrawn_at: null,
        })
        .execute();
      const number = registerNumber(at);
      await tx.insertInto('applications').values({ id: randomUUID(), user_id: id, register_number: number, status: 'pending', applied_at: iso(at), decided_at: null }).execute();
      // The back office finds the new member by name, address, phone and register number at once.
      await writeSearchKeys(tx, id);
      const name = `${member.data.last_name_kanji} ${member.data.first_name_kanji}`;
      return { userId: id, registerNumber: number, welcomeId: await outbox.queue(tx, member.email, 'welcome', { name, registerNumber: number }) };
    });
  return writeRetryingNumber(write);
}
