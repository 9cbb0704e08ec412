// @vitest-environment jsdom
// In the client bundle a form with an array gets the engine's stand-in for rjsf's ArrayField
// (src/engine/MultipleChoiceArrayField.tsx, ADR 029), which renders arrays of choices ticked in one
// named widget only, rjsf's ArrayAsCustomWidget path. That is right while every array of every
// form takes that path, and while the stand-in renders and changes them as rjsf's ArrayField
// does: both held here, against rjsf itself (the tests run with rjsf's whole registry).
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render } from '@testing-library/react';
import { forms } from 'virtual:form-index';
import options from '../../schemas/masters/options.json';
import { sampleData } from '../../src/shared/sample-data';
import type { JsonObject } from '../../src/shared/validation/schema-bundle';
import type { FormModule } from '../../src/engine/SchemaForm';
import MultipleChoiceArrayField from '../../src/engine/MultipleChoiceArrayField';
import { formParts } from '../../tools/form-parts';
import { FormHarness } from '../support/form-harness';
import { expectConsoleError } from '../support/fail-on-console-error';
import Form from '@rjsf/core';
import validator from '@rjsf/validator-ajv8';
import { isMultiSelect, type RJSFSchema, type WidgetProps } from '@rjsf/utils';

afterEach(cleanup);

const { $comment: _comment, ...MASTERS } = options;
const COLUMNS = [
  { value: 'email', label: 'メールアドレス' },
  { value: 'last_name_kanji', label: '姓' },
  { value: 'register_number', label: '受付番号' },
];
const masters = { ...MASTERS, memberExportColumns: COLUMNS } as Record<string, { value: string; label: string }[]>;

function* walk(value: unknown, path = ''): Generator<[string, string, unknown]> {
  if (!value || typeof value !== 'object') return;
  for (const [key, child] of Object.entries(value)) {
    yield [path, key, child];
    yield* walk(child, `${path}/${key}`);
  }
}

/** A form's schema and UI schema, as its module has them (schemas/ bundled). */
const modules = Object.fromEntries(await Promise.all(Object.keys(forms).map(async (name) => [name, (await forms[name]()) as unknown as { schema: JsonObject; uiSchema: JsonObject }] as const)));
const loadBundledForm = (name: string) => modules[name];
const withArrays = Object.keys(forms).filter((name) => formParts(loadBundledForm(name).schema, loadBundledForm(name).uiSchema).arrays);

/** Every array field of a form (a property whose schema, $ref resolved, is an array), by name. */
function arrayFields(name: string): [string, JsonObject][] {
  const { schema } = loadBundledForm(name);
  const defs = (schema.$defs ?? {}) as Record<string, JsonObject>;
  const resolve = (node: JsonObject): JsonObject => (typeof node.$ref === 'string' ? { ...resolve(defs[node.$ref.replace('#/$defs/', '')]), ...node } : node);
  return [...walk(schema)]
    .filter(([path, key, value]) => key === 'properties' && value && typeof value === 'object' && !/\/(not|if)(\/|$)/.test(path))
    .flatMap(([, , properties]) => Object.entries(properties as Record<string, JsonObject>).map(([field, node]) => [field, resolve(node)] as [string, JsonObject]))
    .filter(([, node]) => node.type === 'array' || 'items' in node);
}

