// Counting for the impact report, without a database: stored records (in the edit form's shape,
// as GET /v1/user/info and the edit form's wire adapter give them) judged by the server's own
// validators, per field and rule, each record once per rule, with at most two masked examples.
import { afterAll, describe, expect, it } from 'vitest';
import demoProfile from '../../src/server/demo-profile.json';
import { createFormJudge, JUDGED_FORMS, storedSources, type JudgedForm } from '../../src/server/impact/form-judge';
import { createServerValidation } from '../../src/server/validation';
import { wireAdapters } from '../../src/shared/wire';
import { loadSchemaSet } from '../../src/shared/validation/schema-files';
import { japaneseText } from '../support/api-harness';
import { demoGaps, makeTightenedCopy, NO_OPTIONAL_FIELD } from '../support/tightened-schemas';

const copy = makeTightenedCopy();
afterAll(() => copy.remove());
/** The field the copy makes required (amc as shipped), left empty or filled; nothing when none. */
const { required } = copy;
const blank = (): Record<string, unknown> => (required ? { [required.field]: '' } : {});
const filled = (): Record<string, unknown> => (required ? { [required.field]: required.value } : {});
const formOrder = loadSchemaSet().forms['edit-profile'].uiSchema['ui:order'] as string[];
const inFormOrder = (entries: Array<[string, number]>) => entries.sort(([a], [b]) => formOrder.indexOf(a) - formOrder.indexOf(b));

const spec = (form: string): JudgedForm => JUDGED_FORMS.find((f) => f.form === form)!;

/** What the edit form in schemas/ requires that the demo profile stored empty (the mileage
 *  number once a product owner requires it), from the form's own sample. */
const gaps = demoGaps();

/** A member's stored profile as the impact report reads it (the demo profile, valid under schemas/). */
const member = (overrides: Record<string, unknown> = {}) =>
  wireAdapters['api.user-update.json'].fromWire(
    { ...demoProfile, ...gaps, email: 'hanako@example.jp', purpose_detail: japaneseText(40), ...overrides },
    loadSchemaSet().forms['edit-profile'].schema,
  );

function judgeAll(schemasDir: string | undefined, form: string, records: Array<Record<string, unknown>>) {
  const validation = createServerValidation(schemasDir ? loadSchemaSet(schemasDir) : loadSchemaSet());
  const judge = createFormJudge(validation, spec(form));
  for (const record of records) judge.judge(record);
  return judge.result();
}

