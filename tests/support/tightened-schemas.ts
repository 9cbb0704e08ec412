// A product owner's tightening, made in JSON only on a copy of schemas/ (the pattern of
// edited-schemas.ts): the edit form's purpose_detail minimum raised by 10, an optional field made
// required on the edit form (the mileage number, amc, while it is optional; else another, chosen
// from the schemas), and on the contact form the inquiry text's minimum raised by 10, the family
// name limited to one character and the address to 12. Limits and the field are read from the
// files, so the cases stay meaningful after the same edit lands in the real files.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import demoProfile from '../../src/server/demo-profile.json';
import { sampleData } from '../../src/shared/sample-data';
import { loadMasterLists, loadSchemaSet, SCHEMAS_DIR } from '../../src/shared/validation/schema-files';
import type { JsonObject } from '../../src/shared/validation/schema-bundle';
import { fieldNodes } from '../../src/shared/validation/schema-nodes';

/** The edit form's field the copy makes required: its name, its label and a value it accepts. */
export interface MadeRequired {
  field: string;
  label: string;
  value: string;
}

/** Said (as the skipped cases' title) when schemas/ leaves the copy no field to make required. */
export const NO_OPTIONAL_FIELD =
  'skipped: edit-profile in schemas/ has no optional, editable, unconditional text field that the demo profile (src/server/demo-profile.json) stores empty, so the tightened copy makes no field required; add one or adapt tests/support/tightened-schemas.ts';

const stored = demoProfile as Record<string, unknown>;

/** An optional, editable (not ui:readonly), unconditional string field of the edit form in
 *  `schemasDir` that the demo profile (every test member) may hold empty: amc while it is one,
 *  else the first in the form's order; undefined when there is none. */
export function optionalEditField(schemasDir = SCHEMAS_DIR): MadeRequired | undefined {
  const { schema, uiSchema } = loadSchemaSet(schemasDir).forms['edit-profile'];
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const nodes = fieldNodes(schema);
  const candidates = Object.keys((schema.properties as JsonObject | undefined) ?? {}).filter((name) => {
    const ui = (uiSchema[name] as JsonObject | undefined) ?? {};
    return !required.has(name) && nodes[name]?.type === 'string' && ui['ui:readonly'] !== true && stored[name] === '';
  });
  const field = candidates.includes('amc') ? 'amc' : candidates[0];
  if (field === undefined) return undefined;
  // A value the field accepts once required: its example, else one built from its rules.
  const value = sampleData({ ...schema, required: [...required, field] }, { masters: loadMasterLists(schemasDir) })[field];
  if (typeof value !== 'string' || value === '') throw new Error(`No sample value for edit-profile's ${field}`);
  // Its label as the report shows it: the UI schema's title, else the schema's.
  const title = ((uiSchema[field] as JsonObject | undefined)?.['ui:title'] ?? nodes[field].title) as unknown;
  return { field, label: typeof title === 'string' ? title : field, value };
}

/** What the edit form in `schemasDir` requires (or gives an example for) that the demo profile
 *  stores empty, with a value from the form's own sample, in the stored shape: spread into a
 *  test member's profile so it passes the schemas as they are (the mileage number once a product
 *  owner requires it). */
export function demoGaps(schemasDir = SCHEMAS_DIR): Record<string, string> {
  const schema = loadSchemaSet(schemasDir).forms['edit-profile'].schema;
  return Object.fromEntries(
    Object.entries(sampleData(schema, { masters: loadMasterLists(schemasDir) }))
      .filter(([field]) => stored[field] === '')
      .map(([field, value]) => [field, Array.isArray(value) ? value.join(',') : String(value)]),
  );
}

export interface TightenedCopy {
  schemasDir: string;
  /** The edit form's purpose_detail minLength before and after. */
  edit: { before: number; after: number };
  /** The contact form's purpose_detail minLength before and after. */
  contact: { before: number; after: number };
  /** The contact form's new family-name and address limits. */
  contactNameMax: number;
  contactEmailMax: number;
  /** The edit form's field made required (optionalEditField), or undefined when there was none. */
  required: MadeRequired | undefined;
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

  const required = optionalEditField();
  const edit = { before: 0, after: 0 };
  editJson(join(schemasDir, 'forms', 'edit-profile.schema.json'), (json) => {
    const node = propertiesOf(json).purpose_detail;
    edit.before = node.minLength as number;
    edit.after = edit.before + 10;
    node.minLength = edit.after;
    if (required) (json.required as string[]).push(required.field);
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
  return { schemasDir, edit, contact, contactNameMax, contactEmailMax, required, remove: () => rmSync(root, { recursive: true, force: true }) };
}
