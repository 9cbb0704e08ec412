// members show: one member as the secretariat reads them: the account (address, status,
// registration and withdrawal times) and every field of the member record under the title and
// with the option labels its form gives (src/shared/member-view.ts, the rows of the info view
// first), so a field a product owner adds to a form's JSON is shown here with no code change.
import { parseArgs } from 'node:util';
import type { User } from '../db/types';
import { memberStore } from '../member-store';
import { optionLists, recordForms, type OptionLists } from '../admin/services/member-fields';
import { cliWho } from '../admin/services/common';
import { audited } from '../admin/audit';
import { canonicalEmail } from '../../shared/canonical-email';
import { formatDate } from '../../shared/format-date';
import type { RecordForm } from '../../shared/member-record';
import { memberView } from '../../shared/member-view';
import { loadSchemaSet, type SchemaSet } from '../../shared/validation/schema-files';
import memberTexts from '../../../messages/ja.json';
import type { Command, CommandRun } from './command';
import { OperatorError } from './errors';
import { align, japanTime, table } from './output';
import { dayOption, moreLineOf, printFooter, recordsPage, repeated, sortOption } from './pages';
import { RECORD_KINDS } from '../../shared/record-kinds';
import { optionsOf } from '../admin/records/list';
import type { MemberItem } from '../../shared/admin-api';
import { parseOrFail, say, text, usageError } from './text';

const USAGE = {
  list: 'members list [--status active|withdrawn] [--prefecture <prefecture>] [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--mail-opt] [--search <name, e-mail, number or phone>] [--sort newest|oldest] [--after <id>]',
  show: 'members show <email>',
};

const members = RECORD_KINDS.members;
const prefectures = () => optionsOf(members.filters.find((f) => f.name === 'prefecture')!);

/** The list as the back office's member list (schemas/records/members.json, listRecords): of a
 *  status, a prefecture (the current address's), registered between two Japan days, who agreed
 *  to mail, found by the member search; newest or oldest first. The view is recorded
 *  (members.search), as the web's is. The next page starts after the last member's id. */
export const listMembers: CommandRun = async (db, _mailer, args, output) => {
  const { values, positionals } = parseOrFail(
    () =>
      parseArgs({
        args,
        options: {
          status: { type: 'string' },
          prefecture: { type: 'string' },
          from: { type: 'string' },
          to: { type: 'string' },
          'mail-opt': { type: 'boolean' },
          search: { type: 'string' },
          sort: { type: 'string' },
          after: { type: 'string' },
        },
        allowPositionals: true,
        strict: true,
      }),
    USAGE.list,
  );
  if (positionals.length > 0) throw usageError(say(text.errors.unexpectedArguments, { args: positionals.join(' ') }), USAGE.list);
  const { status, prefecture } = values;
  if (status !== undefined && status !== 'active' && status !== 'withdrawn') throw usageError(say(text.errors.badMemberStatus, { status }), USAGE.list);
  if (prefecture !== undefined && !prefectures().includes(prefecture)) throw usageError(say(text.errors.badPrefecture, { prefecture }), USAGE.list);
  const from = dayOption('from', values.from, USAGE.list);
  const to = dayOption('to', values.to, USAGE.list);
  const sort = sortOption(members, values.sort, USAGE.list);
  const search = values.search?.trim() || undefined;
  const mailOpt = values['mail-opt'] ? 'true' : undefined;
  const after = values.after?.trim();

  const { shown: rows, more } = await recordsPage<MemberItem>(
    db,
    members,
    {
      filters: { status, prefecture, registered_from: from, registered_to: to, mail_opt: mailOpt, q: search },
      ...(sort ? { sort } : {}),
      ...(after ? { after: { column: 'users.id', value: after } } : {}),
    },
    USAGE.list,
  );
  if (rows.length === 0) {
    output.out(text.members.none);
    return;
  }
  const c = text.members.columns;
  const lines = table(
    [c.registerNumber, c.name, c.email, c.prefecture, c.status, c.registeredAt],
    rows.map((row) => [row.register_number ?? '-', row.name, row.email, row.prefecture || '-', text.members.listStatus[row.status], japanTime(row.registered_at)]),
  );
  for (const line of lines) output.out(line);
  const next = () => ['members', 'list', ...repeated({ status, prefecture, from, to, search, sort }), ...(mailOpt ? ['--mail-opt'] : []), '--after', rows.at(-1)!.id];
  printFooter(output, text.members.count, rows.length, more, next, moreLineOf(sort ?? ''));
};

function memberLines(set: SchemaSet, forms: RecordForm[], masters: OptionLists, user: User): string[] {
  const t = text.members;
  const account: string[][] = [
    [t.fields.email, user.email],
    [t.fields.status, user.status === 'active' ? t.status.active : say(t.status.withdrawn, { at: japanTime(user.withdrawn_at) })],
    [t.fields.registeredAt, japanTime(user.created_at)],
    [t.fields.updatedAt, japanTime(user.updated_at)],
  ];
  const record = memberView(forms, memberStore(set).saved(user), { masters, texts: memberTexts.info, formatDate }).map(({ label, value }) => [label, value || '-']);
  return align([...account, ...record]);
}

/** `members show` on the record the forms of `schemas` describe (the project's, read once). */
export const showMemberOf = (schemas: () => SchemaSet): CommandRun => async (db, _mailer, args, output) => {
  const { positionals } = parseOrFail(() => parseArgs({ args, options: {}, allowPositionals: true, strict: true }), USAGE.show);
  if (positionals.length === 0) throw usageError(text.errors.memberEmailRequired, USAGE.show);
  if (positionals.length > 1) throw usageError(say(text.errors.unexpectedArguments, { args: positionals.slice(1).join(' ') }), USAGE.show);
  const email = positionals[0]!;
  // An address may have belonged to a withdrawn member before the current one: newest first.
  const users = await db.selectFrom('users').selectAll().where('email', '=', canonicalEmail(email)).orderBy('created_at', 'desc').execute();
  if (users.length === 0) throw new OperatorError(say(text.errors.unknownAddress, { email }));
  // Viewing a member's data is recorded, as in the back office (one entry per member shown).
  const who = cliWho();
  for (const user of users) await audited(db, who, 'members.view', async () => ({ result: undefined, memberId: user.id, target: user.email }));
  const set = schemas();
  const forms = recordForms(set);
  const masters = await optionLists(db, forms);
  users.forEach((user, i) => {
    if (i > 0) output.out('');
    for (const line of memberLines(set, forms, masters, user)) output.out(line);
  });
};

let projectSchemas: SchemaSet | undefined;

export const memberCommands: Command[] = [
  { group: 'members', name: 'list', usage: [USAGE.list], summary: 'membersList', run: listMembers },
  { group: 'members', name: 'show', usage: [USAGE.show], summary: 'membersShow', run: showMemberOf(() => (projectSchemas ??= loadSchemaSet())) },
];
