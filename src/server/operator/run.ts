// Finds the command on the command line and runs it; the process wiring lives in cli.ts, so
// tests call runOperator() with a test database, a fake mailer and a recording output.
import type { Db } from '../db/connect';
import type { Mailer } from '../mail/mailer';
import type { RetentionPeriods } from '../retention/periods';
import { applicationCommands } from './applications';
import type { Command } from './command';
import { OperatorError, describeError } from './errors';
import { inquiryCommands } from './inquiries';
import { requestCommands } from './requests';
import { noticeCommands } from './notices';
import { memberCommands } from './members';
import { outboxCommands } from './outbox';
import { reindexCommands } from './reindex';
import { retentionCommands } from './retention';
import { operatorCommands } from './operators';
import { align, type Output } from './output';
import { say, text } from './text';

export const COMMANDS: Command[] = [...applicationCommands, ...noticeCommands, ...inquiryCommands, ...requestCommands, ...memberCommands, ...outboxCommands, ...operatorCommands, ...reindexCommands, ...retentionCommands];

export interface Connection {
  db: Db;
  mailer: Mailer;
  /** PUBLIC_URL, for the links a command mails (command.ts Site). */
  publicUrl?: string;
  /** RETENTION_DAYS_* (command.ts Site). */
  retention?: RetentionPeriods;
  close(): Promise<void>;
}

export function helpLines(): string[] {
  const summaries = text.summaries as Record<string, string>;
  const rows = COMMANDS.flatMap((command) => command.usage.map((usage, i) => [usage, i === 0 ? (summaries[command.summary] ?? '') : '']));
  rows.push(['--help', summaries.help ?? '']);
  return [text.help.usage, '', text.help.commands, ...align(rows).map((line) => `  ${line}`), '', ...text.help.notes];
}

const wantsHelp = (argv: string[]) => argv.some((arg) => arg === '--help' || arg === '-h');

/** The exit code: 0 when the command succeeded, 1 for bad usage, unknown ids or failures. The
 *  database is opened (connect) only for a command that exists. */
export async function runOperator(argv: string[], output: Output, connect: () => Promise<Connection>): Promise<number> {
  if (wantsHelp(argv)) {
    for (const line of helpLines()) output.out(line);
    return 0;
  }
  const [group, name] = argv;
  const command = COMMANDS.find((c) => c.group === group && (c.name === undefined || c.name === name));
  const args = argv.slice(command?.name === undefined ? 1 : 2);
  if (!command) {
    output.err(group === undefined ? text.errors.noCommand : say(text.errors.unknownCommand, { command: [group, name].filter(Boolean).join(' ') }));
    output.err('');
    for (const line of helpLines()) output.err(line);
    return 1;
  }

  let connection: Connection;
  try {
    connection = await connect();
  } catch (error) {
    output.err(say(text.errors.connectFailed, { detail: describeError(error) }));
    return 1;
  }
  try {
    // The relay itself: the commands that mail queue it in the outbox (./mail.ts), and
    // `outbox retry` sends queued rows through it.
    await command.run(connection.db, connection.mailer, args, output, { publicUrl: connection.publicUrl, ...(connection.retention ? { retention: connection.retention } : {}) });
    return 0;
  } catch (error) {
    if (error instanceof OperatorError) output.err(error.message);
    else output.err(say(text.errors.unexpected, { detail: describeError(error) }));
    return 1;
  } finally {
    await connection.close();
  }
}
