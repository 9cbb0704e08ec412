// A product owner's tightening, made in JSON only on a copy of schemas/ (the pattern of
// edited-schemas.ts): the edit form's purpose_detail minimum raised by 10, the mileage number
// (amc) required on the edit form, and on the contact form the inquiry text's minimum raised by
// 10, the family name limited to one character and the address to 12. Limits are read from the
// files, so the cases stay meaningful after the same edit lands in the real files.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SCHEMAS_DIR } from '../../src/shared/validation/schema-files';
import type { JsonObject } from '../../src/shared/validation/schema-bundle';

export interface TightenedCopy {
  schemasDir: string;
  /** The edit form's purpose_detail minLength before and after. */
  edit: { before: number; after: number };
  /** The contact form's purpose_detail minLength before and after. */
  contact: { before: number; after: number };
  /** The contact form's new family-name and address limits. */
  contactNameMax: number;
  contactEmailMax: number;
  remove(): void;
}

function editJson(file: string, edit: (json: JsonObject) => void) {
  const json = JSON.parse(readFileSync(file, 'utf8')) as JsonObject;
  edit(json);
  writeFileSync(file, JSON.stringify(json, null, 2));
}

const propertiesOf = (json: JsonObject) => json.properties as Record<string, JsonObject>;

export function makeTightenedCopy(): TightenedCopy {
  const root = mkdtempSync(join(tmpdir(), 'tightened-schemas-'));
  const schemasDir = join(root, 'schemas');
  cpSync(SCHEMAS_DIR, schemasDir, { recursive: true });

  const edit = { before: 0, after: 0 };
  editJson(join(schemasDir, 'forms', 'edit-profile.schema.json'), (json) => {
    const node = propertiesOf(json).purpose_detail;
    edit.before = node.minLength as number;
    edit.after = edit.before + 10;
    node.minLength = edit.after;
    if (!(json.required as string[]).includes('amc')) (json.required as string[]).push('amc');
  });

  const contact = { before: 0, after: 0 };
  const contactNameMax = 1;
  const contactEmailMax = 12;
  editJson(join(schemasDir, 'forms', 'contact.schema.json'), (json) => {
    const properties = propertiesOf(json);
    contact.before = properties.purpose_detail.minLength as number;
    contact.after = contact.before + 10;
    properties.purpose_detail.minLength = contact.after;
    properties.last_name_kanji = { ...properties.last_name_kanji, maxLength: contactNameMax, errorMessage: { maxLength: '姓は{limit}文字以内で入力してください' } };
    properties.email = { ...properties.email, maxLength: contactEmailMax, errorMessage: { maxLength: 'メールアドレスは{limit}文字以内で入力してください' } };
  });
  return { schemasDir, edit, contact, contactNameMax, contactEmailMax, remove: () => rmSync(root, { recursive: true, force: true }) };
}
