// My page: GET /v1/user/application (the member's registration applications) and GET
// /v1/user/notification (their own notices and the broadcasts), GET /v1/user/info's job and
// industry fall-backs, and the session length that config sets.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { migrate } from '../../src/server/db/connect';
import { masterFile, seedMasters } from '../../src/server/masters';
import { userInfo } from '../../src/server/routes/user-info';
import { memberRecord } from '../../src/shared/member-record';
import type { UserInfo } from '../../src/shared/api-types';
import { schemaSet } from '../support/schema-messages';
import { DATABASES, Harness, expectError, setUpOrFail, testConfig, validRegistration, type Member } from '../support/api-harness';

interface ApplicationItem {
  date: string;
  status: string;
  registerNumber: string;
}

interface NotificationItem {
  id: string;
  date: string;
  message: string;
}

describe.each(DATABASES)('my page: applications, notices and member info ($name)', ({ kind }) => {
  let h: Harness;

  setUpOrFail(async () => {
    h = await Harness.start(kind);
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(() => h.mailer.clear());

  const session = async (m: Member) => (await h.loginWithCode(m)).token;

  /** Expires every session of `member`'s. */
  async function expireSessions(member: Pick<Member, 'id'>) {
    const past = new Date(Date.now() - 1000).toISOString();
    await h.db.updateTable('sessions').set({ expires_at: past }).where('user_id', '=', member.id).execute();
  }

  // -------------------------------------------------------------------------------------------
  describe('GET /v1/user/application', () => {
    it('a member who registered → 200 [{date, status: "pending", registerNumber}] (the number of the welcome mail)', async () => {
      const before = Date.now();
      const member = await h.registerMember();
      const res = await h.applications(member.token);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      const items = res.json<ApplicationItem[]>();
      expect(items).toHaveLength(1);
      const [row] = await h.db.selectFrom('applications').selectAll().where('user_id', '=', member.id).execute();
      expect(items).toEqual([{ date: row.applied_at, status: 'pending', registerNumber: member.registerNumber }]);
      expect(items[0].registerNumber).toMatch(/^R\d{8}-\d{6}$/);
      expect(Date.parse(items[0].date)).toBeGreaterThanOrEqual(before - 1000);
      expect(Date.parse(items[0].date)).toBeLessThanOrEqual(Date.now() + 1000);
    });

    it('the same list with a token from a later login', async () => {
      const member = await h.registerMember();
      const res = await h.applications(await session(member));
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<ApplicationItem[]>()).toEqual([expect.objectContaining({ status: 'pending', registerNumber: member.registerNumber })]);
    });

    it('a member without an application → 200 []', async () => {
      const member = await h.createMember();
      const res = await h.applications(await session(member));
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual([]);
    });

    it('only the member\'s own applications, newest first', async () => {
      const [first, second] = [await h.registerMember(), await h.registerMember()];
      const older = { id: randomUUID(), user_id: first.id, register_number: `R20200101-${first.id.slice(0, 6)}`, status: 'declined' as const, applied_at: '2020-01-01T09:00:00.000Z', decided_at: '2020-01-10T09:00:00.000Z' };
      await h.db.insertInto('applications').values(older).execute();

      const asFirst = (await h.applications(first.token)).json<ApplicationItem[]>();
      expect(asFirst).toHaveLength(2);
      expect(asFirst[0]).toMatchObject({ status: 'pending', registerNumber: first.registerNumber });
      expect(asFirst[1]).toEqual({ date: older.applied_at, status: 'declined', registerNumber: older.register_number });

      const asSecond = (await h.applications(second.token)).json<ApplicationItem[]>();
      expect(asSecond).toEqual([expect.objectContaining({ status: 'pending', registerNumber: second.registerNumber })]);
      expect(JSON.stringify(asSecond)).not.toContain(first.registerNumber);
      expect(JSON.stringify(asSecond)).not.toContain(older.register_number);
    });

    it('no token → 401 UNAUTHENTICATED', async () => {
      expectError(await h.applications(), 401, 'UNAUTHENTICATED');
    });

    it('an unknown token → 401 UNAUTHENTICATED', async () => {
      expectError(await h.applications('AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'), 401, 'UNAUTHENTICATED');
    });

    it('an expired session → 401 SESSION_EXPIRED', async () => {
      const member = await h.registerMember();
      expect((await h.applications(member.token)).statusCode).toBe(200);
      await expireSessions(member);
      expectError(await h.applications(member.token), 401, 'SESSION_EXPIRED');
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('GET /v1/user/notification', () => {
    it('own notices and broadcasts, newest first, as {id, date, message}; another member\'s never', async () => {
      const [member, other] = [await h.createMember(), await h.createMember()];
      const token = await session(member);
      const otherToken = await session(other);

      // Nothing yet (no broadcast exists in this database before this test).
      const empty = await h.notifications(token);
      expect(empty.statusCode, empty.body).toBe(200);
      expect(empty.json()).toEqual([]);

      const notice = (user_id: string | null, message: string, created_at: string) => ({ id: randomUUID(), user_id, message, created_at });
      const ownOld = notice(member.id, '会員登録のお申し込みを受け付けました。', '2025-01-05T01:00:00.000Z');
      const broadcastOld = notice(null, '年末年始の事務局の休業についてのお知らせです。', '2025-01-06T01:00:00.000Z');
      const othersNotice = notice(other.id, '佐藤様の登録が承認されました。', '2025-01-07T01:00:00.000Z');
      const ownNew = notice(member.id, '会員登録が承認されました。モニタープログラムにお申し込みいただけます。', '2025-02-01T01:00:00.000Z');
      const broadcastNew = notice(null, '新しい地域体験メニューを公開しました。', '2025-01-20T01:00:00.000Z');
      await h.db.insertInto('notifications').values([ownOld, broadcastOld, othersNotice, ownNew, broadcastNew]).execute();

      const res = await h.notifications(token);
      expect(res.statusCode, res.body).toBe(200);
      const item = (n: typeof ownOld): NotificationItem => ({ id: n.id, date: n.created_at, message: n.message });
      expect(res.json<NotificationItem[]>()).toEqual([ownNew, broadcastNew, broadcastOld, ownOld].map(item));
      expect(res.body).not.toContain(othersNotice.message);
      expect(res.body).not.toContain(othersNotice.id);

      const asOther = await h.notifications(otherToken);
      expect(asOther.statusCode, asOther.body).toBe(200);
      expect(asOther.json<NotificationItem[]>()).toEqual([broadcastNew, othersNotice, broadcastOld].map(item));
      expect(asOther.body).not.toContain(ownOld.message);
      expect(asOther.body).not.toContain(ownNew.message);
    });

    it('no token → 401 UNAUTHENTICATED', async () => {
      expectError(await h.notifications(), 401, 'UNAUTHENTICATED');
    });

    it('an expired session → 401 SESSION_EXPIRED', async () => {
      const member = await h.createMember();
      const token = await session(member);
      expect((await h.notifications(token)).statusCode).toBe(200);
      await expireSessions(member);
      expectError(await h.notifications(token), 401, 'SESSION_EXPIRED');
    });

    it('a withdrawn member\'s token → 401 UNAUTHENTICATED', async () => {
      const member = await h.createMember();
      const token = await session(member);
      await h.db.updateTable('users').set({ status: 'withdrawn', withdrawn_at: new Date().toISOString() }).where('id', '=', member.id).execute();
      expectError(await h.notifications(token), 401, 'UNAUTHENTICATED');
      expectError(await h.applications(token), 401, 'UNAUTHENTICATED');
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('GET /v1/user/info: job label and fall-backs', () => {
    it('jobLabel is the label of the saved job', async () => {
      const member = await h.createMember(undefined, undefined, { job: '6', industry: '12' });
      const res = await h.info(await session(member));
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<UserInfo>()).toMatchObject({ job: '6', jobLabel: '自営業・フリーランス', industry: '12' });
    });

    it('job 99 reads as その他', async () => {
      const member = await h.createMember(undefined, undefined, { job: '99', industry: '99', industry_other: '林業機械の整備' });
      const info = (await h.info(await session(member))).json<UserInfo>();
      expect(info).toMatchObject({ job: '99', jobLabel: 'その他', industry: '99', industry_other: '林業機械の整備' });
    });

    it('a saved job and industry that are not in the master lists read as job "1" and industry "8"', async () => {
      const member = await h.createMember(undefined, undefined, { job: '42', industry: '77' });
      const res = await h.info(await session(member));
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<UserInfo>()).toMatchObject({ job: '1', jobLabel: '会社員（正社員）', industry: '8' });
      // Reading does not rewrite what is stored.
      const row = await h.db.selectFrom('users').select(['job', 'industry']).where('id', '=', member.id).executeTakeFirstOrThrow();
      expect(row).toEqual({ job: '42', industry: '77' });
    });

    it('an empty saved job and industry read as the defaults too', async () => {
      const member = await h.createMember(undefined, undefined, { job: '', industry: '' });
      const info = (await h.info(await session(member))).json<UserInfo>();
      expect(info).toMatchObject({ job: '1', jobLabel: '会社員（正社員）', industry: '8' });
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('GET /v1/user/info: the serialised answer (schemas/api/user-info-response.json)', () => {
    // The compiled serialiser writes the required fields in the schema's order, then jobLabel
    // (the one optional field): the address, then the member record's fields of the edit form in
    // the form's order (src/server/member-answer.ts), then jobLabel.
    const ORDER = ['email', ...memberRecord(schemaSet().forms).of('edit-profile').map(([, field]) => field.name), 'jobLabel'];

    /** The body GET /v1/user/info answers, and the profile the route builds written in ORDER. */
    async function bodies(member: Member) {
      const res = await h.info(await session(member));
      expect(res.statusCode, res.body).toBe(200);
      const user = await h.db.selectFrom('users').selectAll().where('id', '=', member.id).executeTakeFirstOrThrow();
      const built = (await userInfo({ db: h.db, schemas: schemaSet() }, user)) as unknown as Record<string, unknown>;
      return { body: res.body, expected: JSON.stringify(Object.fromEntries(ORDER.filter((key) => built[key] !== undefined).map((key) => [key, built[key]]))) };
    }

    it('is the profile the route builds, byte for byte: every field, nothing added', async () => {
      const member = await h.createMember(undefined, undefined, { job: '99', industry: '99', industry_other: '林業機械の整備', amc: '1234567890' });
      const { body, expected } = await bodies(member);
      expect(body).toBe(expected);
      expect(Object.keys(JSON.parse(body))).toEqual(ORDER);
    });

    it('leaves jobLabel out when the saved job and the default are in no list', async () => {
      try {
        await seedMasters(h.db, { ...masterFile(), job: [] });
        const { body, expected } = await bodies(await h.createMember());
        expect(body).toBe(expected);
        expect(Object.keys(JSON.parse(body))).toEqual(ORDER.filter((f) => f !== 'jobLabel'));
      } finally {
        await migrate(h.db); // every list back in step with options.json
      }
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('session length', () => {
    it(`the login and registration answers' expires_in is sessionSeconds (${testConfig.sessionSeconds})`, async () => {
      const member = await h.createMember();
      const code = await h.requestCode(member);
      const res = await h.login({ email: member.email, password: member.password, code });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<{ expires_in: number }>().expires_in).toBe(testConfig.sessionSeconds);

      const { email, code: key } = await h.verifiedEmail();
      const registered = await h.register(validRegistration(email, key));
      expect(registered.statusCode, registered.body).toBe(200);
      expect(registered.json<{ expires_in: number }>().expires_in).toBe(testConfig.sessionSeconds);
    });
  });
});

describe.each(DATABASES)('session length from config: sessionSeconds 2 ($name)', ({ kind }) => {
  const SECONDS = 2;
  let h: Harness;

  setUpOrFail(async () => {
    h = await Harness.start(kind, { config: { sessionSeconds: SECONDS } });
  });
  afterAll(async () => {
    await h?.close();
  });

  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('the login answer\'s expires_in is the configured seconds; ~2.5 s later the token → 401 SESSION_EXPIRED', async () => {
    const member = await h.createMember();
    const code = await h.requestCode(member);
    const res = await h.login({ email: member.email, password: member.password, code });
    expect(res.statusCode, res.body).toBe(200);
    const { token, expires_in } = res.json<{ token: string; expires_in: number }>();
    expect(expires_in).toBe(SECONDS);
    const row = await h.db.selectFrom('sessions').select(['created_at', 'expires_at']).where('user_id', '=', member.id).executeTakeFirstOrThrow();
    expect(Date.parse(row.expires_at) - Date.parse(row.created_at)).toBeGreaterThanOrEqual(SECONDS * 1000 - 50);
    expect(Date.parse(row.expires_at) - Date.parse(row.created_at)).toBeLessThanOrEqual(SECONDS * 1000 + 50);

    expect((await h.info(token)).statusCode).toBe(200);
    await sleep(SECONDS * 1000 + 500);
    expectError(await h.info(token), 401, 'SESSION_EXPIRED');
    expectError(await h.applications(token), 401, 'SESSION_EXPIRED');
    expectError(await h.notifications(token), 401, 'SESSION_EXPIRED');
  });

  it('the registration answer\'s session lasts the configured seconds too', async () => {
    const member = await h.registerMember();
    const row = await h.db.selectFrom('sessions').select(['created_at', 'expires_at']).where('user_id', '=', member.id).executeTakeFirstOrThrow();
    expect(Date.parse(row.expires_at) - Date.parse(row.created_at)).toBeGreaterThanOrEqual(SECONDS * 1000 - 50);
    expect(Date.parse(row.expires_at) - Date.parse(row.created_at)).toBeLessThanOrEqual(SECONDS * 1000 + 50);
    await sleep(SECONDS * 1000 + 500);
    expectError(await h.applications(member.token), 401, 'SESSION_EXPIRED');
  });
});
