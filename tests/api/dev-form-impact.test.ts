// The form review page's stored-data counts: only `npm run dev` registers the endpoint
// (scripts/dev.ts); it judges one form as `npm run impact` does, on the schemas as they are on
// disk, and adds the texts the page shows above the form and beside each judged field.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../src/server/app';
import { createMember } from '../../src/server/seed';
import type { StoredImpactAnswer } from '../../src/shared/impact';
import { devImpactRoutes } from '../../scripts/dev-form-impact';
import { CLIENT_KEY, FakeMailer, Harness, SECRET, expectError, japaneseText, openTestDb, testConfig, type TestDb } from '../support/api-harness';
import { rulesOf } from '../support/schema-messages';
import { demoGaps } from '../support/tightened-schemas';

describe('dev server: GET /v1/_dev/forms/:name/impact', () => {
  let testDb: TestDb;
  let app: FastifyInstance;
  const edit = rulesOf('edit-profile');
  const get = (name: string, headers: Record<string, string> = { 'x-client-key': CLIENT_KEY }) => app.inject({ method: 'GET', url: `/v1/_dev/forms/${name}/impact`, headers });

  beforeAll(async () => {
    testDb = await openTestDb('sqlite');
    app = await build({ db: testDb.db, mailer: new FakeMailer(), clientKey: CLIENT_KEY, secret: SECRET, config: testConfig, mountClient: async (a) => devImpactRoutes(a, () => testDb.db) });
    await app.ready();
    // Valid under schemas/ as they are (demoGaps: a field they require that the demo profile stores empty).
    await createMember(testDb.db, 'hanako@example.jp', 'Correct-Horse-9!', demoGaps());
    // Stored under an earlier, looser rule: one character short of today's minimum.
    await createMember(testDb.db, 'taro@example.jp', 'Correct-Horse-9!', { ...demoGaps(), purpose_detail: japaneseText(edit.limit('purpose_detail', 'minLength') - 1) });
  });
  afterAll(async () => {
    await app?.close();
    await testDb?.close();
  });

  it('counts the stored members the edit form refuses, with a note for every field it judged', async () => {
    const res = await get('edit-profile');
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json<StoredImpactAnswer>();
    expect(answer.impact).toMatchObject({ form: 'edit-profile', records: 'members', judged: 2, refused: 1 });
    expect(answer.impact?.fields.map((f) => [f.field, f.refused])).toEqual([['purpose_detail', 1]]);
    expect(answer.summary).toBe('保存済みデータ（npm run impact と同じ判定）：有効な会員 2人のうち 1人がこのフォームを通りません。');
    expect(Object.keys(answer.notes ?? {})).toEqual(answer.impact?.judgedFields);
    expect(answer.notes?.purpose_detail).toBe(`保存済みの有効な会員：1人が通りません（${edit.limit('purpose_detail', 'minLength')}文字以上 1人）`);
    expect(answer.notes?.last_name_kanji).toBe('保存済みの有効な会員：すべて通ります');
  });

  it('has nothing to count for a form no stored record is in the shape of', async () => {
    const res = await get('login');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ impact: null });
  });

  it('needs the client key, and knows only the forms under schemas/forms', async () => {
    expectError(await get('edit-profile', {}), 401, 'CLIENT_KEY_INVALID');
    expectError(await get('no-such-form'), 404, 'NOT_FOUND');
  });
});

describe('production server', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await Harness.start('sqlite');
  });
  afterAll(async () => harness?.close());

  it('has no stored-data count route', async () => {
    expectError(await harness.app.inject({ method: 'GET', url: '/v1/_dev/forms/edit-profile/impact', headers: { 'x-client-key': CLIENT_KEY } }), 404, 'NOT_FOUND');
  });
});
