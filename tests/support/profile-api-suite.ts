// Registration, the member info answer and the edit form through the API, on SQLite, with every
// payload made from the schemas folder the suite is given: the baseline registration and update
// (validRegistration / validProfileUpdate), each value a form refuses alone (schema-samples.ts
// cases), every option of every list. tests/contract/rule-changes.test.ts runs it on copies of
// schemas/ that a product owner changed in JSON only; each test's name says what a member does
// and its failure says which field and message differ.
import { afterAll, describe, expect, it } from 'vitest';
import messages from '../../messages/ja.json';
import type { FormModule } from '../../src/engine/SchemaForm';
import { createServerValidation } from '../../src/server/validation';
import { memberRecord, toFormValue, toWireValue, type MemberField } from '../../src/shared/member-record';
import { loadMasterLists } from '../../src/shared/validation/schema-files';
import type { JsonObject } from '../../src/shared/validation/schema-bundle';
import { toFieldErrors, type FieldErrors } from '../../src/shared/validation/field-errors';
import { wireAdapters, type WireAdapter } from '../../src/shared/wire';
import { Harness, setUpOrFail, validProfileUpdate, validRegistration } from './api-harness';
import { buildFormModule, validateWith } from './forms';
import { schemaSet } from './schema-messages';
import { asLeft, FormSamples } from './schema-samples';

const FALLBACK = messages.form.fallbackFieldError;
const REGISTER = { form: 'register-profile', apiId: 'api.user-register.json' } as const;
/** A code of the right shape that no list offers. */
const UNOFFERED = '97';
const EDIT = { form: 'edit-profile', apiId: 'api.user-update.json' } as const;

export interface ApiSuiteOptions {
  /** Option values a list no longer offers: the API must refuse them (MASTER_UNKNOWN). */
  refusedOptions?: Array<{ field: string; value: string }>;
}

function clientJudge(module: FormModule, data: Record<string, unknown>): FieldErrors {
  return toFieldErrors(validateWith(module, asLeft(module.schema as JsonObject, data)).errors, FALLBACK);
}

/** Form field errors under the names the payload carries them (what the server answers). */
function onTheWire(adapter: WireAdapter | undefined, fields: FieldErrors): FieldErrors {
  const out: FieldErrors = {};
  for (const [path, list] of Object.entries(fields)) {
    const name = adapter?.wireField ? adapter.wireField(path) : path;
    if (name === null) continue;
    out[name] = [...new Set([...(out[name] ?? []), ...list])];
  }
  return out;
}

function sorted(fields: FieldErrors): FieldErrors {
  return Object.fromEntries(Object.entries(fields).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, [...v].sort()]));
}

