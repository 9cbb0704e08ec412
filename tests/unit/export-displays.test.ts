// The CSV works out only the columns it was asked for (fieldDisplaysOf with names), and each of
// those texts is the one the full record gives: the choice with its "other" text, the phone and
// postal code in their display forms.
import { describe, expect, it } from 'vitest';
import demoProfile from '../../src/server/demo-profile.json';
import type { User } from '../../src/server/db/types';
import { fieldDisplaysOf } from '../../src/server/admin/services/member-fields';
import { memberStore } from '../../src/server/member-store';
import { loadSchemaSet } from '../../src/shared/validation/schema-files';

const set = loadSchemaSet();

describe('the export works out only the columns it was asked for', () => {
  const fields = memberStore(set).record.fields.map((field) => field.name);
  // Purpose 99 is 「その他」: its text is shown beside the choice.
  const user = { ...demoProfile, purpose: '1,99', purpose_other: '畑仕事', attributes: '{}' } as unknown as User;
  const masters = {};
  const full = fieldDisplaysOf(set, masters)(user);

  it.each([[['phone', 'zip_current']], [['purpose']], [['purpose_other', 'last_name_kanji']], [fields]])('%j: the same texts as the full record, and no others', (names) => {
    const some = fieldDisplaysOf(set, masters, names)(user);
    expect(Object.keys(some).sort()).toEqual(names.filter((name) => name in full).sort());
    for (const name of names) expect(some[name]).toBe(full[name]);
  });

  it('a choice keeps the "other" text it brings in, asked for alone', () => {
    expect(fieldDisplaysOf(set, masters, ['purpose'])(user).purpose).toContain('畑仕事');
  });

  it('the display forms are kept (leading 0 and hyphens)', () => {
    const some = fieldDisplaysOf(set, masters, ['phone', 'zip_current'])(user);
    expect(some).toEqual({ phone: '03-1234-5678', zip_current: '100-0001' });
  });
});
