// npm run impact judges what a product owner can change in JSON beyond a field's own rule: an
// option taken off its list (the members who chose it, under MASTER_UNKNOWN's message), a list
// stored empty apart from one with too few items (required vs minItems), and a rule on a field
// the member cannot change on the edit form (the birthday: reported as needing a data
// migration). SQLite only: the reading is tests/api/impact.test.ts's, on both databases.
import { afterAll, describe, expect, it } from 'vitest';
import apiMessages from '../../messages/ja.json';
import texts from '../../messages/impact.ja.json';
import { EXIT, runImpact, type StoredData } from '../../src/server/impact/cli';
import type { Output } from '../../src/server/operator/output';
import type { ImpactReport } from '../../src/shared/impact';
import type { JsonObject } from '../../src/shared/validation/schema-bundle';
import { Harness, setUpOrFail } from '../support/api-harness';
import { copySchemas } from '../support/edited-schemas';

const copy = copySchemas();
copy.edit('masters/options.json', (json) => (json.purpose = (json.purpose as Array<{ value: string }>).filter((o) => o.value !== '1')));
copy.edit('forms/edit-profile.schema.json', (json) => {
  const props = json.properties as Record<string, JsonObject>;
  props.purpose = { ...props.purpose, minItems: 2 };
  props.birthday = { ...props.birthday, maxDate: 'today-18y' };
});
afterAll(() => copy.remove());

describe('npm run impact: removed options, empty and short lists, fields only a migration can change', () => {
  let h: Harness;
  const stored = (): StoredData => ({ db: h.db, description: 'sqlite', close: async () => {} });
  setUpOrFail(async () => {
    h = await Harness.start('sqlite');
    await h.createMember(undefined, undefined, { purpose: '1,3' }); // an option the copy removes
    await h.createMember(undefined, undefined, { purpose: '' }); // none stored
    await h.createMember(undefined, undefined, { purpose: '3' }); // one, where the copy asks for two
    await h.createMember(undefined, undefined, { purpose: '3,4', birthday: '2020-01-01' }); // too young under the copy
  });
  afterAll(async () => h?.close());

  it('counts each apart, with its own rule and message, and says which field needs a migration', async () => {
    const lines: string[] = [];
    const output: Output = { out: (line: string) => lines.push(line), err: (line: string) => lines.push(line) };
    const code = await runImpact(['--schemas', copy.schemasDir, '--form', 'edit-profile', '--json'], output, stored);
    expect(code).toBe(EXIT.refused);
    const report = JSON.parse(lines.join('\n')) as ImpactReport;
    const edit = report.forms.find((f) => f.form === 'edit-profile')!;
    const purpose = edit.fields.find((f) => f.field === 'purpose')!;
    const byKeyword = Object.fromEntries(purpose.rules.map((r) => [r.keyword, { refused: r.refused, message: r.message }]));
    expect(byKeyword.masterUnknown).toEqual({ refused: 1, message: apiMessages.api.MASTER_UNKNOWN });
    expect(byKeyword.required?.refused).toBe(1);
    expect(byKeyword.minItems?.refused).toBe(1);
    expect(purpose.rules.find((r) => r.keyword === 'masterUnknown')).toMatchObject({ value: '1', examples: ['1,3'] });
    expect(purpose.needsMigration).toBeUndefined();

    const birthday = edit.fields.find((f) => f.field === 'birthday')!;
    expect(birthday).toMatchObject({ refused: 1, needsMigration: true });
    expect(birthday.rules.map((r) => r.keyword)).toEqual(['maxDate']);
  });

  it('prints the migration note under the field', async () => {
    const lines: string[] = [];
    const output: Output = { out: (line: string) => lines.push(line), err: (line: string) => lines.push(line) };
    await runImpact(['--schemas', copy.schemasDir, '--form', 'edit-profile'], output, stored);
    const at = lines.findIndex((line) => line.includes('（birthday）'));
    expect(at).toBeGreaterThan(0);
    expect(lines[at + 1]).toBe(texts.migration.replace('{form}', 'edit-profile'));
  });
});
