// operators add / list / disable / link: the back office's operator accounts from the server's
// command line (how the first `admin` is made). The same services as the back office's API
// (src/server/admin/accounts.ts), the same rules (the add-operator form's schema), and one
// audit entry per change, by the system user running the tool.
import { userInfo } from 'node:os';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import messages from '../../../messages/ja.json';
import type { Db } from '../db/connect';
import { createServerValidation } from '../validation';
import { AccountRefusal, SETUP_LINK_SECONDS, addOperator, disableOperator, listOperators, operatorByEmail, renewSetupLink, type Change, type Operator } from '../admin/accounts';
import type { AuditActor } from '../admin/audit';
import { isRole, ROLES, type Role } from '../admin/permissions';
import { lifetimeText } from '../old-flow';
import { loadConfig } from '../config';
import type { Command, CommandRun, Site } from './command';
import { OperatorError, describeError } from './errors';
import { nothingSavedOnFailure } from './nothing-saved';
import { japanTime, table } from './output';
import { parseOrFail, say, text, usageError } from './text';

const USAGE = {
  add: `operators add <email> --name "…" --role ${ROLES.join('|')}`,
  list: 'operators list',
  disable: 'operators disable <email>',
  link: 'operators link <email>',
};

const t = text.operators;

/** The system user at the command line, as the audit log names them. */
export function cliActor(): AuditActor {
  let user: string;
  try {
    user = userInfo().username;
  } catch {
    // A container user with no passwd entry.
    user = process.env.USER ?? process.env.LOGNAME ?? String(process.getuid?.() ?? 'unknown');
  }
  return { type: 'cli', user };
}

const cliChange = (): Change => ({ actor: cliActor(), ip: null });

/** Where the mailed set-up link points: the site's PUBLIC_URL. */
const publicUrlOf = (site: Site | undefined) => site?.publicUrl ?? loadConfig().publicUrl;

const roleLabel = (role: string) => say(t.label, { label: (t.role as Record<string, string>)[role] ?? role, value: role });
const statusLabel = (status: string) => say(t.label, { label: (t.status as Record<string, string>)[status] ?? status, value: status });

function oneEmail(args: string[], usage: string, options: ParseArgsConfig['options'] = {}) {
  const { values, positionals } = parseOrFail(() => parseArgs({ args, options, allowPositionals: true, strict: true }), usage);
  if (positionals.length === 0 || !positionals[0]!.trim()) throw usageError(text.errors.operatorEmailRequired, usage);
  if (positionals.length > 1) throw usageError(say(text.errors.unexpectedArguments, { args: positionals.slice(1).join(' ') }), usage);
  return { email: positionals[0]!.trim(), values };
}

async function existingOperator(db: Db, email: string): Promise<Operator> {
  const operator = await operatorByEmail(db, email);
  if (!operator) throw new OperatorError(say(text.errors.unknownOperator, { email }));
  return operator;
}

/** The tool's words for a refusal of the account services (anything else is left to
 *  nothingSavedOnFailure). `nothing`: what was not done when the mail did not go. */
function refusal(operator: Pick<Operator, 'email' | 'name'>, nothing = '') {
  return (error: unknown): never => {
    if (!(error instanceof AccountRefusal)) throw error;
    const { email, name } = operator;
    switch (error.reason) {
      case 'mail':
        throw new OperatorError(say(text.errors.setupMailFailed, { email, nothing, detail: describeError(error.detail) }));
      case 'notSaved':
        throw new OperatorError(say(text.errors.setupNotSaved, { email, detail: describeError(error.detail) }));
      case 'exists':
        throw new OperatorError(say(text.errors.operatorExists, { email }));
      case 'disabled':
        throw new OperatorError(say(text.errors.operatorAlreadyDisabled, { name, email }));
      default:
        throw error;
    }
  };
}

let validation: ReturnType<typeof createServerValidation> | undefined;

/** The add-operator form's rules (schemas/forms/admin-operator-add), as the back office applies
 *  them: the normalised values, or a usage error listing each field's message. */
