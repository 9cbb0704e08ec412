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
import { align, japanTime } from './output';
import { parseOrFail, say, text, usageError } from './text';

const USAGE = { show: 'members show <email>' };

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
  { group: 'members', name: 'show', usage: [USAGE.show], summary: 'membersShow', run: showMemberOf(() => (projectSchemas ??= loadSchemaSet())) },
];
