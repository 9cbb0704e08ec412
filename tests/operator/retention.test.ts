// npm run operator -- retention run [--dry-run] (issue 37 point 4, docs/decisions/041): the dry run
// lists the members and visitors' inquiries past their periods (counts, register numbers, ids)
// and changes nothing; the run makes the day's statistics, erases them and says so; the periods
// are the site's configuration.
import { afterAll, describe, expect, it } from 'vitest';
import { DATABASES, FakeMailer, Harness, setUpOrFail } from '../support/api-harness';
import { applicant } from '../support/admin-records';
import { runOperator } from '../../src/server/operator/run';
import { say } from '../../src/server/operator/text';
import { statsDayOf } from '../../src/server/admin/services/stats';
import { erasedEmail } from '../../src/server/retention/erase';
import type { RetentionPeriods } from '../../src/server/retention/periods';
import { addInquiry, operatorText as text, RecordingOutput } from './operator-support';

const PERIODS: RetentionPeriods = { afterWithdrawalDays: 7, visitorInquiryDays: 3 };
const ago = (days: number) => new Date(Date.now() - days * 86400_000).toISOString();

describe.each(DATABASES)('operator: retention run ($name)', ({ kind }) => {
  let h: Harness;

  setUpOrFail(async () => {
    h = await Harness.start(kind);
  });
  afterAll(async () => {
    await h?.close();
  });

  const retention = async (...argv: string[]) => {
    const output = new RecordingOutput();
    const code = await runOperator(['retention', 'run', ...argv], output, async () => ({ db: h.db, mailer: new FakeMailer(), retention: PERIODS, close: async () => {} }));
    return { code, out: output.outLines, stderr: output.stderr };
  };
  const audit = async () => (await h.db.selectFrom('audit_log').select('id').execute()).length;

  it('--dry-run lists who is due and changes nothing; the run erases them and says so', async () => {
    const due = await applicant(h, { status: 'withdrawn', withdrawn_at: ago(PERIODS.afterWithdrawalDays + 1) }, ago(100));
    const early = await applicant(h, { status: 'withdrawn', withdrawn_at: ago(PERIODS.afterWithdrawalDays - 1) }, ago(100));
    const inquiry = await addInquiry(h.db, { createdAt: ago(PERIODS.visitorInquiryDays + 2), updatedAt: ago(PERIODS.visitorInquiryDays + 1) });
    const users = await h.db.selectFrom('users').selectAll().orderBy('id').execute();
    const entries = await audit();

    const dry = await retention('--dry-run');
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.out[0]).toBe(text.retention.dryRunTitle);
    expect(dry.out).toContain(say(text.retention.members, { days: PERIODS.afterWithdrawalDays, count: 1 }));
    expect(dry.out).toContain(say(text.retention.inquiries, { days: PERIODS.visitorInquiryDays, count: 1 }));
    const listed = dry.out.join('\n');
    expect(listed).toContain(due.registerNumber);
    expect(listed).toContain(due.id);
    expect(listed).toContain(inquiry.ticket_no);
    expect(listed).not.toContain(early.id);
    expect(await h.db.selectFrom('users').selectAll().orderBy('id').execute()).toEqual(users);
    expect(await audit()).toBe(entries);
    expect(await h.db.selectFrom('stats_snapshots').selectAll().execute()).toEqual([]);

    const real = await retention();
    expect(real.code, real.stderr).toBe(0);
    expect(real.out[0]).toBe(say(text.retention.statsFirst, { asOf: statsDayOf(new Date()) }));
    expect(real.out).toContain(text.retention.doneTitle);
    expect(real.out.join('\n')).toContain(due.registerNumber);
    expect((await h.db.selectFrom('users').select('email').where('id', '=', due.id).executeTakeFirstOrThrow()).email).toBe(erasedEmail(due.id));
    expect((await h.db.selectFrom('users').select('email').where('id', '=', early.id).executeTakeFirstOrThrow()).email).toBe(early.email);
    expect((await h.db.selectFrom('inquiries').select('email').where('id', '=', inquiry.id).executeTakeFirstOrThrow()).email).toBe('');
    const erased = await h.db.selectFrom('audit_log').select(['action', 'actor_type', 'member_id', 'target']).where('action', 'in', ['members.erase', 'inquiries.erase']).orderBy('action').execute();
    expect(erased).toEqual([
      { action: 'inquiries.erase', actor_type: 'cli', member_id: null, target: inquiry.ticket_no },
      { action: 'members.erase', actor_type: 'cli', member_id: due.id, target: due.registerNumber },
    ]);

    // Again: nothing is due.
    const again = await retention();
    expect(again.code).toBe(0);
    expect(again.out).toContain(say(text.retention.members, { days: PERIODS.afterWithdrawalDays, count: 0 }));
  });

  it('refuses arguments it does not know', async () => {
    const res = await retention('--now');
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('retention run [--dry-run]');
  });
});
