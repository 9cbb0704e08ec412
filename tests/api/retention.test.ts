// Retention, enforced (issue 37 point 4, docs/decisions/041), on SQLite and PostgreSQL: withdrawn
// members past the period (and not one day earlier) lose their personal data with everything
// around it, visitors' inquiries after their own period; one audit entry each; a second run
// changes nothing; two runs at once (and, on PostgreSQL, two instances' connections) erase each
// once; the daily job runs once a day on one instance; the statistics do not change; the dry run
// changes nothing; an erased member is gone from the office, whose member detail lists the
// member's own downloads of their data.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CompiledQuery, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { DATABASES, Harness, PG_URL, setUpOrFail } from '../support/api-harness';
import { applicant, asOperator } from '../support/admin-records';
import { operatorSession, type TestOperator } from '../support/admin-session';
import { openDb, type Db } from '../../src/server/db/connect';
import { cliWho } from '../../src/server/admin/services/common';
import { computeStats, statsDayOf } from '../../src/server/admin/services/stats';
import { statsSnapshot } from '../../src/server/admin/services/stats-snapshot';
import { denshijitiList } from '../../src/server/denshijiti';
import { OWN_ACTIONS } from '../../src/server/disclosure/document';
import { dueInquiriesQuery, dueMembersQuery, erasedEmail, runRetention, type Erased, type RetentionOptions } from '../../src/server/retention/erase';
import { dailyRetention, japanDate, RUN_CLAIM_MS } from '../../src/server/retention/job';
import { DEFAULT_RETENTION, type RetentionPeriods } from '../../src/server/retention/periods';
import { loadConfig, retentionOf } from '../../src/server/config';

const PERIODS: RetentionPeriods = { afterWithdrawalDays: 30, visitorInquiryDays: 10 };
const DAY = 86400_000;
const ago = (days: number, from = Date.now()) => new Date(from - days * DAY).toISOString();
const municipalities = denshijitiList();

describe('RETENTION_DAYS_AFTER_WITHDRAWAL and RETENTION_DAYS_VISITOR_INQUIRIES', () => {
  it('default to 365 and 180 days (ADR 041), take 0 (the next run), and refuse what is not a whole number of days at start-up', () => {
    expect(retentionOf(loadConfig({}))).toEqual(DEFAULT_RETENTION);
    expect(DEFAULT_RETENTION).toEqual({ afterWithdrawalDays: 365, visitorInquiryDays: 180 });
    expect(retentionOf(loadConfig({ RETENTION_DAYS_AFTER_WITHDRAWAL: '0', RETENTION_DAYS_VISITOR_INQUIRIES: '30' }))).toEqual({ afterWithdrawalDays: 0, visitorInquiryDays: 30 });
    expect(() => loadConfig({ RETENTION_DAYS_AFTER_WITHDRAWAL: '-1' })).toThrow(/RETENTION_DAYS_AFTER_WITHDRAWAL/);
    expect(() => loadConfig({ RETENTION_DAYS_VISITOR_INQUIRIES: '1.5' })).toThrow(/RETENTION_DAYS_VISITOR_INQUIRIES/);
  });
});

