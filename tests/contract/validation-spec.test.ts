// docs/validation-spec.md is generated from the schemas (npm run spec). CI regenerates it and
// fails on any difference, so a schema change and its spec change arrive in one review; and an
// edit of a limit, a message or a master option in JSON shows in the regenerated spec.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import texts from '../../messages/validation-spec.ja.json';
import { format } from '../../src/shared/format';
import { fillMessage } from '../../src/shared/validation/message-params';
import { SCHEMAS_DIR } from '../../src/shared/validation/schema-files';
import type { JsonObject } from '../../src/shared/validation/schema-bundle';
import { generateValidationSpec, SPEC_FILE } from '../../tools/validation-spec/render';
import { specRow } from '../../tools/validation-spec/read';
import { fieldNodes } from '../../src/shared/validation/schema-nodes';
import { loadBundledForm } from '../../src/shared/validation/schema-files';
import { rulesOf } from '../support/schema-messages';

const bundled = loadBundledForm('register-profile').schema;

const fill = (template: string, values: Record<string, unknown>) => format(template, Object.fromEntries(Object.entries(values).map(([k, v]) => [k, String(v)])));

function editJson(file: string, edit: (json: JsonObject) => void) {
  const json = JSON.parse(readFileSync(file, 'utf8')) as JsonObject;
  edit(json);
  writeFileSync(file, JSON.stringify(json, null, 2));
}

describe('docs/validation-spec.md', () => {
  it('is what `npm run spec` generates from the committed schemas', () => {
    const committed = readFileSync(SPEC_FILE, 'utf8');
    const generated = generateValidationSpec();
    // A plain boolean first, so the failure says what to do rather than dumping two 40 kB texts.
    expect(committed === generated, 'docs/validation-spec.md is out of date with schemas/ or messages/: run `npm run spec` and commit the result').toBe(true);
  });

  it('is the same on every run (no clock, stable order)', () => {
    expect(generateValidationSpec()).toBe(generateValidationSpec());
  });
});

const PLACEHOLDER = '目的を{min}〜{max}文字で入力してください（テスト用）';

describe('the generated spec follows a JSON-only edit', () => {
  let root: string;
  let edited: { minLength: number; maxLength: number; message: string; optionLabel: string; optionValue: string };

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'spec-'));
    cpSync(SCHEMAS_DIR, join(root, 'schemas'), { recursive: true });
    cpSync(join(SCHEMAS_DIR, '..', 'messages'), join(root, 'messages'), { recursive: true });
    editJson(join(root, 'schemas', 'forms', 'register-profile.schema.json'), (json) => {
      const field = (json.properties as Record<string, JsonObject>).purpose_detail;
      field.maxLength = 100;
      (field.errorMessage as JsonObject).maxLength = '{limit}文字までで入力してください（テスト用の文言）';
      edited = { minLength: field.minLength as number, maxLength: field.maxLength as number, message: fillMessage((field.errorMessage as JsonObject).maxLength as string, field, 'maxLength'), optionLabel: '', optionValue: '' };
    });
    // A placeholder that states the limits by parameter (as issue 9 asks of the real ones).
    editJson(join(root, 'schemas', 'forms', 'register-profile.ui.json'), (json) => {
      (json.purpose_detail as JsonObject)['ui:placeholder'] = PLACEHOLDER;
    });
    editJson(join(root, 'schemas', 'masters', 'options.json'), (json) => {
      const option = (json.purpose as Array<{ value: string; label: string }>)[0];
      option.label = 'テスト用の選択肢';
      Object.assign(edited, { optionLabel: option.label, optionValue: option.value });
    });
  });

  afterAll(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('shows the new limit, the new message and the new option; the old ones are gone', () => {
    const before = specRow(generateValidationSpec(), 'register-profile', 'purpose_detail');
    const spec = generateValidationSpec(join(root, 'schemas'));
    const row = specRow(spec, 'register-profile', 'purpose_detail');
    const columns = texts.columns;
    expect(row, 'register-profile has a purpose_detail row').toBeDefined();
    expect(row![columns[4]]).toBe(fill(texts.limits.length, { min: edited.minLength, max: edited.maxLength }));
    expect(edited.message).toBe('100文字までで入力してください（テスト用の文言）');
    expect(row![columns[8]].split('\n')).toContain(fill(texts.message, { keyword: texts.keywords.maxLength, message: edited.message }));
    expect(before![columns[8]]).not.toContain(edited.message);
    expect(before![columns[4]]).not.toBe(row![columns[4]]);

    const placeholder = fillMessage(PLACEHOLDER, { minLength: edited.minLength, maxLength: edited.maxLength });
    expect(placeholder).toContain(`${edited.minLength}〜${edited.maxLength}`);
    expect(row![columns[9]].split('\n')).toContain(fill(texts.uiTexts['ui:placeholder'], { text: placeholder }));

    const purpose = specRow(spec, 'register-profile', 'purpose');
    expect(purpose![columns[7]].split('\n')).toContain(fill(texts.option, { value: edited.optionValue, label: edited.optionLabel }));
    // The edit-profile form draws from the same master, so its spec follows too.
    expect(specRow(spec, 'edit-profile', 'purpose')![columns[7]]).toContain(edited.optionLabel);
  });
});

