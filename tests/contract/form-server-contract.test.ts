// Generated over every catalogue form and the endpoint it is sent to: the form (its precompiled
// client validator, on the data as the member leaves the fields) and the server (the payload the
// client would send, through the wire adapter and the form-shaped validation) accept and refuse
// the same data with the same messages. Cases come from the schemas: a valid sample, then for
// every field n and n+1 for each length and count limit, each example and counter-example, and
// the field missing. The refusals are also sent to the API through inject() on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import messages from '../../messages/ja.json';
import { toFieldErrors, type FieldErrors } from '../../src/shared/validation/field-errors';
import { isBackOfficeForm, loadMasterLists, loadSchemaSet } from '../../src/shared/validation/schema-files';
import type { JsonObject } from '../../src/shared/validation/schema-bundle';
import { createServerValidation, formsOf } from '../../src/server/validation';
import { wireAdapters } from '../../src/shared/wire';
import type { FormModule } from '../../src/engine/SchemaForm';
import { buildFormModule, validateWith } from '../support/forms';
import { asLeft, FormSamples, type FieldCase } from '../support/schema-samples';
import { rulesOf } from '../support/schema-messages';
import { CLIENT_KEY, DATABASES, Harness, setUpOrFail } from '../support/api-harness';
import { operatorSession } from '../support/admin-session';

const FALLBACK = messages.form.fallbackFieldError;
const set = loadSchemaSet();
const masters = loadMasterLists();
const validation = createServerValidation(set, FALLBACK);

const endpointsOf = (form: string) => Object.keys(set.api).filter((id) => formsOf(set.api[id]).includes(form));
/** The member site's forms (its catalogue), and the back office's (admin-*, sent to /v1/admin/). */
const catalogueForms = [
  ...new Set(((set.catalogue.routes as JsonObject[]) ?? []).flatMap((r) => (r.forms as string[]) ?? [])),
  ...Object.keys(set.forms).filter((form) => isBackOfficeForm(form) && endpointsOf(form).length > 0),
];

/** Where each endpoint is sent, and how it is authenticated. */
const ROUTES: Record<string, { method: 'POST' | 'PUT' | 'GET'; url: string; member?: boolean; operator?: boolean; body?: Record<string, unknown> }> = {
  'api.email-register.json': { method: 'POST', url: '/v1/email/register' },
  'api.email-verify.json': { method: 'POST', url: '/v1/email/verify' },
  'api.user-register.json': { method: 'POST', url: '/v1/user/register' },
  'api.user-verify-login.json': { method: 'POST', url: '/v1/user/verify', body: { flow: 'login' } },
  'api.user-login.json': { method: 'POST', url: '/v1/user/login' },
  'api.contact.json': { method: 'POST', url: '/v1/contact' },
  'api.user-verify-password-change.json': { method: 'POST', url: '/v1/user/verify' },
  'api.user-set-password.json': { method: 'POST', url: '/v1/user/set-password' },
  'api.user-update.json': { method: 'PUT', url: '/v1/user/info', member: true },
  'api.user-verify-email-change.json': { method: 'POST', url: '/v1/user/verify', member: true },
  'api.user-email-change.json': { method: 'POST', url: '/v1/user/email/change', member: true },
  'api.user-withdraw.json': { method: 'POST', url: '/v1/user/withdraw', member: true },
  'api.user-data-request.json': { method: 'POST', url: '/v1/user/requests', member: true },
  'api.email-register-link.json': { method: 'POST', url: '/v1/email/register', body: { flow: 'link' } },
  'api.user-register-by-link.json': { method: 'POST', url: '/v1/user/register-by-link' },
  // The back office (an operator's session; the body is judged before any record is looked up).
  'api.admin-setup.json': { method: 'POST', url: '/v1/admin/setup' },
  'api.admin-login.json': { method: 'POST', url: '/v1/admin/login' },
  'api.admin-login-code.json': { method: 'POST', url: '/v1/admin/login/code' },
  'api.admin-password-reset.json': { method: 'POST', url: '/v1/admin/password-reset' },
  'api.admin-password-reset-link.json': { method: 'POST', url: '/v1/admin/password-reset/link' },
  'api.admin-operator-add.json': { method: 'POST', url: '/v1/admin/operators', operator: true },
  'api.admin-decision.json': { method: 'POST', url: '/v1/admin/applications/R20250401-000001/decision', operator: true },
  'api.admin-reversal.json': { method: 'POST', url: '/v1/admin/applications/R20250401-000001/reversal', operator: true },
  'api.admin-notice.json': { method: 'POST', url: '/v1/admin/notices', operator: true },
  'api.admin-answer.json': { method: 'POST', url: '/v1/admin/inquiries/00000000-0000-4000-8000-000000000001/answer', operator: true },
  'api.admin-correction.json': { method: 'POST', url: '/v1/admin/inquiries/00000000-0000-4000-8000-000000000001/answers/00000000-0000-4000-8000-000000000002/correction', operator: true },
  'api.admin-assign.json': { method: 'POST', url: '/v1/admin/inquiries/00000000-0000-4000-8000-000000000001/assign', operator: true },
  'api.admin-request-handle.json': { method: 'POST', url: '/v1/admin/requests/00000000-0000-4000-8000-000000000001/handle', operator: true },
  'api.user-passkey-add.json': { method: 'POST', url: '/v1/user/passkeys', member: true, body: { response: { id: 'AAAA', rawId: 'AAAA', type: 'public-key', response: { clientDataJSON: 'e30' } } } },
  'api.admin-passkey-add.json': { method: 'POST', url: '/v1/admin/account/passkeys', operator: true, body: { response: { id: 'AAAA', rawId: 'AAAA', type: 'public-key', response: { clientDataJSON: 'e30' } } } },
  // A query string (columns=a,b,c) the route turns into the form's list: judged by the same
  // validation (serverJudge), sent through the API in tests/api/admin-records.test.ts.
  'api.admin-member-export.json': { method: 'GET', url: '/v1/admin/members/export.csv', operator: true },
};

