// retention run [--dry-run]: what the site does once a day (docs/decisions/041), now: withdrawn
// members past RETENTION_DAYS_AFTER_WITHDRAWAL and visitors' inquiries past
// RETENTION_DAYS_VISITOR_INQUIRIES lose their personal data, each with an audit entry naming the
// command line. With --dry-run it only lists what would go (counts, register numbers and ids)
// and changes nothing. Safe beside the site's own run: each row is erased once.
import { parseArgs } from 'node:util';
import { loadConfig, retentionOf } from '../config';
import { cliWho } from '../admin/services/common';
import { statsSnapshot } from '../admin/services/stats-snapshot';
import { denshijitiList } from '../denshijiti';
import { runRetention, type ErasedInquiry, type ErasedMember } from '../retention/erase';
import type { Command, CommandRun } from './command';
import { japanTime, table } from './output';
import { parseOrFail, say, text, usageError } from './text';

const USAGE = 'retention run [--dry-run]';

export const retentionRun: CommandRun = async (db, _mailer, args, output, site) => {
  const { values, positionals } = parseOrFail(() => parseArgs({ args, options: { 'dry-run': { type: 'boolean' } }, allowPositionals: true, strict: true }), USAGE);
  if (positionals.length > 0) throw usageError(say(text.errors.unexpectedArguments, { args: positionals.join(' ') }), USAGE);
  const dryRun = values['dry-run'] === true;
  const periods = site?.retention ?? retentionOf(loadConfig());
  const t = text.retention;
  if (!dryRun) {
    // As the daily run: the statistics' figures are made from the data before anything is erased.
    const stats = await statsSnapshot(db, { municipalities: denshijitiList() });
    output.out(say(t.statsFirst, { asOf: stats.asOf }));
  }
  const members: ErasedMember[] = [];
  const inquiries: ErasedInquiry[] = [];
  const counts = await runRetention(db, { periods, who: cliWho(), dryRun, onErased: (item) => void (item.kind === 'member' ? members.push(item) : inquiries.push(item)) });
  output.out(dryRun ? t.dryRunTitle : t.doneTitle);
  output.out('');
  output.out(say(t.members, { days: periods.afterWithdrawalDays, count: counts.members }));
  if (members.length > 0) for (const line of table(t.memberHeaders, members.map((m) => [m.registerNumber ?? t.noNumber, m.id, japanTime(m.withdrawnAt)]))) output.out(`  ${line}`);
  output.out(say(t.inquiries, { days: periods.visitorInquiryDays, count: counts.inquiries }));
  if (inquiries.length > 0) for (const line of table(t.inquiryHeaders, inquiries.map((i) => [i.ticketNo, i.id, japanTime(i.updatedAt)]))) output.out(`  ${line}`);
};

export const retentionCommands: Command[] = [{ group: 'retention', name: 'run', usage: [USAGE], summary: 'retentionRun', run: retentionRun }];
