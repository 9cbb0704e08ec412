// What counts as the member's input: a form's preset defaults (gender, job, industry, mail
// preference) are not, so a page warns before leaving only when the member changed something.
import { describe, expect, it } from 'vitest';
import * as profileForm from 'virtual:form/register-profile';
import { differsFromDefaults, formDefaults, type FormModule } from '../../src/engine/SchemaForm';

const form = profileForm as FormModule;

describe('differsFromDefaults', () => {
  it('the defaults as the form fills them in are no input', () => {
    const defaults = formDefaults(form);
    expect(Object.keys(defaults).length).toBeGreaterThan(0);
    expect(differsFromDefaults(form, defaults)).toBe(false);
    expect(differsFromDefaults(form, {})).toBe(false);
    // What rjsf hands the screen before anything was typed: the defaults and empty fields.
    expect(differsFromDefaults(form, { ...defaults, purpose: [], last_name_kanji: '' })).toBe(false);
  });

  it('a typed field or a changed preset is input', () => {
    const defaults = formDefaults(form);
    expect(differsFromDefaults(form, { ...defaults, last_name_kanji: 'x' })).toBe(true);
    const [preset, value] = Object.entries(defaults).find(([, v]) => typeof v === 'string')!;
    expect(differsFromDefaults(form, { ...defaults, [preset]: `${String(value)}0` })).toBe(true);
  });
});
