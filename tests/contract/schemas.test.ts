// Contract of every schema under schemas/ (shared, forms, api), walked generically so that a new
// schema file is covered without touching this test: it compiles on both sides, its UI schema
// matches it, and every rule that can fail has a Japanese message.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { getDefaultRegistry } from '@rjsf/core';
import { hasWidget, type RJSFSchema } from '@rjsf/utils';
import messages from '../../messages/ja.json';
import { createAjv } from '../../src/shared/validation/ajv-setup';
import type { JsonObject } from '../../src/shared/validation/schema-bundle';
import { formNames, loadBundledForm, loadSchemaSet, loadSharedSchemas, SCHEMAS_DIR } from '../../src/shared/validation/schema-files';
import { walkNodes } from '../../src/shared/validation/schema-nodes';
import { errorPaths, toFieldErrors } from '../../src/shared/validation/field-errors';
import { normalisers } from '../../src/shared/normalise';
import { isRecordForm, memberRecord } from '../../src/shared/member-record';
import { namedBy, viewSpecs } from '../../src/shared/member-view';
import { createServerValidation } from '../../src/server/validation';
import { widgets as engineWidgets } from '../../src/engine/registry';
import type { FormModule } from '../../src/engine/SchemaForm';
import { precompileValidators } from '../../tools/precompile';
import { buildFormModule, JAPANESE, validateWith } from '../support/forms';
import {
  ANNOTATIONS,
  APPLICATORS,
  ASSERTIONS,
  deref,
  errorKeyword,
  isObject,
  propertiesOf,
  schemaFiles,
  walkSchema,
  type SchemaFile,
} from '../support/schema-walk';

const files = schemaFiles();
const forms = formNames();
const prepared = loadSchemaSet();
const sharedDocs = loadSharedSchemas();
/** The schemas as both sides use them (bundled, required messages given, texts filled): what
 *  the message checks judge. Shared definitions are judged as read (they have no `required`),
 *  with the limits one takes from another filled in. */
const preparedFiles: SchemaFile[] = [
  ...files.filter((f) => f.kind === 'shared').map((f) => ({ ...f, schema: sharedDocs[f.schema.$id as string] })),
  ...forms.map((name) => ({ kind: 'form' as const, file: `forms/${name}.schema.json (prepared)`, schema: prepared.forms[name].schema })),
  ...Object.entries(prepared.api).map(([id, schema]) => ({ kind: 'api' as const, file: `${id} (prepared)`, schema })),
];
const FALLBACK = messages.form.fallbackFieldError;
/** A fallback that is not Japanese: any error without a schema message shows up as this. */
const NO_SCHEMA_MESSAGE = '<no errorMessage>';

describe('schema files', () => {
  it('are found (shared, forms and api)', () => {
    expect(files.filter((f) => f.kind === 'shared').length).toBeGreaterThan(0);
    expect(files.filter((f) => f.kind === 'form').length).toBeGreaterThan(0);
    expect(files.filter((f) => f.kind === 'api').length).toBeGreaterThan(0);
  });

  it('schemas/forms holds only <name>.schema.json and an optional <name>.ui.json', () => {
    for (const file of readdirSync(join(SCHEMAS_DIR, 'forms'))) {
      const match = /^(.+)\.(schema|ui)\.json$/.exec(file);
      expect(match, `unexpected file schemas/forms/${file}`).not.toBeNull();
      expect(forms, `schemas/forms/${file} has no schema`).toContain(match![1]);
    }
  });

  it('the fallback field message is Japanese', () => {
    expect(FALLBACK).toMatch(JAPANESE);
  });
});

