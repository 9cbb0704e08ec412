// Writing a new member: shared by both generations of registration (the coded STEP1-4 page and
// the old link flow), so both create the same kind of member with the same checks.
import { randomInt, randomUUID } from 'node:crypto';
import type { Db } from './db/connect';
import { ApiError } from './errors';
import { isUniqueViolation } from './db/errors';
import { iso, japanDay, now } from './services/clock';
import type { RegistrationPayload } from '../shared/api-types';
import messages from '../../messages/ja.json';

/** The profile fields both registration payloads carry (the old one adds city). */
export type NewMemberProfile = Omit<RegistrationPayload, 'verification_code' | 'password' | 'password_confirm' | 'zip_second' | 'address_second'> & {
  city?: string;
};

export const emailTaken = () => new ApiError('EMAIL_TAKEN', { email: [messages.api.EMAIL_TAKEN] });

export async function isTaken(db: Db, email: string): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').where('email', '=', email).where('status', '=', 'active').executeTakeFirst();
  return !!row;
}

export function registerNumber(at: Date): string {
  return `R${japanDay(at)}-${String(randomInt(0, 1_000_000)).padStart(6, '0')}`;
}

/** Inserts the member and their pending application inside `tx`; `prove` runs first in the same
 *  transaction and throws when the address is not (or no longer) proven. */
export async function insertMember(
  db: Db,
  body: NewMemberProfile,
  passwordHash: string,
  prove: (tx: Db) => Promise<void>,
): Promise<{ userId: string; number: string }> {
  return db
    .transaction()
    .execute(async (tx) => {
      await prove(tx);
      if (await isTaken(tx, body.email)) throw emailTaken();
      const at = now();
      const id = randomUUID();
      await tx
        .insertInto('users')
        .values({
          id,
          email: body.email,
          status: 'active',
          password_hash: passwordHash,
          last_name_kanji: body.last_name_kanji,
          first_name_kanji: body.first_name_kanji,
          last_name_alpha: body.last_name_alphabet,
          first_name_alpha: body.first_name_alphabet,
          birthday: body.birthday,
          gender: body.gender,
          job: body.job,
          industry: body.industry,
          industry_other: body.industry === '99' ? (body.industry_other ?? '') : '',
          zip_current: body.zip_current.replace(/-/g, ''),
          address_current: body.address_current,
          zip_second: '',
          address_second: '',
          amc: body.amc ?? '',
          phone: body.phone.replace(/-/g, ''),
          purpose: body.purpose.join(','),
          purpose_detail: body.purpose_detail,
          purpose_other: body.purpose.includes('99') ? (body.purpose_other ?? '') : '',
          mail_opt: body.mail_opt,
          city: body.city ?? '',
          created_at: iso(at),
          updated_at: iso(at),
          withdrawn_at: null,
        })
        .execute();
      const number = registerNumber(at);
      await tx.insertInto('applications').values({ id: randomUUID(), user_id: id, register_number: number, status: 'pending', applied_at: iso(at), decided_at: null }).execute();
      return { userId: id, number };
    })
    .catch((error: unknown) => {
      // Two registrations of one address at once: the second loses on the unique index.
      if (isUniqueViolation(error)) throw emailTaken();
      throw error;
    });
}