interface Pairing {
  form: string;
  apiId: string;
  module: FormModule;
  samples: FormSamples;
  /** The endpoint's own fields and the other forms it takes, valid. */
  extra: Record<string, unknown>;
  others: Record<string, unknown>;
}

function clientJudge(module: FormModule, data: Record<string, unknown>): FieldErrors {
  return toFieldErrors(validateWith(module, asLeft(module.schema as JsonObject, data)).errors, FALLBACK);
}

/** The payload the client sends for this form data (before the adapter's canonical step, which
 *  the server repeats after validating). */
function wireOf(p: Pairing, data: Record<string, unknown>): Record<string, unknown> {
  const formData = { ...p.others, ...data };
  const adapter = wireAdapters[p.apiId];
  return adapter?.toWire ? adapter.toWire(formData, p.extra, set.forms[p.form].schema) : { ...p.extra, ...formData };
}

function serverJudge(p: Pairing, data: Record<string, unknown>): FieldErrors {
  const result = validation.parse(p.apiId, wireOf(p, data));
  return result.ok ? {} : (result.fields ?? { '': ['not an object'] });
}

/** Server field errors on the form's fields only: a payload-only field (the three condition
 *  flags standing for one check box) reports its own messages under its own name. */
function formPart(p: Pairing, fields: FieldErrors): FieldErrors {
  const own = new Set(Object.keys((set.api[p.apiId].properties as JsonObject | undefined) ?? {}));
  return Object.fromEntries(Object.entries(fields).filter(([name]) => !own.has(name)));
}

/** Client field errors under the payload's names (what the server reports them as). */
function onTheWire(p: Pairing, fields: FieldErrors): FieldErrors {
  const adapter = wireAdapters[p.apiId];
  const out: FieldErrors = {};
  for (const [path, list] of Object.entries(fields)) {
    const name = adapter?.wireField ? adapter.wireField(path) : path;
    if (name === null) continue;
    out[name] = [...new Set([...(out[name] ?? []), ...list])];
  }
  return out;
}

const pairings: Pairing[] = [];

beforeAll(async () => {
  for (const form of catalogueForms) {
    for (const apiId of endpointsOf(form)) {
      const module = await buildFormModule(form);
      const samples = new FormSamples(module.schema as JsonObject, masters, (data) => clientJudge(module, data));
      const api = set.api[apiId];
      const apiSamples = new FormSamples(api, masters, (data) => {
        const r = validation.parse(apiId, data);
        return r.ok ? {} : (r.fields ?? {});
      });
      const others: Record<string, unknown> = {};
      for (const other of formsOf(api).filter((name) => name !== form)) {
        const otherModule = await buildFormModule(other);
        Object.assign(others, new FormSamples(otherModule.schema as JsonObject, masters, (data) => clientJudge(otherModule, data)).valid());
      }
      const extra = { ...apiSamples.valid(), ...(ROUTES[apiId]?.body ?? {}) };
      pairings.push({ form, apiId, module, samples, extra, others });
    }
  }
});