describe('counting refusals', () => {
  it('the stored profile passes the schemas as shipped', () => {
    const result = judgeAll(undefined, 'edit-profile', [member(blank()), member(filled())]);
    expect(result).toMatchObject({ form: 'edit-profile', records: 'members', judged: 2, refused: 0, fields: [] });
    expect(result.judgedFields).toEqual(expect.arrayContaining(['last_name_kanji', 'purpose', 'purpose_detail', ...(required ? [required.field] : [])]));
  });

  const tightened = () => {
    const { after } = copy.edit;
    return judgeAll(copy.schemasDir, 'edit-profile', [
      member({ ...blank(), purpose_detail: japaneseText(after - 1) }), // both rules
      member({ ...filled(), purpose_detail: japaneseText(after) }), // passes
      member({ ...blank(), purpose_detail: japaneseText(60) }), // the required field only
      member({ ...filled(), purpose_detail: japaneseText(copy.edit.before) }), // minLength only
    ]);
  };

  it('counts each member once per field and rule, in the form’s field order, with the rule, its message and masked examples', () => {
    const { after } = copy.edit;
    const result = tightened();
    expect(result.judged).toBe(4);
    expect(result.refused).toBe(required ? 3 : 2);
    expect(result.fields.map((f) => [f.field, f.refused])).toEqual(inFormOrder([...(required ? [[required.field, 2] as [string, number]] : []), ['purpose_detail', 2]]));
    const detail = result.fields.find((f) => f.field === 'purpose_detail')!;
    expect(detail.rules).toEqual([
      {
        keyword: 'minLength',
        value: after,
        rule: `${after}文字以上`,
        message: `${after}文字以上で入力してください`,
        refused: 2,
        examples: [`週＊＊＊＊＊＊＊＊＊…（${after - 1}文字）`, `週＊＊＊＊＊＊＊＊＊…（${copy.edit.before}文字）`],
      },
    ]);
  });

  it.skipIf(!required)(required ? `counts the field made required (${required.field}) under its label, as 「必須」 with （空欄） as its example` : NO_OPTIONAL_FIELD, () => {
    const field = tightened().fields.find((f) => f.field === required!.field)!;
    expect(field.label).toBe(required!.label);
    expect(field.rules).toEqual([{ keyword: 'required', rule: '必須', message: expect.any(String), refused: 2, examples: ['（空欄）'] }]);
  });

  it('keeps two distinct examples however many members a rule refuses', () => {
    const records = [5, 6, 6, 7, 8].map((short) => member({ ...filled(), purpose_detail: japaneseText(copy.edit.after - short) }));
    const [detail] = judgeAll(copy.schemasDir, 'edit-profile', records).fields;
    expect(detail.refused).toBe(5);
    expect(detail.rules[0].examples).toHaveLength(2);
    expect(new Set(detail.rules[0].examples).size).toBe(2);
  });

  it('counts a list refused item by item once, and shows codes of an option list as they are', () => {
    const [purpose] = judgeAll(undefined, 'edit-profile', [member({ purpose: 'x,y,z' })]).fields;
    expect(purpose.field).toBe('purpose');
    expect(purpose.refused).toBe(1);
    expect(purpose.rules.map((r) => [r.keyword, r.refused, r.examples])).toEqual([['pattern', 1, ['x,y,z']]]);
  });
});

describe('the registration form, on the fields a member has stored', () => {
  it('fills a field from the edit form’s field of the same shared definition, and nothing that is not stored', () => {
    const sources = storedSources(loadSchemaSet(), 'register-profile', 'edit-profile');
    expect(sources.get('last_name_alphabet')).toBe('last_name_alpha');
    expect(sources.get('first_name_alphabet')).toBe('first_name_alpha');
    expect(sources.get('purpose_detail')).toBe('purpose_detail');
    for (const notStored of ['password', 'password_confirm', 'condition_checked']) expect(sources.has(notStored)).toBe(false);
  });

  it('judges the stored fields only: no “password required”, but the roman-letter name under its registration name', () => {
    const result = judgeAll(undefined, 'register-profile', [member(), member({ last_name_alpha: 'Yamada1' })]);
    expect(result.storedFieldsOnly).toBe(true);
    expect(result.judgedFields).not.toContain('password');
    expect(result.refused).toBe(1);
    expect(result.fields.map((f) => f.field)).toEqual(['last_name_alphabet']);
    expect(result.fields[0].rules[0]).toMatchObject({ keyword: 'pattern', refused: 1, examples: ['Y******（7文字）'] });
  });
});

describe('the contact form, on stored inquiries', () => {
  it('masks names, addresses and texts in its examples', () => {
    const inquiry = {
      last_name_kanji: '佐藤',
      first_name_kanji: '次郎',
      email: 'jiro.sato@example.com',
      inquiry_user_type: '2',
      inquiry_type: '1',
      job: '1',
      purpose_detail: japaneseText(copy.contact.after - 1),
    };
    const result = judgeAll(copy.schemasDir, 'contact', [inquiry]);
    expect(result.refused).toBe(1);
    const examples = Object.fromEntries(result.fields.map((f) => [f.field, f.rules[0].examples]));
    expect(examples).toEqual({
      last_name_kanji: ['佐＊（2文字）'],
      email: ['j********@e******.com（21文字）'],
      purpose_detail: [`週＊＊＊＊＊＊＊＊＊…（${copy.contact.after - 1}文字）`],
    });
    const shown = JSON.stringify(result);
    for (const personal of ['佐藤', 'jiro', 'example.com', inquiry.purpose_detail.slice(0, 5)]) expect(shown).not.toContain(personal);
  });
});
