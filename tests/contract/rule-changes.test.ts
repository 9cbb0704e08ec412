// The contract a product owner relies on: a rule changed in JSON only keeps the tests green, and
// the tests still check it. Each kind of change README's "How to change a rule" allows is made
// on a copy of schemas/ (and messages/), and the registration rules (tests/support/
// registration-rules-suite.ts) and registration, member info and edit through the API on SQLite
// (tests/support/profile-api-suite.ts) run on it, every case made from that copy. A change the
// tests cannot follow fails one named test that says what to do in the JSON (last block).
import { afterAll, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/shared/validation/schema-bundle';
import { loadMasterLists, loadSchemaSet } from '../../src/shared/validation/schema-files';
import { createAjv } from '../../src/shared/validation/ajv-setup';
import { toFieldErrors } from '../../src/shared/validation/field-errors';
import { copySchemas, type SchemasCopy } from '../support/edited-schemas';
import { registrationRules } from '../support/registration-rules-suite';
import { profileApiSuite, type ApiSuiteOptions } from '../support/profile-api-suite';
import { rulesOf, schemaSet } from '../support/schema-messages';
import { asLeft, FormSamples } from '../support/schema-samples';

/** The two forms that write the member's profile. */
const PROFILE_FORMS = ['register-profile', 'edit-profile'] as const;

type Options = Array<{ value: string; label: string }>;
const props = (json: JsonObject) => json.properties as Record<string, JsonObject>;

/** `field` placed after `after` in a UI schema's ui:order and in the ui:sections entry that has `after`. */
function placeAfter(ui: JsonObject, after: string, field: string, entry: JsonObject) {
  const lists = [ui['ui:order'], ...((ui['ui:sections'] as Array<{ fields: string[] }> | undefined) ?? []).map((s) => s.fields)];
  for (const list of lists) if (Array.isArray(list) && list.includes(after)) list.splice(list.indexOf(after) + 1, 0, field);
  ui[field] = entry;
}

interface Variant {
  name: string;
  edit(copy: SchemasCopy): void;
  /** The change is in the copy as the tests read it. */
  holds(dir: string): void;
  api?: ApiSuiteOptions;
}

const VARIANTS: Variant[] = [
  {
    name: 'an optional field made required (amc, at registration and on edit)',
    edit: (copy) => PROFILE_FORMS.forEach((form) => copy.edit(`forms/${form}.schema.json`, (json) => (json.required = [...new Set([...(json.required as string[]), 'amc'])]))),
    holds: (dir) => PROFILE_FORMS.forEach((form) => expect(rulesOf(form, dir).isRequired('amc')).toBe(true)),
  },
  {
    name: 'a required field made optional (address_current)',
    edit: (copy) => PROFILE_FORMS.forEach((form) => copy.edit(`forms/${form}.schema.json`, (json) => (json.required = (json.required as string[]).filter((f) => f !== 'address_current')))),
    holds: (dir) => PROFILE_FORMS.forEach((form) => expect(rulesOf(form, dir).isRequired('address_current')).toBe(false)),
  },
  {
    name: 'a limit tightened (purpose_detail at registration: minimum + 10)',
    edit: (copy) => copy.edit('forms/register-profile.schema.json', (json) => (props(json).purpose_detail.minLength = (props(json).purpose_detail.minLength as number) + 10)),
    holds: (dir) => expect(rulesOf('register-profile', dir).limit('purpose_detail', 'minLength')).toBe(rulesOf('register-profile').limit('purpose_detail', 'minLength') + 10),
  },
  {
    name: 'a limit loosened (the kanji family name, shared by every form: maximum + 20)',
    edit: (copy) => copy.edit('shared/fields.json', (json) => {
      const def = (json.$defs as Record<string, JsonObject>).kanjiFamilyName;
      def.maxLength = (def.maxLength as number) + 20;
    }),
    holds: (dir) => expect(rulesOf('edit-profile', dir).limit('last_name_kanji', 'maxLength')).toBe(rulesOf('edit-profile').limit('last_name_kanji', 'maxLength') + 20),
  },
  {
    name: 'a new option (a purpose before その他)',
    edit: (copy) => copy.edit('masters/options.json', (json) => {
      const list = json.purpose as Options;
      list.splice(list.length - 1, 0, { value: '50', label: '地域の祭りに参加する（テスト用）' });
    }),
    holds: (dir) => expect(loadMasterLists(dir).purpose.map((o) => o.value)).toContain('50'),
  },
  {
    name: 'a removed option (purpose 1, which the tests\' plausible data used)',
    edit: (copy) => copy.edit('masters/options.json', (json) => (json.purpose = (json.purpose as Options).filter((o) => o.value !== '1'))),
    holds: (dir) => expect(loadMasterLists(dir).purpose.map((o) => o.value)).not.toContain('1'),
    api: { refusedOptions: [{ field: 'purpose', value: '1' }] },
  },
  {
    name: 'a new required multi-select (interests, from a new option list)',
    edit: (copy) => {
      copy.edit('masters/options.json', (json) => {
        json.interest = [
          { value: '1', label: '農業' },
          { value: '2', label: '漁業' },
          { value: '3', label: '子育て' },
          { value: '4', label: '観光' },
        ];
      });
      for (const form of PROFILE_FORMS) {
        copy.edit(`forms/${form}.schema.json`, (json) => {
          props(json).interests = {
            type: 'array',
            title: '関心のある分野',
            minItems: 1,
            maxItems: 3,
            uniqueItems: true,
            items: { type: 'string', errorMessage: { type: '選択してください' } },
            'x-master': 'interest',
            'x-required-message': '関心のある分野を{min}つ以上選択してください',
            errorMessage: { type: '関心のある分野を{min}つ以上選択してください', minItems: '関心のある分野を{min}つ以上選択してください', maxItems: '{max}個まで選択できます', uniqueItems: '同じ分野は1回だけ選択してください' },
          };
          (json.required as string[]).push('interests');
        });
        copy.edit(`forms/${form}.ui.json`, (ui) => placeAfter(ui, 'purpose', 'interests', { 'ui:title': '関心のある分野', 'ui:widget': 'master-checkboxes', 'ui:help': '{min}〜{max}個まで選択できます' }));
      }
    },
    holds: (dir) => PROFILE_FORMS.forEach((form) => expect(rulesOf(form, dir).isRequired('interests')).toBe(true)),
  },
  {
    name: 'a field shown and required only under a condition (the work prefecture, for 会社員 only)',
    edit: (copy) => {
      copy.edit('masters/options.json', (json) => {
        json.work_prefecture = [
          { value: '13', label: '東京都' },
          { value: '27', label: '大阪府' },
          { value: '40', label: '福岡県' },
        ];
      });
      const job = (loadMasterLists(copy.schemasDir).job as Options)[0].value;
      for (const form of PROFILE_FORMS) {
        copy.edit(`forms/${form}.schema.json`, (json) => {
          (json.allOf as JsonObject[]).push({
            if: { properties: { job: { const: job } }, required: ['job'] },
            then: {
              properties: { work_prefecture: { type: 'string', title: '勤務先の都道府県', 'x-master': 'work_prefecture', 'x-required-message': '勤務先の都道府県を選択してください', errorMessage: { type: '勤務先の都道府県を選択してください' } } },
              required: ['work_prefecture'],
            },
          });
        });
        copy.edit(`forms/${form}.ui.json`, (ui) => placeAfter(ui, 'job', 'work_prefecture', { 'ui:title': '勤務先の都道府県', 'ui:widget': 'master-select' }));
      }
    },
    holds: (dir) => PROFILE_FORMS.forEach((form) => expect(Object.keys(new FormSamples(schemaSet(dir).forms[form].schema, {}, () => ({})).bringing)).toContain('work_prefecture')),
  },
];

describe.each(VARIANTS)('$name', (variant) => {
  const copy = copySchemas();
  variant.edit(copy);
  afterAll(() => copy.remove());

  it('the change is in the copy the tests read', () => variant.holds(copy.schemasDir));
  registrationRules(copy.schemasDir);
  profileApiSuite(copy.schemasDir, variant.api);
});

describe('a change the tests cannot follow fails one named test, in words a product owner acts on', () => {
  const copy = copySchemas();
  // A new required field whose pattern no generated text fits, with no example to take.
  copy.edit('forms/register-profile.schema.json', (json) => {
    props(json).member_code = { type: 'string', title: '会員コード', pattern: '^MC-[0-9]{6}$', errorMessage: { pattern: 'MC-と数字6桁で入力してください' }, 'x-required-message': '会員コードを入力してください' };
    (json.required as string[]).push('member_code');
  });
  afterAll(() => copy.remove());

  it('"can be made from the schemas" names the field and the fix', () => {
    const { schema } = schemaSet(copy.schemasDir).forms['register-profile'];
    const validate = createAjv().compile(schema);
    const samples = new FormSamples(schema, loadMasterLists(copy.schemasDir), (data) => (validate(asLeft(schema, data)) ? {} : toFieldErrors(validate.errors ?? [], '')));
    const problems = samples.problems('register-profile');
    expect(problems).toEqual([
      'register-profile: the tests could not make a valid 「会員コード」 (member_code) from its rules (the form says: 会員コードを入力してください). ' +
        'Give the field an "examples" entry the rules accept (schemas/shared/fields.json or the form\'s schema), or loosen the rule.',
    ]);
    // With the example the message asks for, the same change is followed.
    copy.edit('forms/register-profile.schema.json', (json) => (props(json).member_code.examples = ['MC-123456']));
    const fixed = loadSchemaSet(copy.schemasDir).forms['register-profile'].schema;
    const again = createAjv().compile(fixed);
    expect(new FormSamples(fixed, loadMasterLists(copy.schemasDir), (data) => (again(asLeft(fixed, data)) ? {} : toFieldErrors(again.errors ?? [], ''))).problems('register-profile')).toEqual([]);
  });
});