describe('every catalogue form is sent to an endpoint that validates with it', () => {
  it.each(catalogueForms)('%s', (form) => {
    const submits = set.forms[form].schema['x-submits'] !== false;
    expect(endpointsOf(form).length > 0, `${form}: no schemas/api payload names it in x-forms`).toBe(submits);
  });

  it('every payload schema with x-forms has a route here', () => {
    for (const id of Object.keys(set.api).filter((id) => formsOf(set.api[id]).length > 0)) expect(ROUTES[id], id).toBeDefined();
  });
});

describe('form and server: same verdict, same messages', () => {
  it('the generated cases cover every form with an endpoint', () => {
    expect(new Set(pairings.map((p) => p.form))).toEqual(new Set(catalogueForms.filter((f) => endpointsOf(f).length > 0)));
  });

  it.each(catalogueForms.flatMap((form) => endpointsOf(form).map((apiId) => [form, apiId] as const)))('%s → %s', (form, apiId) => {
    const p = pairings.find((x) => x.form === form && x.apiId === apiId)!;
    const rules = rulesOf(form);
    const base = p.samples.valid();
    expect(clientJudge(p.module, base), 'the valid sample, in the browser').toEqual({});
    expect(serverJudge(p, base), 'the valid sample, on the server').toEqual({});

    const cases = p.samples.cases();
    expect(cases.length).toBeGreaterThan(0);
    const problems: Array<{ case: string; client?: FieldErrors; server?: FieldErrors; problem: string }> = [];
    for (const c of cases) {
      const client = clientJudge(p.module, c.data);
      const server = formPart(p, serverJudge(p, c.data));
      const expected = onTheWire(p, client);
      if (JSON.stringify(sorted(expected)) !== JSON.stringify(sorted(server))) problems.push({ case: c.label, client: expected, server, problem: 'form and server differ' });
      if (c.valid && client[c.field]) problems.push({ case: c.label, client, problem: 'should be accepted' });
      if (!c.valid && !client[c.field]) problems.push({ case: c.label, client, problem: 'should be refused under its field' });
      const message = expectedMessage(rules, c);
      if (!c.valid && message && !client[c.field]?.includes(message)) problems.push({ case: c.label, client, problem: `should say "${message}"` });
    }
    expect(problems).toEqual([]);
  });
});

function sorted(fields: FieldErrors): FieldErrors {
  return Object.fromEntries(Object.entries(fields).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, [...v].sort()]));
}

