// The demo member `npm start` creates, so a newcomer can log in at once (README lists the
// credentials). Skipped when it exists already, or when SEED_DEMO=false.
import { randomUUID } from 'node:crypto';
import type { Db } from './db/connect';
import type { NewUser } from './db/types';
import { hashPassword } from './services/passwords';
import { iso, now } from './services/clock';

export async function seedDemoMember(db: Db, email: string, password: string): Promise<boolean> {
  const existing = await db.selectFrom('users').select('id').where('email', '=', email).where('status', '=', 'active').executeTakeFirst();
  if (existing) return false;
  await createMember(db, email, password);
  return true;
}

/** Inserts an active member with a complete sample profile (demo data and test fixtures). */
export async function createMember(db: Db, email: string, password: string, profile: Partial<NewUser> = {}): Promise<string> {
  const at = iso(now());
  const id = randomUUID();
  await db
    .insertInto('users')
    .values({
      id,
      email,
      status: 'active',
      password_hash: await hashPassword(password),
      last_name_kanji: '山田',
      first_name_kanji: '花子',
      last_name_alpha: 'YAMADA',
      first_name_alpha: 'HANAKO',
      birthday: '1990-04-01',
      gender: 'female',
      job: '1',
      industry: '8',
      industry_other: '',
      zip_current: '1000001',
      address_current: '東京都千代田区千代田1-1',
      zip_second: '',
      address_second: '',
      amc: '',
      phone: '0312345678',
      purpose: '1,3',
      purpose_detail: '週末は地方で農業体験をしながら、平日は東京で働く暮らしを試したいです。',
      purpose_other: '',
      mail_opt: '1',
      created_at: at,
      updated_at: at,
      withdrawn_at: null,
      ...profile,
    })
    .execute();
  return id;
}
