// notices post / list: the notices block of my page. A notice goes to one member (user_id) or
// to every member (user_id null), exactly as GET /v1/user/notification reads them.
import { parseArgs } from 'node:util';
import type { Db } from '../db/connect';
import { RECORD_KINDS } from '../../shared/record-kinds';
import type { NoticeItem } from '../../shared/admin-api';
import { sendNotice } from '../admin/services/notices';
import { cliWho } from '../admin/services/common';
import { canonicalEmail } from '../../shared/canonical-email';
import type { Command, CommandRun } from './command';
import { OperatorError } from './errors';
import { japanTime, table } from './output';
import { parseOrFail, say, text, usageError } from './text';
import { nothingSavedOnFailure } from './nothing-saved';
import { LIST_PAGE_SIZE, moreLineOf, pageOf, printFooter, recordsPage, repeated, sortOption } from './pages';
import { noticesFor, type NoticeKey } from '../notices';

/** A notice as the list prints it. */
interface NoticeLine {
  id: string;
  created_at: string;
  message: string;
  user_id: string | null;
  email: string | null;
}

const USAGE = {
  post: ['notices post --to <email> --message "…"', 'notices post --all --message "…"'],
  list: 'notices list [--to <email>] [--sort newest|oldest] [--after <id>]',
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
    () => parseArgs({ args, options: { to: { type: 'string' }, sort: { type: 'string' }, after: { type: 'string' } }, allowPositionals: true, strict: true }),
    USAGE.list,
  );
  if (positionals.length > 0) throw usageError(say(text.errors.unexpectedArguments, { args: positionals.join(' ') }), USAGE.list);
  const to = values.to?.trim();
  if (values.to !== undefined && !to) throw usageError(text.errors.emailRequired, USAGE.list);
  const afterId = values.after?.trim();
  const sort = sortOption(RECORD_KINDS.notices, values.sort, USAGE.list);

  let found: { shown: NoticeLine[]; more: boolean };
  if (to) {
    // What that member reads on my page (the member side's own query).
    const after = afterId ? await db.selectFrom('notifications').select(['created_at', 'id']).where('id', '=', afterId).executeTakeFirst() : undefined;
    if (afterId && !after) throw usageError(say(text.errors.unknownAfter, { value: afterId }), USAGE.list);
    found = pageOf(await noticesOfAddress(db, to, after));
  } else {
    // Every notice, as the back office's list (schemas/records/notices.json, listRecords).
    const page = await recordsPage<NoticeItem>(db, RECORD_KINDS.notices, { filters: {}, ...(sort ? { sort } : {}), ...(afterId ? { after: { column: 'notifications.id', value: afterId } } : {}) }, USAGE.list);
    const ids = [...new Set(page.shown.flatMap((item) => (item.member_id ? [item.member_id] : [])))];
    const emails = new Map(ids.length === 0 ? [] : (await db.selectFrom('users').select(['id', 'email']).where('id', 'in', ids).execute()).map((u) => [u.id, u.email]));
    found = {
      more: page.more,
      shown: page.shown.map((item) => ({ id: item.id, created_at: item.publish_at, message: item.message, user_id: item.member_id ?? null, email: item.member_id ? (emails.get(item.member_id) ?? null) : null })),
    };
  }
  const { shown: rows, more } = found;
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
  const next = () => ['notices', 'list', ...repeated({ to, sort: to ? undefined : sort }), '--after', rows.at(-1)!.id];
  printFooter(output, text.notices.count, rows.length, more, next, moreLineOf(to ? '' : (sort ?? '')));
};

export const noticeCommands: Command[] = [
  { group: 'notices', name: 'post', usage: USAGE.post, summary: 'noticesPost', run: postNotice },
  { group: 'notices', name: 'list', usage: [USAGE.list], summary: 'noticesList', run: listNotices },
];
