// The smaller holds of issue 11: registration numbers drawn again on collision (and no false
// "address taken"), security headers on every answer, text PostgreSQL cannot store refused as a
// 400 whatever field carries it, and slow request bodies dropped.
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { InsertQueryNode, type KyselyPlugin, type PluginTransformQueryArgs, type PluginTransformResultArgs, type QueryResult, type RootOperationNode, type UnknownRow } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { PERMISSIONS_POLICY, build } from '../../src/server/app';
import { TextGuardPlugin } from '../../src/server/db/text-guard';
import { ApiError } from '../../src/server/errors';
import { CLIENT_KEY, DATABASES, FakeMailer, Harness, SECRET, openTestDb, setUpOrFail, testConfig, validRegistration, type DbKind } from '../support/api-harness';

/** Makes the next `times` inserts into applications fail as a unique violation on `constraint`,
 *  the way each database reports it. */
class CollidingApplications implements KyselyPlugin {
  left = 0;
  constraint = 'applications_register_number_key';
  constructor(private readonly kind: DbKind) {}
  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    if (InsertQueryNode.is(node) && node.into?.table.identifier.name === 'applications' && this.left > 0) {
      this.left--;
      const column = this.constraint.includes('register_number') ? 'applications.register_number' : 'applications.id';
      throw Object.assign(new Error(`UNIQUE constraint failed: ${column}`), this.kind === 'sqlite' ? { code: 'SQLITE_CONSTRAINT_UNIQUE' } : { code: '23505', constraint: this.constraint });
    }
    return node;
  }
  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return result;
  }
}

describe.each(DATABASES)('small holds ($name)', ({ kind }) => {
  let h: Harness;
  const colliding = new CollidingApplications(kind);
  setUpOrFail(async () => {
    h = await Harness.start(kind, { plugins: [colliding] });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('a registration number drawn twice is drawn again: 200 and one application', async () => {
    const { email, code } = await h.verifiedEmail();
    colliding.left = 2;
    const res = await h.register(validRegistration(email, code));
    expect(res.statusCode, res.body).toBe(200);
    const member = await h.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    expect(await h.db.selectFrom('applications').select('id').where('user_id', '=', member.id).execute()).toHaveLength(1);
  });

  it('another unique collision is an error, not "address already registered"; nothing is written', async () => {
    const { email, code } = await h.verifiedEmail();
    colliding.left = 1;
    colliding.constraint = 'applications_pkey';
    try {
      const res = await h.register(validRegistration(email, code));
      expect(res.statusCode).toBe(500);
      expect(res.json<{ code: string }>().code).toBe('INTERNAL');
      expect(await h.db.selectFrom('users').select('id').where('email', '=', email).execute()).toHaveLength(0);
    } finally {
      colliding.constraint = 'applications_register_number_key';
      colliding.left = 0;
    }
  });

  it('Permissions-Policy on every answer; Cache-Control no-store on a member\'s answers', async () => {
    const member = await h.createMember();
    const { token } = await h.loginWithCode(member);
    const info = await h.info(token);
    expect(info.headers['permissions-policy']).toBe(PERMISSIONS_POLICY);
    expect(info.headers['cache-control']).toBe('no-store');
    expect((await h.applications(token)).headers['cache-control']).toBe('no-store');
    const masters = await h.app.inject({ method: 'GET', url: '/v1/master/options?master_name=job', headers: { 'x-client-key': CLIENT_KEY } });
    expect(masters.headers['permissions-policy']).toBe(PERMISSIONS_POLICY);
    expect((await h.app.inject({ method: 'GET', url: '/v1/nowhere' })).headers['permissions-policy']).toBe(PERMISSIONS_POLICY);
  });

  it.each([
    ['a NUL', 'a\u0000b'],
    ['a lone high surrogate', 'a\uD800b'],
    ['a lone low surrogate', '\uDC00'],
  ])('%s never reaches the database: the query fails as BAD_REQUEST and nothing is stored', async (_label, text) => {
    const guarded = h.db.withPlugin(new TextGuardPlugin());
    const attempt = guarded.insertInto('notifications').values({ id: 'guard-test', user_id: null, message: text, created_at: new Date().toISOString() }).execute();
    await expect(attempt).rejects.toBeInstanceOf(ApiError);
    await expect(attempt).rejects.toMatchObject({ code: 'BAD_REQUEST', status: 400 });
    expect(await h.db.selectFrom('notifications').select('id').where('id', '=', 'guard-test').execute()).toEqual([]);
    // Through the API, in any field: a 4xx in Japanese, never a 500.
    const before = await h.count('inquiries');
    const res = await h.contact(undefined, { last_name_kanji: '佐藤', first_name_kanji: '次郎', email: 'nul@example.com', inquiry_user_type: '2', inquiry_type: '1', job: '1', purpose_detail: `お問い合わせの本文です。${text}十分な長さの本文にします。`, privacy_checked: true, agree_privacy: true });
    expect(res.statusCode, res.body).toBe(400);
    expect(await h.count('inquiries')).toBe(before);
  });

  it('well-formed text (a surrogate pair, an emoji-free kanji) passes the guard', async () => {
    const guarded = h.db.withPlugin(new TextGuardPlugin());
    await guarded.insertInto('notifications').values({ id: 'guard-ok', user_id: null, message: '𠮷野家', created_at: new Date().toISOString() }).execute();
    expect((await h.db.selectFrom('notifications').select('message').where('id', '=', 'guard-ok').executeTakeFirstOrThrow()).message).toBe('𠮷野家');
    await h.db.deleteFrom('notifications').where('id', '=', 'guard-ok').execute();
  });
});

describe('slow request bodies', () => {
  it('a body that never finishes is dropped after the request timeout', async () => {
    const testDb = await openTestDb('sqlite');
    const app = await build({ db: testDb.db, mailer: new FakeMailer(), clientKey: CLIENT_KEY, secret: SECRET, config: testConfig, requestTimeoutMs: 400 });
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as AddressInfo;
      const socket = connect(port, '127.0.0.1');
      const started = Date.now();
      const closed = new Promise<string>((resolve) => {
        let answer = '';
        socket.on('data', (chunk) => (answer += chunk.toString()));
        socket.on('close', () => resolve(answer));
      });
      socket.write(`POST /v1/contact HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\nX-Client-Key: ${CLIENT_KEY}\r\n\r\n{"last_na`);
      const answer = await closed;
      // Closed by the 400 ms limit, not the default's 15 s (a bound far from both, for a busy machine).
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(answer === '' || answer.startsWith('HTTP/1.1 408')).toBe(true);
    } finally {
      await app.close();
      await testDb.close();
    }
  });
});
