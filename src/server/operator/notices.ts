// notices post / list: the notices block of my page. A notice goes to one member (user_id) or
// to every member (user_id null), exactly as GET /v1/user/notification reads them.
import { parseArgs } from 'node:util';
import type { Db } from '../db/connect';
import { sendNotice } from '../admin/services/notices';
import { cliWho } from '../admin/services/common';
import { canonicalEmail } from '../../shared/canonical-email';
import type { Command, CommandRun } from './command';
import { OperatorError } from './errors';
import { japanTime, table } from './output';
import { parseOrFail, say, text, usageError } from './text';
import { nothingSavedOnFailure } from './nothing-saved';
import { LIST_PAGE_SIZE, pageOf, printFooter } from './pages';
import { noticesFor, type NoticeKey } from '../notices';

const USAGE = {
  post: ['notices post --to <email> --message "…"', 'notices post --all --message "…"'],
  list: 'notices list [--to <email>] [--after <id>]',
};

async function activeMember(db: Db, email: string) {
  return db.selectFrom('users').select('id').where('email', '=', canonicalEmail(email)).where('status', '=', 'active').executeTakeFirst();
}

export const postNotice: CommandRun = async (db, _mailer, args, output) => {
  const usage = USAGE.post;
  const { values, positionals } = parseOrFail(
    () =>
      parseArgs({
        args,
        options: { to: { type: 'string' }, all: { type: 'boolean' }, message: { type: 'string' } },
        allowPositionals: true,
        strict: true,
      }),
    usage,
  );
  if (positionals.length > 0) throw usageError(say(text.errors.unexpectedArguments, { args: positionals.join(' ') }), usage);
  const to = values.to?.trim();
  if (!to === !values.all) throw usageError(text.errors.toOrAll, usage);
  const message = values.message?.trim();
  if (!message) throw usageError(text.errors.messageRequired, usage);

  let member: { id: string; email: string } | undefined;
  if (to) {
    const found = await activeMember(db, to);
    if (!found) throw new OperatorError(say(text.errors.unknownMember, { email: to }));
    member = { id: found.id, email: canonicalEmail(to) };
  }
  // The back office's service: the notice and its audit entry (the system user) together.
  await nothingSavedOnFailure(() => sendNotice(db, cliWho(), { audience: member ? 'one' : 'all', message }, member));
  output.out(to ? say(text.notices.postedTo, { email: to, message }) : say(text.notices.postedAll, { message }));
};

/** One page of every notice, newest first (ties: id, descending), after `after`: one range of
 *  the index notifications_list (migration 013). */
export function noticeListQuery(db: Db, after: NoticeKey | undefined, limit: number) {
  const query = db
    .selectFrom('notifications')
    .leftJoin('users', 'users.id', 'notifications.user_id')
    .select(['notifications.id', 'notifications.created_at', 'notifications.message', 'notifications.user_id', 'users.email']);
  const ranged = after
    ? query
        .where('notifications.created_at', '<=', after.created_at)
        .where((eb) => eb.or([eb('notifications.created_at', '<', after.created_at), eb('notifications.id', '<', after.id)]))
    : query;
  return ranged.orderBy('notifications.created_at', 'desc').orderBy('notifications.id', 'desc').limit(limit);
}

/** What the member at `email` reads on my page: their own notices and every broadcast, a page
 *  and one more. A withdrawn member's past notices are listed too (the address may belong to
 *  several accounts). */
async function noticesOfAddress(db: Db, email: string, after: NoticeKey | undefined) {
  const members = await db.selectFrom('users').select(['id', 'email']).where('email', '=', canonicalEmail(email)).execute();
  if (members.length === 0) throw new OperatorError(say(text.errors.unknownAddress, { email }));
  const emails = new Map(members.map((m) => [m.id, m.email]));
  const rows = await noticesFor(db, [...emails.keys()], { after, limit: LIST_PAGE_SIZE + 1 }).execute();
  return rows.map((row) => ({ ...row, email: row.user_id === null ? null : (emails.get(row.user_id) ?? null) }));
}

export const listNotices: CommandRun = async (db, _mailer, args, output) => {
  const { values, positionals } = parseOrFail(
    () => parseArgs({ args, options: { to: { type: 'string' }, after: { type: 'string' } }, allowPositionals: true, strict: true }),
    USAGE.list,
  );
  if (positionals.length > 0) throw usageError(say(text.errors.unexpectedArguments, { args: positionals.join(' ') }), USAGE.list);
  const to = values.to?.trim();
  if (values.to !== undefined && !to) throw usageError(text.errors.emailRequired, USAGE.list);
  const afterId = values.after?.trim();
  const after = afterId ? await db.selectFrom('notifications').select(['created_at', 'id']).where('id', '=', afterId).executeTakeFirst() : undefined;
  if (afterId && !after) throw usageError(say(text.errors.unknownAfter, { value: afterId }), USAGE.list);

  const found = to ? await noticesOfAddress(db, to, after) : await noticeListQuery(db, after, LIST_PAGE_SIZE + 1).execute();
  const { shown: rows, more } = pageOf(found);
  if (rows.length === 0) {
    output.out(text.notices.none);
    return;
  }
  const c = text.notices.columns;
  const lines = table(
    [c.postedAt, c.to, c.message],
    rows.map((row) => [japanTime(row.created_at), row.user_id === null ? text.notices.everyone : (row.email ?? row.user_id), row.message]),
  );
  for (const line of lines) output.out(line);
  printFooter(output, text.notices.count, rows.length, more, () => ['notices', 'list', ...(to ? ['--to', to] : []), '--after', rows.at(-1)!.id]);
};

export const noticeCommands: Command[] = [
  { group: 'notices', name: 'post', usage: USAGE.post, summary: 'noticesPost', run: postNotice },
  { group: 'notices', name: 'list', usage: [USAGE.list], summary: 'noticesList', run: listNotices },
];