function expectedMessage(rules: ReturnType<typeof rulesOf>, c: FieldCase): string | undefined {
  if (!c.keyword) return undefined;
  try {
    return c.keyword === 'required' ? rules.required(c.field) : rules.message(c.field, c.keyword);
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// The same refusals through the API

describe.each(DATABASES)('the API refuses what the form refuses, with its messages ($name)', ({ kind }) => {
  let h: Harness;
  let token: string;
  let operator: Record<string, string>;
  setUpOrFail(async () => {
    h = await Harness.start(kind);
    const member = await h.createMember();
    token = (await h.loginWithCode(member)).token;
    operator = (await operatorSession(h.db, 'admin')).headers;
  });
  afterAll(async () => {
    await h?.close();
  });

  it('every generated refusal answers 400 with the fields the form shows', async () => {
    const problems: Array<{ endpoint: string; case: string; status: number; body: unknown; expected: FieldErrors }> = [];
    let sent = 0;
    for (const p of pairings) {
      const route = ROUTES[p.apiId];
      if (route.method === 'GET') continue;
      for (const c of p.samples.cases().filter((x) => !x.valid)) {
        const expected = onTheWire(p, clientJudge(p.module, c.data));
        // A refusal only the browser makes (a confirmation that does not travel) has nothing to send.
        if (Object.keys(expected).length === 0) continue;
        const headers: Record<string, string> = route.operator ? operator : route.member ? { authorization: `Bearer ${token}` } : { 'x-client-key': CLIENT_KEY };
        const res = await h.app.inject({ method: route.method as 'POST' | 'PUT', url: route.url, headers, payload: { ...wireOf(p, c.data), ...(route.body ?? {}) } });
        sent += 1;
        const body = res.json() as { code?: string; fields?: FieldErrors };
        if (res.statusCode !== 400 || body.code !== 'VALIDATION' || JSON.stringify(sorted(formPart(p, body.fields ?? {}))) !== JSON.stringify(sorted(expected))) {
          problems.push({ endpoint: `${route.method} ${route.url}`, case: c.label, status: res.statusCode, body, expected });
        }
      }
    }
    expect(sent).toBeGreaterThan(50);
    expect(problems).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// Text hygiene: what no free text may carry

describe('every text field refuses NUL, control characters and broken characters, in the browser and on the server', () => {
  const HOSTILE = [
    ['a NUL', '\u0000'],
    ['a bell', '\u0007'],
    ['an escape', '\u001b'],
    ['a lone surrogate', '\ud800'],
    ['a DEL', '\u007f'],
  ] as const;

  it.each(catalogueForms.flatMap((form) => endpointsOf(form).map((apiId) => [form, apiId] as const)))('%s → %s', (form, apiId) => {
    const p = pairings.find((x) => x.form === form && x.apiId === apiId)!;
    const base = p.samples.valid();
    const textarea = (name: string) => (set.forms[form].uiSchema[name] as JsonObject | undefined)?.['ui:widget'] === 'textarea';
    const problems: string[] = [];
    let checked = 0;
    for (const [name, node] of Object.entries(p.samples.fields)) {
      if (node.type !== 'string' || 'enum' in node || 'const' in node) continue;
      const data = p.samples.withField(name, base);
      const value = data[name];
      if (typeof value !== 'string' || !value) continue;
      const cases: Array<[string, string, boolean]> = HOSTILE.map(([label, ch]) => [label, ch, false]);
      cases.push(['a line break', '\n', textarea(name)], ['a tab', '\t', textarea(name)]);
      for (const [label, ch, allowed] of cases) {
        // In the middle, so that trimming cannot remove it.
        const middle = [...value];
        const text = [...middle.slice(0, 1), ch, ...middle.slice(1)].join('');
        const withIt = { ...data, [name]: text };
        checked += 1;
        // A field whose normalisers keep digits only drops the character: nothing of it is stored.
        const left = asLeft(p.module.schema as JsonObject, withIt)[name];
        if (typeof left === 'string' && !left.includes(ch)) continue;
        const client = clientJudge(p.module, withIt);
        const server = formPart(p, serverJudge(p, withIt));
        const wireName = Object.keys(onTheWire(p, { [name]: ['x'] }))[0];
        if (!allowed && !client[name]) problems.push(`${name} with ${label}: accepted in the browser`);
        if (!allowed && wireName && !server[wireName]) problems.push(`${name} with ${label}: accepted by the server`);
        if (allowed && client[name]?.length && !clientJudge(p.module, { ...data, [name]: value })[name]) {
          // A textarea keeps line breaks and tabs unless something else about the text is wrong.
          const lengthOnly = client[name].every((m) => m.includes('文字'));
          if (!lengthOnly) problems.push(`${name} with ${label}: refused in a textarea (${client[name].join(' / ')})`);
        }
      }
    }
    if (Object.values(p.samples.fields).some((n) => n.type === 'string')) expect(checked).toBeGreaterThan(0);
    expect(problems).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// The payload types the client builds name only fields the schemas know

describe('every payload the client builds has only fields its schemas state', () => {
  it.each(catalogueForms.flatMap((form) => endpointsOf(form).map((apiId) => [form, apiId] as const)))('%s → %s', (form, apiId) => {
    const p = pairings.find((x) => x.form === form && x.apiId === apiId)!;
    // The wire adapters are typed with the shared payload types (src/shared/api-types.ts), so the
    // keys they produce are those types' keys; each must be a form field (under its wire name)
    // or a field of the payload schema.
    const known = new Set<string>([
      ...formsOf(set.api[apiId]).flatMap((name) => Object.keys(onTheWire(p, Object.fromEntries(Object.keys(new FormSamples(set.forms[name].schema, masters, () => ({})).fields).map((f) => [f, ['x']]))))),
      ...Object.keys((set.api[apiId].properties as JsonObject | undefined) ?? {}),
      ...Object.keys(ROUTES[apiId]?.body ?? {}),
    ]);
    const sent = Object.keys(wireOf(p, p.samples.valid()));
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.filter((key) => !known.has(key))).toEqual([]);
  });
});