describe.each(DATABASES)('retention ($name)', ({ kind }) => {
  let h: Harness;
  let clerk: TestOperator;

  setUpOrFail(async () => {
    h = await Harness.start(kind);
    clerk = await operatorSession(h.db, 'secretariat');
  });
  afterAll(async () => {
    await h?.close();
  });

  const run = (options: Partial<RetentionOptions> = {}, db: Db = h.db) => runRetention(db, { periods: PERIODS, who: cliWho(), ...options });
  const userRow = (id: string) => h.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const rowsOf = async (table: 'sessions' | 'trusted_devices' | 'member_search' | 'email_codes' | 'notifications', id: string) =>
    (await h.db.selectFrom(table).selectAll().where('user_id', '=', id).execute()).length;
  const entries = (action: string, memberId?: string) => {
    let query = h.db.selectFrom('audit_log').selectAll().where('action', '=', action);
    if (memberId) query = query.where('member_id', '=', memberId);
    return query.orderBy('at').orderBy('id').execute();
  };
  /** Everything a run may write, as rows (for "nothing changed"). */
  const everything = async () => ({
    users: await h.db.selectFrom('users').selectAll().orderBy('id').execute(),
    inquiries: await h.db.selectFrom('inquiries').selectAll().orderBy('id').execute(),
    answers: await h.db.selectFrom('inquiry_answers').selectAll().orderBy('id').execute(),
    mails: await h.db.selectFrom('mail_outbox').selectAll().orderBy('id').execute(),
    sessions: await h.db.selectFrom('sessions').selectAll().orderBy('token_hash').execute(),
    keys: await h.db.selectFrom('member_search').selectAll().orderBy('user_id').orderBy('kind').orderBy('key').execute(),
    notices: await h.db.selectFrom('notifications').selectAll().orderBy('id').execute(),
    audit: await h.db.selectFrom('audit_log').selectAll().orderBy('id').execute(),
    snapshots: await h.db.selectFrom('stats_snapshots').selectAll().orderBy('day').execute(),
    runs: await h.db.selectFrom('retention_runs').selectAll().orderBy('day').execute(),
  });

  const mail = async (to: string, values: Record<string, string>, status: 'queued' | 'sent' | 'uncertain', createdAt: string) => {
    const id = randomUUID();
    await h.db
      .insertInto('mail_outbox')
      .values({ id, to_address: to, template: 'withdrawn', values_json: JSON.stringify(values), next_attempt_at: createdAt, locked_until: null, last_error: null, created_at: createdAt, sent_at: status === 'sent' ? createdAt : null, status, attempt_id: null, send_started_at: null, uncertain_at: null })
      .execute();
    return id;
  };

  /** A member withdrawn `days` days ago, with something of every kind the erasure reaches. */
  async function withdrawn(days: number, profile: Record<string, string> = {}) {
    const withdrawnAt = ago(days);
    const created = ago(days + 200);
    const member = await applicant(h, { birthday: '1985-07-15', city: '202011', ...profile, status: 'withdrawn', withdrawn_at: withdrawnAt }, created);
    const { id } = member;
    await h.db.insertInto('sessions').values({ token_hash: randomUUID(), user_id: id, created_at: created, expires_at: withdrawnAt, ends_at: withdrawnAt, revoked_at: withdrawnAt }).execute();
    await h.db.insertInto('trusted_devices').values({ token_hash: randomUUID(), user_id: id, created_at: created, expires_at: withdrawnAt }).execute();
    await h.db
      .insertInto('passkeys')
      .values({ id: randomUUID(), owner_type: 'member', owner_id: id, credential_id: randomUUID(), public_key: 'pk', counter: 0, transports: '[]', name: 'iPhone', created_at: created, last_used_at: null })
      .execute();
    await h.db.insertInto('email_codes').values({ id: randomUUID(), purpose: 'login', email: member.email, user_id: id, code_hash: 'h', created_at: created, expires_at: created, consumed_at: null, flow_hash: null }).execute();
    await h.db.insertInto('notifications').values({ id: randomUUID(), user_id: id, message: '山田花子様への個別のお知らせ', created_at: created }).execute();
    await h.db.insertInto('withdrawals').values({ id: randomUUID(), user_id: id, reason: '転居のため（千代田区から）', created_at: withdrawnAt }).execute();
    await h.db
      .insertInto('application_decisions')
      .values({ id: randomUUID(), application_id: member.applicationId, kind: 'decision', decision: 'declined', reason: '山田様は対象外の地域にお住まいのため', operator_id: null, actor_label: 'cli:test', at: created, mail_id: null })
      .execute();
    const inquiryId = randomUUID();
    await h.db
      .insertInto('inquiries')
      .values({ id: inquiryId, ticket_no: `Q${randomUUID().slice(0, 12)}`, user_id: id, last_name_kanji: '山田', first_name_kanji: '花子', email: member.email, inquiry_user_type: '1', inquiry_type: '1', job: '1', content: '私の申請について', status: 'answered', answer: '山田様、回答します', created_at: created, updated_at: created })
      .execute();
    await h.db.insertInto('inquiry_answers').values({ id: randomUUID(), inquiry_id: inquiryId, answer: '山田様、回答します', note: '宛名の訂正', corrects_id: null, operator_id: null, actor_label: 'cli:test', at: created, mail_id: null }).execute();
    const sentMail = await mail(member.email, { name: '山田 花子' }, 'sent', withdrawnAt);
    const queuedMail = await mail(member.email, { name: '山田 花子' }, 'queued', withdrawnAt);
    return { ...member, withdrawnAt, inquiryId, sentMail, queuedMail };
  }

  it('erases exactly the withdrawn members past the period (a day either side), everything personal around them, one audit entry each', async () => {
    const due = await withdrawn(PERIODS.afterWithdrawalDays + 1, { address_current: '　大阪府大阪市北区梅田1-1', last_name_alpha: 'YAMADA', phone: '09012345678', attributes: '{"last_name_kana":"ヤマダ"}' });
    const early = await withdrawn(PERIODS.afterWithdrawalDays - 1);
    const active = await applicant(h, {}, ago(100));
    // The due member's address, registered again after the withdrawal: the new account and the
    // mail it got are someone else's now.
    const again = await h.createMember(due.email, 'unused', { password_hash: 'not-a-hash', created_at: ago(PERIODS.afterWithdrawalDays) });
    const laterMail = await mail(due.email, { name: '山田 花子' }, 'sent', ago(PERIODS.afterWithdrawalDays - 1));
    const untouched = await Promise.all([early.id, active.id, again.id].map(userRow));

    const erased: Erased[] = [];
    const counts = await run({ onErased: (item) => erased.push(item) });
    expect(counts.members).toBe(1);
    expect(erased).toEqual([{ kind: 'member', id: due.id, registerNumber: due.registerNumber, withdrawnAt: due.withdrawnAt }]);

    const row = await userRow(due.id);
    // Kept for the statistics: the prefecture (the leading full-width space as they skip it),
    // purposes, municipality, registration time, the birthday's month; status and withdrawal.
    expect(row).toMatchObject({ status: 'withdrawn', withdrawn_at: due.withdrawnAt, address_current: '大阪府', purpose: '1,3', city: '202011', birthday: '1985-07-01', prefecture: '大阪府' });
    expect(row.erased_at).not.toBeNull();
    // Everything else personal is gone.
    expect(row).toMatchObject({ email: erasedEmail(due.id), password_hash: '', attributes: '{}', last_name_kanji: '', first_name_kanji: '', last_name_alpha: '', first_name_alpha: '', phone: '', zip_current: '', gender: '', purpose_detail: '', mail_opt: '' });
    for (const table of ['sessions', 'trusted_devices', 'member_search', 'email_codes', 'notifications'] as const) expect(await rowsOf(table, due.id), table).toBe(0);
    expect(await h.db.selectFrom('passkeys').selectAll().where('owner_id', '=', due.id).execute()).toEqual([]);
    expect(await h.db.selectFrom('withdrawals').select('reason').where('user_id', '=', due.id).execute()).toEqual([{ reason: '' }]);
    expect(await h.db.selectFrom('application_decisions').select('reason').where('application_id', '=', due.applicationId).execute()).toEqual([{ reason: '' }]);
    expect(await h.db.selectFrom('inquiries').select(['last_name_kanji', 'first_name_kanji', 'email', 'content', 'answer', 'status']).where('id', '=', due.inquiryId).execute()).toEqual([
      { last_name_kanji: '', first_name_kanji: '', email: '', content: '', answer: '', status: 'answered' },
    ]);
    expect(await h.db.selectFrom('inquiry_answers').select(['answer', 'note']).where('inquiry_id', '=', due.inquiryId).execute()).toEqual([{ answer: '', note: '' }]);
    // Their unsent mail is dropped, their sent mail keeps only that it went; the next account's is untouched.
    expect(await h.db.selectFrom('mail_outbox').select('id').where('id', '=', due.queuedMail).execute()).toEqual([]);
    expect(await h.db.selectFrom('mail_outbox').select(['to_address', 'values_json', 'template', 'status']).where('id', '=', due.sentMail).execute()).toEqual([
      { to_address: erasedEmail(due.id), values_json: '{}', template: 'withdrawn', status: 'sent' },
    ]);
    expect(await h.db.selectFrom('mail_outbox').select(['to_address', 'values_json']).where('id', '=', laterMail).execute()).toEqual([{ to_address: due.email, values_json: '{"name":"山田 花子"}' }]);
    // The application stays (no one's data without the person).
    expect(await h.db.selectFrom('applications').select('register_number').where('user_id', '=', due.id).execute()).toEqual([{ register_number: due.registerNumber }]);

    // The member withdrawn a day short of the period, the active one and the new account: untouched.
    expect(await Promise.all([early.id, active.id, again.id].map(userRow))).toEqual(untouched);
    expect(await rowsOf('sessions', early.id)).toBe(1);
    expect(await rowsOf('member_search', again.id)).toBeGreaterThan(0);

    const [entry, ...more] = await entries('members.erase', due.id);
    expect(more).toEqual([]);
    expect(entry).toMatchObject({ actor_type: 'cli', member_id: due.id, target: due.registerNumber });
    expect(JSON.parse(entry!.detail)).toEqual({ withdrawn_at: due.withdrawnAt, retention_days: PERIODS.afterWithdrawalDays });
    expect(await entries('members.erase', early.id)).toEqual([]);
  });

  it('erases a visitor inquiry past its own period with the mail about it; a newer one, and other mail to the address, stay', async () => {
    const email = h.uniqueEmail('visitor');
    const insert = async (days: number) => {
      const id = randomUUID();
      const ticket = `Q${randomUUID().slice(0, 12)}`;
      await h.db
        .insertInto('inquiries')
        .values({ id, ticket_no: ticket, user_id: null, last_name_kanji: '佐藤', first_name_kanji: '次郎', email, inquiry_user_type: '2', inquiry_type: '1', job: '1', content: '佐藤です。質問があります。', status: 'answered', answer: '佐藤様、回答です', created_at: ago(days + 5), updated_at: ago(days) })
        .execute();
      await h.db.insertInto('inquiry_answers').values({ id: randomUUID(), inquiry_id: id, answer: '佐藤様、回答です', note: null, corrects_id: null, operator_id: null, actor_label: 'cli:test', at: ago(days), mail_id: null }).execute();
      return { id, ticket, mail: await mail(email, { ticketNo: ticket, name: '佐藤 次郎' }, 'sent', ago(days)) };
    };
    const due = await insert(PERIODS.visitorInquiryDays + 1);
    const early = await insert(PERIODS.visitorInquiryDays - 1);
    const before = await h.db.selectFrom('inquiries').selectAll().where('id', '=', early.id).executeTakeFirstOrThrow();

    const counts = await run();
    expect(counts.inquiries).toBe(1);
    expect(await h.db.selectFrom('inquiries').select(['last_name_kanji', 'email', 'content', 'answer', 'ticket_no', 'status']).where('id', '=', due.id).execute()).toEqual([
      { last_name_kanji: '', email: '', content: '', answer: '', ticket_no: due.ticket, status: 'answered' },
    ]);
    expect(await h.db.selectFrom('inquiry_answers').select(['answer', 'note']).where('inquiry_id', '=', due.id).execute()).toEqual([{ answer: '', note: null }]);
    expect(await h.db.selectFrom('mail_outbox').select(['to_address', 'values_json']).where('id', '=', due.mail).execute()).toEqual([{ to_address: erasedEmail(due.id), values_json: '{}' }]);
    expect(await h.db.selectFrom('inquiries').selectAll().where('id', '=', early.id).executeTakeFirstOrThrow()).toEqual(before);
    expect(await h.db.selectFrom('mail_outbox').select('to_address').where('id', '=', early.mail).execute()).toEqual([{ to_address: email }]);
    const audit = (await entries('inquiries.erase')).filter((e) => e.target === due.ticket);
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0]!.detail)).toEqual({ retention_days: PERIODS.visitorInquiryDays });
    expect((await entries('inquiries.erase')).filter((e) => e.target === early.ticket)).toEqual([]);
    // Gone from the office: no detail (and so no answer to an address it no longer has).
    expect((await asOperator(h, clerk, 'GET', `/v1/admin/inquiries/${due.id}`)).statusCode).toBe(404);
    expect((await asOperator(h, clerk, 'GET', `/v1/admin/inquiries/${early.id}`)).statusCode).toBe(200);
  });

  it('is idempotent: a second run finds nothing and changes nothing', async () => {
    await withdrawn(PERIODS.afterWithdrawalDays + 3);
    expect((await run()).members).toBeGreaterThanOrEqual(1);
    const before = await everything();
    expect(await run()).toEqual({ members: 0, inquiries: 0 });
    expect(await everything()).toEqual(before);
  });

  it('two runs at once erase each member once, with one audit entry each', async () => {
    const members = await Promise.all(Array.from({ length: 7 }, (_, i) => withdrawn(PERIODS.afterWithdrawalDays + 2 + i)));
    // On PostgreSQL the second run is another instance: its own pool on the same schema.
    let other: Db = h.db;
    let dataDir: string | undefined;
    if (kind === 'postgres') {
      const schema = (await sql<{ schema: string }>`select current_schema() as schema`.execute(h.db)).rows[0]!.schema;
      dataDir = await mkdtemp(join(tmpdir(), 'retention-'));
      other = openDb({ databaseUrl: PG_URL, dataDir, pgSchema: schema, onPoolError: () => {} });
    }
    try {
      const [a, b] = await Promise.all([run({ batch: 2 }), run({ batch: 2 }, other)]);
      expect(a.members + b.members).toBe(members.length);
    } finally {
      if (other !== h.db) await other.destroy();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    }
    for (const member of members) {
      expect(await entries('members.erase', member.id)).toHaveLength(1);
      expect((await userRow(member.id)).email).toBe(erasedEmail(member.id));
    }
  });

  it('the daily job runs once a day on one instance, as the system, and takes over a claim its process left', async () => {
    const member = await withdrawn(PERIODS.afterWithdrawalDays + 1);
    const at = new Date();
    const day = japanDate(at);
    await h.db.deleteFrom('retention_runs').execute();
    const [a, b] = await Promise.all([dailyRetention(h.db, { periods: PERIODS, municipalities, at }), dailyRetention(h.db, { periods: PERIODS, municipalities, at })]);
    expect([a, b].filter((r) => r !== undefined)).toHaveLength(1);
    expect((a ?? b)!.members).toBeGreaterThanOrEqual(1);
    const [runRow] = await h.db.selectFrom('retention_runs').selectAll().execute();
    expect(runRow).toMatchObject({ day });
    expect(runRow!.finished_at).not.toBeNull();
    expect(await dailyRetention(h.db, { periods: PERIODS, municipalities, at })).toBeUndefined();
    expect(await entries('members.erase', member.id)).toMatchObject([{ actor_type: 'system', actor_label: 'system:retention', operator_id: null, ip: null }]);

    // A claim its process left mid-run (never renewed) is taken over; a fresh one is not.
    await h.db.deleteFrom('retention_runs').execute();
    await h.db.insertInto('retention_runs').values({ day, claimed_at: new Date(Date.now() - 1000).toISOString(), finished_at: null, members: null, inquiries: null }).execute();
    expect(await dailyRetention(h.db, { periods: PERIODS, municipalities, at })).toBeUndefined();
    await h.db.updateTable('retention_runs').set({ claimed_at: new Date(Date.now() - RUN_CLAIM_MS - 1000).toISOString() }).execute();
    expect(await dailyRetention(h.db, { periods: PERIODS, municipalities, at })).toEqual({ members: 0, inquiries: 0 });
  });

  it('leaves the statistics unchanged: the day’s view, and the figures computed again from the tables', async () => {
    // Registered long before yesterday; erased today. Birthdays on the 1st, so the month kept is
    // the whole birthday and the recomputed ages must match too.
    for (let i = 0; i < 6; i++) await withdrawn(PERIODS.afterWithdrawalDays + 5, { address_current: '大阪府大阪市北区1-1', purpose: '5', city: '202011', birthday: '1990-01-01' });
    for (let i = 0; i < 6; i++) await withdrawn(PERIODS.afterWithdrawalDays + 5, { address_current: '　東京都千代田区1-1', purpose: '1,5', city: '', birthday: '1960-05-01' });
    const day = statsDayOf(new Date());
    await h.db.deleteFrom('stats_snapshots').execute();
    await h.db.deleteFrom('retention_runs').execute();
    const before = await computeStats(h.db, { day, municipalities });
    expect(before.total).not.toBeNull();

    const counts = await dailyRetention(h.db, { periods: PERIODS, municipalities });
    expect(counts!.members).toBeGreaterThanOrEqual(12);
    const { at: _at, ...viewed } = await statsSnapshot(h.db, { municipalities });
    expect(viewed).toEqual(before);
    expect(await computeStats(h.db, { day, municipalities })).toEqual(before);
  });

  it('the dry run lists what is due and changes nothing', async () => {
    const member = await withdrawn(PERIODS.afterWithdrawalDays + 1);
    const before = await everything();
    const listed: Erased[] = [];
    const counts = await run({ dryRun: true, onErased: (item) => listed.push(item) });
    expect(counts.members).toBe(1);
    expect(listed).toContainEqual({ kind: 'member', id: member.id, registerNumber: member.registerNumber, withdrawnAt: member.withdrawnAt });
    expect(await everything()).toEqual(before);
  });

  it('reads what is due from the partial indexes of what is still to erase, in their order', async () => {
    const plan = async (query: CompiledQuery): Promise<string> => {
      if (kind === 'sqlite') return (await h.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]))).rows.map((r) => r.detail).join('\n');
      return h.db.transaction().execute(async (tx) => {
        for (const setting of ['enable_seqscan', 'enable_sort']) await sql`select set_config(${setting}, 'off', true)`.execute(tx);
        return (await tx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain ${query.sql}`, [...query.parameters]))).rows.map((r) => r['QUERY PLAN']).join('\n');
      });
    };
    const after = { at: ago(40), id: randomUUID() };
    const members = await plan(dueMembersQuery(h.db, ago(30), after, 200).compile());
    const inquiries = await plan(dueInquiriesQuery(h.db, ago(10), after, 200).compile());
    expect(members).toMatch(/users_retention/);
    expect(inquiries).toMatch(/inquiries_retention/);
    for (const text of [members, inquiries]) expect(text).not.toMatch(/TEMP B-TREE|Sort|Seq Scan/);
  });

  it('an erased member is gone from the office; the detail lists a member’s own downloads of their data', async () => {
    const member = await withdrawn(PERIODS.afterWithdrawalDays + 1, { last_name_kanji: '消去対象', first_name_kanji: '太郎' });
    const kept = await withdrawn(PERIODS.afterWithdrawalDays - 1, { last_name_kanji: '消去対象', first_name_kanji: '次郎' });
    // The disclosure download (issue 37 point 1) as the audit log records it.
    const download = { id: randomUUID(), at: new Date().toISOString(), format: 'html' };
    await h.db
      .insertInto('audit_log')
      .values({ id: download.id, at: download.at, actor_type: 'member', operator_id: null, actor_label: 'member', actor_role: null, action: OWN_ACTIONS[0], member_id: kept.id, target: null, detail: '{"format":"html"}', ip: null })
      .execute();
    const search = async () => (await asOperator(h, clerk, 'GET', `/v1/admin/members?q=${encodeURIComponent('消去対象')}`)).json().items.map((i: { id: string }) => i.id);
    expect(await search()).toEqual(expect.arrayContaining([member.id, kept.id]));
    const detail = await asOperator(h, clerk, 'GET', `/v1/admin/members/${kept.id}`);
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json().disclosures).toEqual([download]);

    await run();
    expect(await search()).toEqual([kept.id]);
    expect((await asOperator(h, clerk, 'GET', `/v1/admin/members/${member.id}`)).statusCode).toBe(404);
    const withdrawnList = (await asOperator(h, clerk, 'GET', '/v1/admin/members?status=withdrawn&size=100')).json().items.map((i: { id: string }) => i.id);
    expect(withdrawnList).not.toContain(member.id);
    expect(withdrawnList).toContain(kept.id);
  });
});
