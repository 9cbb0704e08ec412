import type { Db } from '../db/connect';
import type { Mailer } from '../mail/mailer';
import type { Output } from './output';
import type { RetentionPeriods } from '../retention/periods';

/** What a command may need to know of the site beyond its database and relay. */
export interface Site {
  /** Where the site is reached (PUBLIC_URL): links a command mails point there. Unset: the
   *  site's configuration from the environment (loadConfig). */
  publicUrl?: string;
  /** The retention periods (RETENTION_DAYS_*). Unset: from the environment (loadConfig). */
  retention?: RetentionPeriods;
}

/** One command: `args` are what follows `<group> <name>` on the command line; `mailer` is the
 *  relay (a command that mails queues through the outbox, ./mail.ts). Throws OperatorError for
 *  anything the operator must fix; returns when it succeeded. */
export type CommandRun = (db: Db, mailer: Mailer, args: string[], output: Output, site?: Site) => Promise<void>;

export interface Command {
  group: string;
  /** None for a command of one word (reindex): what follows the group is its arguments. */
  name?: string;
  /** The syntax lines --help shows (a command may have more than one form). */
  usage: string[];
  /** Key of its one-line description in messages/operator.ja.json summaries. */
  summary: string;
  run: CommandRun;
}