export function profileApiSuite(dir: string, options: ApiSuiteOptions = {}): void {
  const set = schemaSet(dir);
  const validation = createServerValidation(set, FALLBACK);
  const record = memberRecord(set.forms);
  const masters = loadMasterLists(dir);
  const apiOwn = (apiId: string) => new Set(Object.keys((set.api[apiId].properties as JsonObject | undefined) ?? {}));
  /** Server field errors on the form's fields only (the payload's own fields answer for themselves). */
  const formPart = (apiId: string, fields: FieldErrors) => Object.fromEntries(Object.entries(fields).filter(([name]) => !apiOwn(apiId).has(name)));
  /** What GET /v1/user/info must answer for form `form`'s valid payload: each stored field's value
   *  as the server validated and stored it. */
  const expectedInfo = (form: string, apiId: string, payload: Record<string, unknown>, skip: (name: string) => boolean = () => false) => {
    const parsed = validation.parse(apiId, payload);
    if (!parsed.ok) throw new Error(`${form}: the server refuses the baseline payload: ${JSON.stringify(parsed.fields)}`);
    const out: Record<string, unknown> = {};
    for (const [name, field] of record.of(form)) if (!skip(name) && (field.kind === 'text' || field.kind === 'list')) out[field.name] = toWireValue(field, parsed.data[name]);
    return out;
  };
  const answered = (info: Record<string, unknown>, expected: Record<string, unknown>) => Object.fromEntries(Object.keys(expected).map((name) => [name, info[name] ?? '']));

  let h: Harness;
  const modules = {} as Record<'register' | 'edit', FormModule>;
  const samples = {} as Record<'register' | 'edit', FormSamples>;
  setUpOrFail(async () => {
    h = await Harness.start('sqlite', { schemasDir: dir });
    modules.register = await buildFormModule(REGISTER.form, dir);
    modules.edit = await buildFormModule(EDIT.form, dir);
    samples.register = new FormSamples(modules.register.schema as JsonObject, masters, (data) => clientJudge(modules.register, data));
    samples.edit = new FormSamples(modules.edit.schema as JsonObject, masters, (data) => clientJudge(modules.edit, data));
    // Two forms precompiled and a database migrated: seconds on a loaded machine; the limit is for a hang.
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  /** A registered member (the baseline registration) and the payload it registered with. */
  let member: { email: string; token: string; birthday: string } | undefined;

  describe('registration (POST /v1/user/register) and the member info (GET /v1/user/info)', () => {
    it('a registration made from the schemas is accepted, and the member info answers every field as stored', async () => {
      const { email, code } = await h.verifiedEmail();
      const payload = validRegistration(email, code, {}, dir);
      const res = await h.register(payload);
      expect(res.statusCode, `the registration the schemas describe was refused: ${res.body}`).toBe(200);
      const token = res.json<{ token: string }>().token;
      const info = (await h.info(token)).json<Record<string, unknown>>();
      const expected = expectedInfo(REGISTER.form, REGISTER.apiId, payload);
      expect(answered(info, expected), 'GET /v1/user/info after registering').toEqual(expected);
      member = { email, token, birthday: String(info.birthday) };
    });

    it('each value the registration form refuses alone is refused by the API with the same messages, under its payload name', async () => {
      const { email, code } = await h.verifiedEmail();
      const adapter = wireAdapters[REGISTER.apiId];
      const schema = modules.register.schema as JsonObject;
      const before = await h.count('users');
      const problems: unknown[] = [];
      const cases = samples.register.cases().filter((c) => !c.valid);
      for (const c of cases) {
        const expected = onTheWire(adapter, clientJudge(modules.register, c.data));
        if (Object.keys(expected).length === 0) continue;
        const res = await h.register(adapter.toWire!(c.data, { email, verification_code: code }, schema));
        const body = res.json<{ code?: string; fields?: FieldErrors }>();
        if (res.statusCode !== 400 || body.code !== 'VALIDATION' || JSON.stringify(sorted(formPart(REGISTER.apiId, body.fields ?? {}))) !== JSON.stringify(sorted(expected))) {
          problems.push({ case: c.label, status: res.statusCode, answered: body.fields ?? body, form: expected });
        }
      }
      expect(cases.length).toBeGreaterThan(10);
      expect(problems, 'the screen and the API disagree on these').toEqual([]);
      expect(await h.count('users'), 'a refused registration writes nothing').toBe(before);
      // The refusals left the verified address usable.
      expect((await h.register(validRegistration(email, code, {}, dir))).statusCode).toBe(200);
    });
  });

  describe('the edit form (PUT /v1/user/info)', () => {
    const editFields = () => record.of(EDIT.form);
    const readOnly = (name: string) => (modules.edit.uiSchema[name] as JsonObject | undefined)?.['ui:readonly'] === true;

    it('a member who has just registered opens the edit form with nothing to fix', async () => {
      expect(member, 'the registration above failed').toBeDefined();
      const info = (await h.info(member!.token)).json<Record<string, unknown>>();
      const formData = Object.fromEntries(editFields().map(([name, field]: readonly [string, MemberField]) => [name, toFormValue(field, info[field.name])]).filter(([, v]) => v !== undefined));
      expect(
        clientJudge(modules.edit, formData),
        'the edit form refuses what the registration form accepted: a rule on the edit form is stricter than at registration (every new member would be asked to fix these on opening edit)',
      ).toEqual({});
    });

    it('an update made from the schemas is accepted, and the member info answers it', async () => {
      const payload = validProfileUpdate(member!.email, member!.birthday, {}, dir);
      const res = await h.updateInfo(member!.token, payload);
      expect(res.statusCode, `the update the schemas describe was refused: ${res.body}`).toBe(200);
      const info = (await h.info(member!.token)).json<Record<string, unknown>>();
      const expected = expectedInfo(EDIT.form, EDIT.apiId, payload, readOnly);
      expect(answered(info, expected), 'GET /v1/user/info after the update').toEqual(expected);
    });

    it('each value the edit form refuses alone is refused by the API with the same messages, under its payload name', async () => {
      const adapter = wireAdapters[EDIT.apiId];
      const schema = modules.edit.schema as JsonObject;
      const problems: unknown[] = [];
      const cases = samples.edit.cases().filter((c) => !c.valid);
      for (const c of cases) {
        const expected = onTheWire(adapter, clientJudge(modules.edit, c.data));
        if (Object.keys(expected).length === 0) continue;
        const res = await h.updateInfo(member!.token, adapter.toWire!(c.data, { email: member!.email }, schema));
        const body = res.json<{ code?: string; fields?: FieldErrors }>();
        if (res.statusCode !== 400 || body.code !== 'VALIDATION' || JSON.stringify(sorted(formPart(EDIT.apiId, body.fields ?? {}))) !== JSON.stringify(sorted(expected))) {
          problems.push({ case: c.label, status: res.statusCode, answered: body.fields ?? body, form: expected });
        }
      }
      expect(cases.length).toBeGreaterThan(10);
      expect(problems, 'the screen and the API disagree on these').toEqual([]);
    });

    it('every option each list offers is accepted and answered back; a value no list offers is refused', async () => {
      const adapter = wireAdapters[EDIT.apiId];
      const schema = modules.edit.schema as JsonObject;
      const base = samples.edit.valid();
      const problems: unknown[] = [];
      const unknownMessage = messages.api.MASTER_UNKNOWN;
      for (const [name, field] of editFields()) {
        const offered = samples.edit.options(name);
        if (offered.length === 0 || readOnly(name)) continue;
        const node = samples.edit.fields[name];
        const size = field.kind === 'list' ? Math.max(1, Math.min(offered.length, (node.maxItems as number | undefined) ?? offered.length)) : 1;
        const groups: string[][] = [];
        for (let i = 0; i < offered.length; i += size) groups.push(offered.slice(i, i + size));
        const refused = [[UNOFFERED], ...(options.refusedOptions ?? []).filter((o) => o.field === name).map((o) => [o.value])];
        for (const group of [...groups, ...refused]) {
          const value = field.kind === 'list' ? group : group[0];
          const data = samples.edit.complete({ ...samples.edit.withField(name, base), [name]: value });
          const res = await h.updateInfo(member!.token, adapter.toWire!(data, { email: member!.email }, schema));
          const isOffered = group.every((v) => offered.includes(v));
          if (isOffered) {
            const info = (await h.info(member!.token)).json<Record<string, unknown>>();
            if (res.statusCode !== 200 || info[field.name] !== toWireValue(field, value)) problems.push({ field: name, value, status: res.statusCode, answered: info[field.name] ?? res.body });
          } else {
            const body = res.json<{ fields?: FieldErrors }>();
            if (res.statusCode !== 400 || !body.fields?.[adapter.wireField?.(name) ?? name]?.includes(unknownMessage)) problems.push({ field: name, value, status: res.statusCode, answered: body, expected: unknownMessage });
          }
        }
      }
      expect(problems).toEqual([]);
    });
  });
}
