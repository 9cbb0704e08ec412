// The form review page's server verdict: only `npm run dev` registers it (scripts/dev.ts); it
// judges a form's data with the server's own ajv and the form's schema, with the messages an
// API answer carries; the production app has no such route.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../src/server/app';
import { sampleData } from '../../src/shared/sample-data';
import { formNames, loadBundledForm, SCHEMAS_DIR } from '../../src/shared/validation/schema-files';
import type { JsonObject } from '../../src/shared/validation/schema-bundle';
import { devFormRoutes } from '../../scripts/dev-form-verdict';
import { CLIENT_KEY, FakeMailer, Harness, SECRET, expectError, openTestDb, testConfig, type TestDb } from '../support/api-harness';
import { rulesOf } from '../support/schema-messages';

const masters = JSON.parse(readFileSync(join(SCHEMAS_DIR, 'masters', 'options.json'), 'utf8')) as Record<string, Array<{ value: string }>>;

function sampleFor(name: string): JsonObject {
  const { schema, uiSchema } = loadBundledForm(name);
  const masterOf = (field: string) => ((uiSchema[field] as JsonObject | undefined)?.['ui:options'] as { master?: string } | undefined)?.master;
  return sampleData(schema, { masters, masterOf });
}

describe('dev server: POST /v1/_dev/forms/:name/verdict', () => {
  let testDb: TestDb;
  let app: FastifyInstance;
  const verdict = (name: string, body: unknown, headers: Record<string, string> = { 'x-client-key': CLIENT_KEY }) =>
    app.inject({ method: 'POST', url: `/v1/_dev/forms/${name}/verdict`, headers, payload: body as object });

  beforeAll(async () => {
    testDb = await openTestDb('sqlite');
    app = await build({ db: testDb.db, mailer: new FakeMailer(), clientKey: CLIENT_KEY, secret: SECRET, config: testConfig, mountClient: async (a) => devFormRoutes(a) });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await testDb?.close();
  });

  it.each(formNames())('%s: the sample data the page fills in is accepted', async (name) => {
    const res = await verdict(name, sampleFor(name));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ valid: true, fields: {} });
  });

  it('refuses with the schema’s own message, field by field', async () => {
    const rules = rulesOf('register-profile');
    const tooShort = 'x'.repeat(rules.limit('purpose_detail', 'minLength') - 1);
    const res = await verdict('register-profile', { ...sampleFor('register-profile'), purpose_detail: tooShort });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ valid: false, fields: { purpose_detail: [rules.message('purpose_detail', 'minLength')] } });
  });

  it('needs the client key, and knows only the forms under schemas/forms', async () => {
    expectError(await verdict('login', {}, {}), 401, 'CLIENT_KEY_INVALID');
    expectError(await verdict('no-such-form', {}), 404, 'NOT_FOUND');
  });
});

describe('production server', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await Harness.start('sqlite');
  });
  afterAll(async () => harness?.close());

  it('has no form verdict route', async () => {
    const res = await harness.app.inject({ method: 'POST', url: '/v1/_dev/forms/login/verdict', headers: { 'x-client-key': CLIENT_KEY }, payload: {} });
    expectError(res, 404, 'NOT_FOUND');
  });
});