describe('what the generator writes for a rule', () => {
  const spec = generateValidationSpec();
  const schema = JSON.parse(readFileSync(join(SCHEMAS_DIR, 'forms', 'register-profile.schema.json'), 'utf8')) as JsonObject;
  const ui = JSON.parse(readFileSync(join(SCHEMAS_DIR, 'forms', 'register-profile.ui.json'), 'utf8')) as Record<string, JsonObject>;
  const masters = JSON.parse(readFileSync(join(SCHEMAS_DIR, 'masters', 'options.json'), 'utf8')) as Record<string, Array<{ value: string; label: string }>>;

  it('a field required under an if/then says when, in words, with the option it depends on', () => {
    const branches = (schema.allOf as JsonObject[]).filter((b) => ((b.then as JsonObject).required as string[]).includes('industry_other'));
    expect(branches).toHaveLength(1);
    const [[field, test]] = Object.entries((branches[0].if as JsonObject).properties as Record<string, { const: string }>);
    const master = String(fieldNodes(bundled)[field]['x-master']);
    const option = masters[master].find((o) => o.value === test.const)!;
    const when = fill(texts.conditions.equals, { field: ui[field]['ui:title'], label: option.label, value: test.const });
    expect(specRow(spec, 'register-profile', 'industry_other')![texts.columns[2]]).toBe(fill(texts.required.conditional, { when }));
    const message = rulesOf('register-profile').required('industry_other');
    expect(specRow(spec, 'register-profile', 'industry_other')![texts.columns[8]]).toContain(message);
  });

  it('every form of the catalogue has a section, and every field of it a row', () => {
    const catalogue = JSON.parse(readFileSync(join(SCHEMAS_DIR, 'catalogue.json'), 'utf8')) as { routes: Array<{ title: string; forms: string[] }> };
    for (const route of catalogue.routes) {
      for (const form of route.forms) {
        const formSchema = JSON.parse(readFileSync(join(SCHEMAS_DIR, 'forms', `${form}.schema.json`), 'utf8')) as JsonObject;
        for (const field of Object.keys(formSchema.properties as JsonObject)) expect(specRow(spec, form, field), `${form}.${field}`).toBeDefined();
      }
      if (route.forms.length > 0) expect(spec).toContain(`## ${route.title}`);
    }
  });

  it('a pattern with a backtick still makes one code span', async () => {
    const { code } = await import('../../tools/validation-spec/render');
    expect(code('[!-/:-@\\[-`{-~]')).toBe('``[!-/:-@\\[-`{-~]``');
    expect(code('`x')).toBe('`` `x ``');
  });
});

describe('x-master and x-normalise on the field (where option lists and normalisers are declared)', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'spec-x-'));
    cpSync(SCHEMAS_DIR, join(root, 'schemas'), { recursive: true });
    cpSync(join(SCHEMAS_DIR, '..', 'messages'), join(root, 'messages'), { recursive: true });
    editJson(join(root, 'schemas', 'forms', 'login.schema.json'), (json) => {
      (json.properties as Record<string, JsonObject>).password['x-normalise'] = ['trim', 'toHalfWidth'];
    });
    editJson(join(root, 'schemas', 'forms', 'withdraw.schema.json'), (json) => {
      (json.properties as Record<string, JsonObject>).reason['x-master'] = 'job';
    });
  });
  afterAll(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('the row names the normalisers in words and lists the master’s options', () => {
    const masters = JSON.parse(readFileSync(join(root, 'schemas', 'masters', 'options.json'), 'utf8')) as Record<string, Array<{ value: string; label: string }>>;
    const spec = generateValidationSpec(join(root, 'schemas'));
    expect(specRow(generateValidationSpec(), 'login', 'password')![texts.columns[6]]).toBe(texts.empty);
    expect(specRow(spec, 'login', 'password')![texts.columns[6]].split('\n')).toEqual([texts.normalisers.trim, texts.normalisers.toHalfWidth]);
    expect(specRow(generateValidationSpec(), 'withdraw', 'reason')![texts.columns[7]]).toBe(texts.empty);
    const row = specRow(spec, 'withdraw', 'reason')!;
    for (const option of masters.job) expect(row[texts.columns[7]].split('\n')).toContain(fill(texts.option, option));
  });

  it('an unknown normaliser stops the generator with a message saying where to describe it', () => {
    editJson(join(root, 'schemas', 'forms', 'withdraw.schema.json'), (json) => {
      (json.properties as Record<string, JsonObject>).reason['x-normalise'] = ['noSuchNormaliser'];
    });
    expect(() => generateValidationSpec(join(root, 'schemas'))).toThrow(/noSuchNormaliser.*messages\/validation-spec\.ja\.json/);
  });
});