describe('the forms’ arrays', () => {
  it('are in the registration, edit and export forms (so the checks below have teeth)', () => {
    expect(withArrays).toEqual(expect.arrayContaining(['register-profile', 'edit-profile', 'admin-member-export']));
  });

  it.each(withArrays)('form %s: each is a list of unique choices of strings, ticked in a widget its UI schema names', (name) => {
    const { schema, uiSchema } = loadBundledForm(name);
    const defs = (schema.$defs ?? {}) as Record<string, JsonObject>;
    const fields = arrayFields(name);
    expect(fields.length).toBeGreaterThan(0);
    for (const [field, node] of fields) {
      expect(node.type, field).toBe('array');
      expect(node.uniqueItems, field).toBe(true);
      const items = node.items as JsonObject;
      const resolved = typeof items.$ref === 'string' ? { ...defs[items.$ref.replace('#/$defs/', '')], ...items } : items;
      expect(resolved.type, field).toBe('string');
      expect(typeof (uiSchema[field] as JsonObject | undefined)?.['ui:widget'], field).toBe('string');
      // not rjsf's multiple choice of an enum (its ArrayAsMultiSelect, which the stand-in is not)
      expect(isMultiSelect(validator, node as RJSFSchema, schema as RJSFSchema), field).toBe(false);
    }
    // and nowhere else: every array node of the schema (outside what only the validator reads)
    // belongs to one of these fields
    const arrayNodes = [...walk(schema)].filter(([path, key, value]) => key === 'type' && value === 'array' && !/\/(not|if)(\/|$)/.test(path));
    expect(arrayNodes.length).toBeLessThanOrEqual(fields.length);
  });
});

async function run(name: string, standIn: boolean) {
  const module = await forms[name]();
  // Each widget records what an array field hands it (`multiple`): every prop but the registry,
  // functions as their names.
  const handed: unknown[] = [];
  const recorded = Object.fromEntries(
    Object.entries(module.widgets ?? {}).map(([key, Widget]) => [
      key,
      (props: WidgetProps) => {
        if (props.multiple) handed.push(Object.entries(props).filter(([prop]) => prop !== 'registry').map(([prop, value]) => [prop, typeof value === 'function' ? 'function' : value]));
        return <Widget {...props} />;
      },
    ]),
  );
  const form: FormModule = { ...module, widgets: recorded, fields: standIn ? { ...module.fields, ArrayField: MultipleChoiceArrayField } : module.fields };
  const { schema, uiSchema } = module as unknown as { schema: JsonObject; uiSchema: JsonObject };
  const masterOf = (field: string) => ((uiSchema[field] as JsonObject | undefined)?.['ui:options'] as { master?: string } | undefined)?.master;
  const changes: unknown[] = [];
  const { container } = render(<FormHarness form={form} initial={sampleData(schema, { masters, masterOf })} masters={masters} showErrorsOnOpen onData={(data) => changes.push(data)} />);
  const seen = [container.innerHTML];
  for (const [field] of arrayFields(name)) {
    const boxes = () => [...container.querySelectorAll<HTMLInputElement>(`input[type="checkbox"][id^="root_${field}"]`)];
    expect(boxes().length, field).toBeGreaterThan(1);
    for (const pick of [0, boxes().length - 1, 0]) {
      fireEvent.click(boxes()[pick]);
      seen.push(container.innerHTML);
    }
  }
  const html = seen.join('\n');
  cleanup();
  return { html, changes, handed };
}

describe.each(withArrays)('form %s with the stand-in', (name) => {
  it('renders, and changes on ticking and unticking, as with rjsf’s ArrayField', async () => {
    const real = await run(name, false);
    const standIn = await run(name, true);
    expect(real.changes.length).toBeGreaterThan(0);
    expect(standIn.changes).toEqual(real.changes);
    expect(standIn.html).toEqual(real.html);
    expect(real.handed.length).toBeGreaterThan(0);
    expect(standIn.handed).toEqual(real.handed);
  });
});

describe('the stand-in', () => {
  it.each([
    ['a list of rows', { type: 'array', items: { type: 'string' } }, {}],
    ['an enum multiple choice', { type: 'array', uniqueItems: true, items: { type: 'string', enum: ['a', 'b'] } }, { 'ui:widget': 'master-checkboxes' }],
  ])('refuses %s', (_, list, ui) => {
    expectConsoleError();
    const schema = { type: 'object', properties: { list } } as RJSFSchema;
    expect(() => render(<Form schema={schema} uiSchema={{ list: ui }} validator={validator} fields={{ ArrayField: MultipleChoiceArrayField }} />)).toThrow(/arrays of choices ticked in a named widget only/);
  });
});
