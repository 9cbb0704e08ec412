// The stored records the impact report judges, read in batches (keyset by id, so a batch costs
// the same at the end of the table as at its start and memory stays flat), and each record in
// the shape of the form it is judged by.
import type { Db } from '../db/connect';
import type { Selectable } from 'kysely';
import type { InquiriesTable, User } from '../db/types';
import type { AppContext } from '../context';
import { userInfo } from '../routes/user-info';
import { wireAdapters } from '../../shared/wire';

export const BATCH_SIZE = 1000;

export type Inquiry = Selectable<InquiriesTable>;

/** Active members, `size` at a time, in id order. */
export async function* activeMembers(db: Db, size = BATCH_SIZE): AsyncGenerator<User[]> {
  for (let after = ''; ; ) {
    const rows = await db.selectFrom('users').selectAll().where('status', '=', 'active').where('id', '>', after).orderBy('id').limit(size).execute();
    if (rows.length > 0) yield rows;
    if (rows.length < size) return;
    after = rows[rows.length - 1].id;
  }
}

/** Every stored inquiry (whatever its status), `size` at a time, in id order. */
export async function* storedInquiries(db: Db, size = BATCH_SIZE): AsyncGenerator<Inquiry[]> {
  for (let after = ''; ; ) {
    const rows = await db.selectFrom('inquiries').selectAll().where('id', '>', after).orderBy('id').limit(size).execute();
    if (rows.length > 0) yield rows;
    if (rows.length < size) return;
    after = rows[rows.length - 1].id;
  }
}

/** A member's stored profile as the edit form holds it: what GET /v1/user/info answers (the
 *  record's columns and users.attributes alike), through the edit form's wire adapter (lists
 *  as lists), i.e. what the edit screen opens with. */
export async function memberAsEditForm(ctx: Pick<AppContext, 'db' | 'schemas'>, user: User): Promise<Record<string, unknown>> {
  return wireAdapters['api.user-update.json'].fromWire({ ...(await userInfo(ctx, user)) }, ctx.schemas.forms['edit-profile'].schema);
}

/** A stored inquiry as the contact form sent it: the inquiry text is stored as `content`
 *  (src/server/routes/contact.ts), the form calls it purpose_detail; the other columns the form
 *  has carry its own names. */
export function inquiryAsContactForm({ content, ...row }: Inquiry): Record<string, unknown> {
  return { ...row, purpose_detail: content };
}