function validOperator(input: { email: string; name: string; role: Role }): { email: string; name: string; role: Role } {
  validation ??= createServerValidation(undefined, messages.form.fallbackFieldError);
  const result = validation.parse('api.admin-operator-add.json', input);
  if (result.ok) return result.data as typeof input;
  const labels: Record<string, string> = { email: t.columns.email, name: t.columns.name, role: t.columns.role };
  const details = Object.entries(result.fields ?? {}).flatMap(([field, list]) => list.map((message) => say(text.errors.fieldError, { label: labels[field] ?? field, message })));
  throw usageError(say(text.errors.invalidOperator, { details: details.join('\n') }), USAGE.add);
}

export const addOperatorCommand: CommandRun = async (db, mailer, args, output, site) => {
  const { email: given, values } = oneEmail(args, USAGE.add, { name: { type: 'string' }, role: { type: 'string' } });
  const role = typeof values.role === 'string' ? values.role.trim() : '';
  if (!isRole(role)) throw usageError(say(text.errors.badRole, { role }), USAGE.add);
  const input = validOperator({ email: given, name: typeof values.name === 'string' ? values.name : '', role });
  if (await operatorByEmail(db, input.email)) throw new OperatorError(say(text.errors.operatorExists, { email: input.email }));
  const operator = await nothingSavedOnFailure(() => addOperator(db, mailer, publicUrlOf(site), input, cliChange()).catch(refusal(input, text.errors.nothingAdded)));
  output.out(say(t.added, { name: operator.name, email: operator.email, role: roleLabel(operator.role) }));
  output.out(say(t.linkSent, { email: operator.email, lifetime: lifetimeText(SETUP_LINK_SECONDS) }));
};

export const listOperatorsCommand: CommandRun = async (db, _mailer, args, output) => {
  const { positionals } = parseOrFail(() => parseArgs({ args, options: {}, allowPositionals: true, strict: true }), USAGE.list);
  if (positionals.length > 0) throw usageError(say(text.errors.unexpectedArguments, { args: positionals.join(' ') }), USAGE.list);
  const rows = await listOperators(db);
  if (rows.length === 0) {
    output.out(t.none);
    return;
  }
  const c = t.columns;
  const lines = table(
    [c.email, c.name, c.role, c.status, c.createdAt],
    rows.map((row) => [row.email, row.name, roleLabel(row.role), statusLabel(row.status), japanTime(row.created_at)]),
  );
  for (const line of lines) output.out(line);
  output.out(say(t.count, { count: rows.length }));
};

export const disableOperatorCommand: CommandRun = async (db, _mailer, args, output) => {
  const { email } = oneEmail(args, USAGE.disable);
  const operator = await existingOperator(db, email);
  await nothingSavedOnFailure(() => disableOperator(db, operator, cliChange()).catch(refusal(operator)));
  output.out(say(t.disabled, { name: operator.name, email: operator.email }));
};

export const linkOperatorCommand: CommandRun = async (db, mailer, args, output, site) => {
  const { email } = oneEmail(args, USAGE.link);
  const operator = await existingOperator(db, email);
  await nothingSavedOnFailure(() => renewSetupLink(db, mailer, publicUrlOf(site), operator, cliChange()).catch(refusal(operator, text.errors.nothingLinked)));
  output.out(say(t.linkSent, { email: operator.email, lifetime: lifetimeText(SETUP_LINK_SECONDS) }));
  output.out(t.oldLinksVoid);
  if (operator.status === 'disabled') output.out(t.disabledNote);
};

export const operatorCommands: Command[] = [
  { group: 'operators', name: 'list', usage: [USAGE.list], summary: 'operatorsList', run: listOperatorsCommand },
  { group: 'operators', name: 'add', usage: [USAGE.add], summary: 'operatorsAdd', run: addOperatorCommand },
  { group: 'operators', name: 'disable', usage: [USAGE.disable], summary: 'operatorsDisable', run: disableOperatorCommand },
  { group: 'operators', name: 'link', usage: [USAGE.link], summary: 'operatorsLink', run: linkOperatorCommand },
];
