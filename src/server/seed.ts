// The demo member `npm start` creates, so a newcomer can log in at once (README lists the
// credentials). Skipped when it exists already, or when SEED_DEMO=false.
import { randomUUID } from 'node:crypto';
import type { Db } from './db/connect';
import type { NewUser } from './db/types';
import { hashPassword } from './services/passwords';
import { readFileSync } from 'node:fs';
import { iso, now } from './services/clock';
import { canonicalEmail } from '../shared/canonical-email';
import { writeSearchKeys } from './member-search-keys';

export async function seedDemoMember(db: Db, email: string, password: string): Promise<boolean> {
  const existing = await db.selectFrom('users').select('id').where('email', '=', canonicalEmail(email)).where('status', '=', 'active').executeTakeFirst();
  if (existing) return false;
  await createMember(db, email, password);
  return true;
}

const demoProfile = JSON.parse(readFileSync(new URL('./demo-profile.json', import.meta.url), 'utf8')) as Omit<NewUser, 'id' | 'email' | 'status' | 'password_hash' | 'created_at' | 'updated_at'>;

/** Inserts an active member with a complete sample profile (demo-profile.json; demo data and
 *  test fixtures). */
export async function createMember(db: Db, email: string, password: string, profile: Partial<NewUser> = {}): Promise<string> {
  const at = iso(now());
  const id = randomUUID();
  const passwordHash = profile.password_hash ?? (await hashPassword(password));
  // The member and their search keys together (in the caller's transaction when there is one).
  const write = async (trx: Db) => {
    await trx
      .insertInto('users')
      .values({
        id,
        email: canonicalEmail(email),
        status: 'active',
        // A caller seeding many members hashes once and passes password_hash (bench/seed-members.ts).
        password_hash: passwordHash,
        ...demoProfile,
        created_at: at,
        updated_at: at,
        withdrawn_at: null,
        ...profile,
      })
      .execute();
    await writeSearchKeys(trx, id);
  };
  await (db.isTransaction ? write(db) : db.transaction().execute(write));
  return id;
}
