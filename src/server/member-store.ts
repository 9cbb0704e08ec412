// The member record (src/shared/member-record.ts) in the users table: a field with a column of
// its own (PROFILE_COLUMNS, as the migrations made them) is stored there, as text (a list as its
// comma-joined codes, an empty field as ''); every other field in users.attributes, one JSON
// object holding the values as the form validated them (an empty field has no key). Only data a
// form's schema has accepted is written (docs/decisions/020).
import { memberRecord, toWireValue, type MemberField, type MemberRecord, type WireValue } from '../shared/member-record';
import type { SchemaSet } from '../shared/validation/schema-files';
import type { JsonObject } from '../shared/validation/schema-bundle';
import { PROFILE_COLUMNS } from './db/migrations';
import type { User } from './db/types';

const COLUMNS: ReadonlySet<string> = new Set(PROFILE_COLUMNS);

/** Column name → text, and `attributes` as JSON text. */
export type StoredValues = Record<string, string>;

export interface MemberStore {
  record: MemberRecord;
  /** A new member's record from form `form`'s validated data. */
  insertValues(form: string, data: Record<string, unknown>): StoredValues;
  /** What saving form `form`'s validated data over `current` sets: each field the form lets the
   *  member change takes its value, and a field left empty (not given) is cleared. The form's
   *  read-only fields (ui:readonly, the birthday) and fields it does not have stay as they are. */
  updateValues(form: string, data: Record<string, unknown>, current: User): StoredValues;
  /** The saved record: each field's value as it travels (GET /v1/user/info), by stored name. */
  saved(row: User): Record<string, WireValue | undefined>;
}

const isEmpty = (value: unknown) => value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

/** users.attributes as an object (anything unreadable as none). */
export function attributesOf(row: Pick<User, 'attributes'>): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(row.attributes || '{}');
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function columnText(field: MemberField, value: unknown): string {
  const wire = toWireValue(field, value);
  return wire === undefined ? '' : String(wire);
}

function readOnly(set: SchemaSet, form: string, name: string): boolean {
  const ui = set.forms[form]?.uiSchema[name] as JsonObject | undefined;
  const node = ((set.forms[form]?.schema.properties as Record<string, JsonObject> | undefined) ?? {})[name];
  return ui?.['ui:readonly'] === true || node?.readOnly === true;
}

function createStore(set: SchemaSet): MemberStore {
  const record = memberRecord(set.forms);

  /** The fields of `form` written from its data: columns and the attributes changed. */
  function write(form: string, data: Record<string, unknown>, attributes: Record<string, unknown>, skip: (name: string) => boolean): StoredValues {
    const out: StoredValues = {};
    for (const [name, field] of record.of(form)) {
      if (skip(name)) continue;
      const value = data[name];
      if (COLUMNS.has(field.name)) out[field.name] = columnText(field, value);
      else if (isEmpty(value)) delete attributes[field.name];
      else attributes[field.name] = value;
    }
    out.attributes = JSON.stringify(attributes);
    return out;
  }

  return {
    record,
    insertValues: (form, data) => write(form, data, {}, () => false),
    updateValues: (form, data, current) => write(form, data, attributesOf(current), (name) => readOnly(set, form, name)),
    saved(row) {
      const attributes = attributesOf(row);
      const columns = row as unknown as Record<string, unknown>;
      const out: Record<string, WireValue | undefined> = {};
      for (const field of record.fields) out[field.name] = COLUMNS.has(field.name) ? String(columns[field.name] ?? '') : toWireValue(field, attributes[field.name]);
      return out;
    },
  };
}

const STORES = new WeakMap<SchemaSet, MemberStore>();

/** The record of a schema set and how it is stored, worked out once per set. */
export function memberStore(set: SchemaSet): MemberStore {
  let store = STORES.get(set);
  if (!store) STORES.set(set, (store = createStore(set)));
  return store;
}
