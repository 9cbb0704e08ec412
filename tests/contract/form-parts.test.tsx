// @vitest-environment jsdom
// A screen's form carries the engine widgets its own form module brings, no others (ADR 029):
// tools/form-parts.ts decides which from the form's UI schema and types, tools/vite-plugin-forms.ts
// imports them. Each form renders here with its module's widgets alone, rjsf's own versions of the
// widgets the engine replaces throwing as they do in the client bundle, so a widget the decision
// missed fails here instead of in a member's browser (tests/contract/client-stand-ins.test.ts
// checks the rjsf parts the client bundle leaves to the engine and the form modules).
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import type { RegistryFieldsType, RegistryWidgetsType } from '@rjsf/utils';
import { forms } from 'virtual:form-index';
import options from '../../schemas/masters/options.json';
import { sampleData } from '../../src/shared/sample-data';
import type { JsonObject } from '../../src/shared/validation/schema-bundle';
import type { FormModule } from '../../src/engine/SchemaForm';
import { REPLACED_RJSF_WIDGETS } from '../../src/engine/widget-names';
import { FormHarness } from '../support/form-harness';
import { expectConsoleError } from '../support/fail-on-console-error';

afterEach(cleanup);

const { $comment: _comment, ...MASTERS } = options;

const thrower = (name: string) => () => {
  throw new Error(`rjsf's ${name} reached, which the client bundle leaves out`);
};
/** rjsf's widgets as the client bundle has them: the ones the engine replaces (the form module
 *  brings the engine's) and the ones no form should reach throw. */
const REPLACED_STAND_INS: RegistryWidgetsType = Object.fromEntries([...REPLACED_RJSF_WIDGETS, 'SelectWidget', 'CheckboxesWidget', 'EmailWidget', 'URLWidget'].map((name) => [name, thrower(name)]));
/** rjsf's fields no form should reach, throwing as in the client bundle. */
const LEFT_OUT_FIELDS: RegistryFieldsType = Object.fromEntries(['NumberField', 'NullField', 'FallbackField', 'CyclicSchemaField', 'OptionalDataControlsField'].map((name) => [name, thrower(name)]));

async function moduleOf(name: string): Promise<FormModule> {
  const module = await forms[name]();
  return { ...module, widgets: { ...REPLACED_STAND_INS, ...module.widgets }, fields: { ...LEFT_OUT_FIELDS, ...module.fields } };
}

function renderWithSample(form: FormModule) {
  const { schema, uiSchema } = form as unknown as { schema: JsonObject; uiSchema: JsonObject };
  const masterOf = (field: string) => ((uiSchema[field] as JsonObject | undefined)?.['ui:options'] as { master?: string } | undefined)?.master;
  const initial = sampleData(schema, { masters: MASTERS, masterOf });
  return render(<FormHarness form={form} initial={initial} masters={MASTERS} />);
}

describe.each(Object.keys(forms))('form %s', (name) => {
  it('renders with the widgets its module brings, and no others', async () => {
    const form = await moduleOf(name);
    const { container } = renderWithSample(form);
    expect(container.querySelector('form.schema-form')).not.toBeNull();
  });
});

describe('the decision has teeth', () => {
  it('the registration form brings most of the engine’s widgets, login’s none but what it reaches', async () => {
    expect(Object.keys((await forms['register-profile']()).widgets).length).toBeGreaterThanOrEqual(8);
    expect(Object.keys((await forms.login()).widgets)).toEqual([]);
    expect(Object.keys((await forms['login-code']()).widgets)).toEqual(['pin']);
  });

  it('a form missing a widget it reaches fails to render', async () => {
    expectConsoleError();
    const form = await moduleOf('register-profile');
    const { 'master-radio': _left, ...widgets } = form.widgets;
    expect(() => renderWithSample({ ...form, widgets })).toThrow();
  });

  it('a form missing the engine’s checkbox meets the throwing stand-in', async () => {
    expectConsoleError();
    const form = await moduleOf('register-terms');
    const { CheckboxWidget: _left, ...widgets } = (await forms['register-terms']()).widgets;
    expect(() => renderWithSample({ ...form, widgets: { ...REPLACED_STAND_INS, ...widgets } })).toThrow(/CheckboxWidget/);
  });
});