describe.each(forms)('form %s compiles', (name) => {
  it('bundles, and compiles with createAjv()', () => {
    const { schema } = loadBundledForm(name);
    expect(JSON.stringify(schema)).not.toMatch(/"\$ref":"(?!#)/); // every ref is local after bundling
    expect(typeof createAjv().compile(schema)).toBe('function');
  });

  it('precompiles to standalone code that loads', async () => {
    const { schema } = loadBundledForm(name);
    const code = precompileValidators(schema as RJSFSchema);
    expect(code).toContain('export const validateFns');
    const form = await buildFormModule(name);
    expect(Object.keys(form.validateFns).length).toBeGreaterThan(0);
    // The precompiled code answers as the runtime compiler does, on empty data and on its errors.
    const runtime = createAjv().compile(schema);
    const empty = validateWith(form, {});
    expect(empty.valid).toBe(runtime({}));
    expect(empty.errors.map((e) => `${e.instancePath} ${e.keyword}`).sort()).toEqual((runtime.errors ?? []).map((e) => `${e.instancePath} ${e.keyword}`).sort());
  });
});

describe('API schemas compile in the server ajv', () => {
  const { ajv, set } = createServerValidation();
  it.each(files.filter((f) => f.kind === 'api').map((f) => [f.file, f] as const))('%s', (_file, { schema }) => {
    expect(set.api[schema.$id as string]).toBeDefined();
    expect(typeof ajv.getSchema(schema.$id as string)).toBe('function');
    for (const form of (schema['x-forms'] as string[] | undefined) ?? []) expect(typeof ajv.getSchema(`form.${form}.json`), form).toBe('function');
  });
});

describe('x-normalise', () => {
  it('names only normalisers src/shared/normalise.ts has, in every schema (x-canonical too)', () => {
    const unknown: string[] = [];
    for (const { file, schema } of files) {
      walkNodes(schema, (node) => {
        for (const key of ['x-normalise', 'x-canonical']) {
          for (const name of (node[key] as string[] | undefined) ?? []) if (!(name in normalisers)) unknown.push(`${file}: ${key} ${name}`);
        }
      });
    }
    expect(unknown).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// UI schemas

interface UiProblem {
  at: string;
  problem: string;
}

const registeredWidgets = { ...getDefaultRegistry().widgets, ...engineWidgets };

function checkUi(root: JsonObject, schemaNode: unknown, ui: JsonObject, at: string, problems: UiProblem[]) {
  const node = deref(root, schemaNode) ?? {};
  const props = propertiesOf(root, node);
  const widget = ui['ui:widget'];
  if (typeof widget === 'string' && !hasWidget(node as RJSFSchema, widget, registeredWidgets)) {
    problems.push({ at, problem: `ui:widget "${widget}" is not a registered widget for this field` });
  }
  const options = isObject(ui['ui:options']) ? ui['ui:options'] : {};
  // Normalisers and option lists belong to the field's schema node (x-normalise, x-master).
  for (const moved of ['normalise', 'normaliseOnBlur', 'trimOnBlur', 'master']) {
    if (moved in options) problems.push({ at, problem: `ui:options.${moved}: say it in the schema (x-normalise / x-master)` });
  }
  const order = ui['ui:order'];
  if (Array.isArray(order)) {
    for (const entry of order) if (entry !== '*' && !(entry in props)) problems.push({ at, problem: `ui:order names "${entry}", not a property` });
    if (!order.includes('*')) for (const prop of Object.keys(props)) if (!order.includes(prop)) problems.push({ at, problem: `ui:order misses "${prop}" and has no "*"` });
  }
  for (const [key, value] of Object.entries(ui)) {
    if (key.startsWith('ui:')) continue;
    const where = at ? `${at}.${key}` : key;
    let child: unknown;
    if (key === 'items' && node.items !== undefined) child = node.items;
    else if (key === 'additionalProperties' && isObject(node.additionalProperties)) child = node.additionalProperties;
    else if (key in props) child = props[key];
    else {
      problems.push({ at: where, problem: 'names no property of the form schema' });
      continue;
    }
    if (isObject(value)) checkUi(root, child, value, where, problems);
    else problems.push({ at: where, problem: 'a UI schema entry must be an object' });
  }
}

describe.each(forms)('UI schema of form %s', (name) => {
  it('names only properties of the form schema (recursively), registered widgets and known normalisers', () => {
    const { schema, uiSchema } = loadBundledForm(name);
    const problems: UiProblem[] = [];
    checkUi(schema, schema, uiSchema, '', problems);
    expect(problems).toEqual([]);
  });
  it('ui:view (the info view\'s rows) is on a member-record form and names only fields it stores', () => {
    const { schema, uiSchema } = loadBundledForm(name);
    const specs = viewSpecs(uiSchema);
    if (specs.length === 0) return;
    expect(isRecordForm(schema)).toBe(true);
    const stored = new Set(memberRecord({ [name]: { schema, uiSchema } }).of(name).map(([, field]) => field.name));
    expect(specs.flatMap(namedBy).filter((field) => !stored.has(field))).toEqual([]);
    for (const spec of specs) expect(spec.field ?? spec.title, JSON.stringify(spec)).toBeTruthy();
  });
});

// ---------------------------------------------------------------------------------------------
// Every rule has a Japanese message

interface MessageProblem {
  file: string;
  at: string;
  problem: string;
}

function japaneseLeaves(value: unknown, at: string, out: MessageProblem[], file: string) {
  if (typeof value === 'string') {
    if (!JAPANESE.test(value)) out.push({ file, at, problem: `message "${value}" is not Japanese` });
  } else if (Array.isArray(value)) value.forEach((v, i) => japaneseLeaves(v, `${at}/${i}`, out, file));
  else if (isObject(value)) for (const [k, v] of Object.entries(value)) japaneseLeaves(v, `${at}/${k}`, out, file);
  else out.push({ file, at, problem: `errorMessage entry of type ${typeof value}` });
}

/** The keywords of `node` that can fail on their own (boolean-false sub-schemas included). */
function failingKeywords(node: JsonObject): string[] {
  return Object.keys(node).filter(
    (k) =>
      ASSERTIONS.has(k) ||
      (['additionalProperties', 'unevaluatedProperties', 'additionalItems', 'unevaluatedItems', 'items'].includes(k) && node[k] === false) ||
      (k === 'dependencies' && isObject(node[k]) && Object.values(node[k]).some(Array.isArray)),
  );
}

function hasMessage(node: JsonObject, keyword: string, parentMessage: unknown): boolean {
  if (typeof parentMessage === 'string') return true;
  const em = node.errorMessage;
  if (typeof em === 'string') return true;
  if (!isObject(em)) return false;
  if (typeof em._ === 'string') return true;
  const message = em[errorKeyword(keyword)];
  if (typeof message === 'string') return true;
  if (keyword === 'required' && isObject(message)) {
    return (node.required as string[]).every((prop) => typeof message[prop] === 'string');
  }
  if (keyword === 'dependencies' && isObject(message)) return true;
  return false;
}

function messageProblems({ kind, file, schema }: SchemaFile): MessageProblem[] {
  const problems: MessageProblem[] = [];
  walkSchema(
    schema,
    ({ node, pointer, parentMessage }) => {
      for (const key of Object.keys(node)) {
        if (!ASSERTIONS.has(key) && !APPLICATORS.has(key) && !ANNOTATIONS.has(key)) {
          problems.push({ file, at: pointer, problem: `unknown keyword "${key}" (a typo? ajv runs with strict: false; else classify it in tests/support/schema-walk.ts)` });
        }
      }
      for (const keyword of failingKeywords(node)) {
        // rjsf always validates an object for an object form, so a form's root `type` cannot fail.
        if (kind === 'form' && pointer === '#' && keyword === 'type' && node.type === 'object') continue;
        if (!hasMessage(node, keyword, parentMessage)) problems.push({ file, at: pointer, problem: `"${keyword}" has no errorMessage` });
      }
      if ('required' in node && isObject(node.errorMessage) && isObject(node.errorMessage.required)) {
        for (const prop of Object.keys(node.errorMessage.required)) {
          if (!(node.required as string[]).includes(prop)) problems.push({ file, at: pointer, problem: `errorMessage.required.${prop} for a property that is not required` });
        }
      }
      const em = node.errorMessage;
      if (em === undefined) return;
      japaneseLeaves(em, `${pointer}/errorMessage`, problems, file);
      if (isObject(em)) {
        const present = new Set([...failingKeywords(node), ...Object.keys(node)].map(errorKeyword));
        for (const key of Object.keys(em)) {
          if (key === '_' || key === 'properties' || key === 'items') continue;
          if (!present.has(key)) problems.push({ file, at: pointer, problem: `errorMessage.${key} but the node has no "${key}" keyword (it would never show)` });
        }
      }
    },
    (pointer, value) => {
      if (value === false) problems.push({ file, at: pointer, problem: 'a false schema cannot carry an errorMessage' });
    },
  );
  return problems;
}

describe.each(preparedFiles.map((f) => [f.file, f] as const))('messages of %s', (_file, schemaFile) => {
  it('every keyword that can fail has a Japanese errorMessage, and every errorMessage is used', () => {
    expect(messageProblems(schemaFile)).toEqual([]);
  });
});

describe('the message check itself', () => {
  const check = (schema: JsonObject, kind: SchemaFile['kind'] = 'shared') => messageProblems({ kind, file: 't.json', schema }).map((p) => p.problem);
  it('flags a keyword without a message, an English message and a stale one', () => {
    expect(check({ type: 'string', maxLength: 3, errorMessage: { type: '文字列', minLength: '短い' } })).toEqual([
      '"maxLength" has no errorMessage',
      'errorMessage.minLength but the node has no "minLength" keyword (it would never show)',
    ]);
    expect(check({ type: 'string', errorMessage: { type: 'must be string' } })).toEqual(['message "must be string" is not Japanese']);
  });
  it('accepts a string, a `_` fallback, and per-property required messages; flags a missing one', () => {
    expect(check({ type: 'string', pattern: 'x', errorMessage: '不正です' })).toEqual([]);
    expect(check({ type: 'string', pattern: 'x', errorMessage: { _: '不正です' } })).toEqual([]);
    expect(check({ type: 'object', required: ['a', 'b'], properties: {}, errorMessage: { type: '形式', required: { a: '必須' } } })).toEqual(['"required" has no errorMessage']);
  });
  it('walks nested nodes and flags unknown keywords', () => {
    expect(check({ $defs: { x: { type: 'object', properties: { y: { minimum: 1 } }, errorMessage: { type: '形式' } } } })).toEqual(['"minimum" has no errorMessage']);
    expect(check({ maxLenght: 3 })).toEqual(['unknown keyword "maxLenght" (a typo? ajv runs with strict: false; else classify it in tests/support/schema-walk.ts)']);
  });
});

// ---------------------------------------------------------------------------------------------
// Invalid data never yields a message without Japanese

const JUNK: unknown[] = [
  null, 0, -1, 1.5, 12345, true, false, '', ' ', 'abc', '1234', '123456', '１２３４５', 'a@b', '😀',
  'x'.repeat(300), 'x'.repeat(10_001), [], ['a'], [1, 1], {}, { a: 1 },
];

/** {} plus, for every property (recursively), that property set to each junk value. */
function invalidSamples(root: JsonObject, node: unknown, depth = 0): unknown[] {
  const props = propertiesOf(root, node);
  const samples: unknown[] = [{}];
  for (const [name, sub] of Object.entries(props)) {
    for (const junk of JUNK) samples.push({ [name]: junk });
    if (depth < 3 && Object.keys(propertiesOf(root, sub)).length > 0) {
      for (const inner of invalidSamples(root, sub, depth + 1)) samples.push({ [name]: inner });
    }
    const items = deref(root, sub)?.items;
    if (isObject(items) && depth < 3) for (const inner of [...JUNK, ...invalidSamples(root, items, depth + 1)]) samples.push({ [name]: [inner] });
  }
  return samples;
}

function messagesOf(errors: ErrorObject[], fallback: string): string[] {
  return Object.values(toFieldErrors(errors, fallback)).flat();
}

describe.each(forms)('invalid data through form %s', (name) => {
  let form: FormModule;
  let runtime: ValidateFunction;
  let samples: unknown[];
  beforeAll(async () => {
    form = await buildFormModule(name);
    runtime = createAjv().compile(form.schema);
    samples = invalidSamples(form.schema as JsonObject, form.schema);
  });

  it('every error has a Japanese schema message, and an invalid verdict always shows one', () => {
    const problems: Array<{ data: unknown; messages?: string[]; problem: string }> = [];
    for (const data of samples) {
      const { valid, errors } = validateWith(form, data);
      const withFallback = messagesOf(errors, FALLBACK);
      const strict = messagesOf(errors, NO_SCHEMA_MESSAGE);
      if (withFallback.some((m) => !JAPANESE.test(m))) problems.push({ data, messages: withFallback, problem: 'message without Japanese' });
      if (strict.includes(NO_SCHEMA_MESSAGE)) {
        const raw = errors.filter((e) => e.keyword !== 'errorMessage' && errorPaths(e).length > 0).map((e) => `${e.instancePath} ${e.keyword}`);
        problems.push({ data, messages: raw, problem: 'error without a schema message' });
      }
      if (!valid && withFallback.length === 0) problems.push({ data, problem: 'invalid, but no field message' });
    }
    expect(samples.length).toBeGreaterThan(1);
    expect(problems).toEqual([]);
  });

  it('the precompiled validator and the runtime ajv agree (verdict and field messages)', () => {
    for (const data of samples) {
      const { valid, errors } = validateWith(form, data);
      const runtimeValid = runtime(data);
      expect(valid, JSON.stringify(data)).toBe(runtimeValid);
      expect(toFieldErrors(errors, FALLBACK), JSON.stringify(data)).toEqual(toFieldErrors(runtime.errors, FALLBACK));
    }
  });
});

describe('invalid data through the API schemas', () => {
  const { ajv, set } = createServerValidation();
  it.each(Object.keys(set.api))('%s: every error has a Japanese schema message', (id) => {
    const validate = ajv.getSchema(id)!;
    const bundled = set.api[id];
    const samples = [null, 'x', 42, [], true, ...invalidSamples(bundled, bundled)];
    const problems: Array<{ data: unknown; messages: string[] }> = [];
    for (const data of samples) {
      const valid = validate(data);
      const strict = messagesOf(validate.errors ?? [], NO_SCHEMA_MESSAGE);
      if (strict.some((m) => !JAPANESE.test(m)) || (!valid && strict.length === 0)) problems.push({ data, messages: strict });
    }
    expect(problems).toEqual([]);
  });
});
