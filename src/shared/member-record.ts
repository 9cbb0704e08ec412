// The member record: what a member's profile holds, read at run time from the forms that write
// it (a form schema that says "x-member-record": true: registration STEP2, the old registration
// form, the edit form). It is the union of their fields, those an if/then brings in included;
// a field is stored under its own name unless its node says "x-stored-as": "<name>", and not
// at all when it says "x-stored": false (a confirmation, a consent tick, the password, the
// account's address). Storage, the API's answers, the wire adapters, the info view and the
// operator tool read it, so a field added to a form's JSON is a field of the member.
import type { JsonObject } from './validation/schema-bundle.ts';
import { fieldNodes } from './validation/schema-nodes.ts';

/** How a value is held: text; a list of codes (one comma-joined string on the wire and in a
 *  column, as the specification's `purpose`); a tick; a number. */
export type FieldKind = 'text' | 'list' | 'flag' | 'number';

/** A value of the record as GET /v1/user/info answers it. */
export type WireValue = string | boolean | number;

export interface MemberField {
  /** The name it is stored and answered under. */
  name: string;
  kind: FieldKind;
  /** Its node (resolved) in the first form that has it. */
  node: JsonObject;
  /** The forms that have it, each with the field's name there. */
  forms: Record<string, string>;
  /** The first `default` a form gives it (registration's job "1"). */
  default?: unknown;
}

/** A form as the record reads it: its prepared schema and, for the order, its UI schema. */
export interface RecordForm {
  schema: JsonObject;
  uiSchema?: JsonObject;
}

export interface MemberRecord {
  readonly fields: readonly MemberField[];
  field(name: string): MemberField | undefined;
  /** The record's fields one form has, in the form's order, each with its name in the form. */
  of(form: string): ReadonlyArray<readonly [string, MemberField]>;
}

export const isRecordForm = (schema: JsonObject): boolean => schema['x-member-record'] === true;

/** The name a form's field is stored under, or undefined when it is not stored. */
export function storedName(name: string, node: JsonObject): string | undefined {
  if (node['x-stored'] === false) return undefined;
  return typeof node['x-stored-as'] === 'string' ? node['x-stored-as'] : name;
}

export function kindOf(node: JsonObject): FieldKind {
  if (node.type === 'array') return 'list';
  if (node.type === 'boolean') return 'flag';
  if (node.type === 'number' || node.type === 'integer') return 'number';
  return 'text';
}

/** A form's fields in the order a member meets them: the UI schema's ui:order, then the rest
 *  (conditional fields among them) in the schema's order. */
export function fieldOrder(form: RecordForm): string[] {
  const names = Object.keys(fieldNodes(form.schema));
  const order = (form.uiSchema?.['ui:order'] as unknown[] | undefined) ?? [];
  const first = order.filter((name): name is string => typeof name === 'string' && names.includes(name));
  return [...first, ...names.filter((name) => !first.includes(name))];
}

/** The record the given forms describe (only those marked "x-member-record" count), in the
 *  order of the forms given and of each form's fields. */
export function memberRecord(forms: Record<string, RecordForm>): MemberRecord {
  const fields = new Map<string, MemberField>();
  const byForm = new Map<string, Array<readonly [string, MemberField]>>();
  for (const [formName, form] of Object.entries(forms)) {
    if (!isRecordForm(form.schema)) continue;
    const nodes = fieldNodes(form.schema);
    const own: Array<readonly [string, MemberField]> = [];
    for (const name of fieldOrder(form)) {
      const node = nodes[name];
      const stored = storedName(name, node);
      if (!stored) continue;
      let field = fields.get(stored);
      if (!field) fields.set(stored, (field = { name: stored, kind: kindOf(node), node, forms: {} }));
      else if (field.kind !== kindOf(node)) {
        throw new Error(`The member field "${stored}" is a ${field.kind} in ${Object.keys(field.forms).join(', ')} and a ${kindOf(node)} in ${formName}`);
      }
      field.forms[formName] = name;
      if (field.default === undefined && node.default !== undefined) field.default = node.default;
      own.push([name, field]);
    }
    byForm.set(formName, own);
  }
  const list = [...fields.values()];
  return {
    fields: list,
    field: (name) => fields.get(name),
    of: (form) => byForm.get(form) ?? [],
  };
}

const isEmpty = (value: unknown) => value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

/** A form value as it travels and is answered: a list as one comma-joined string; a text or list
 *  not given as ''; a tick or number not given as undefined. */
export function toWireValue(field: MemberField, value: unknown): WireValue | undefined {
  if (isEmpty(value)) return field.kind === 'text' || field.kind === 'list' ? '' : undefined;
  if (field.kind === 'list') return Array.isArray(value) ? value.join(',') : String(value);
  if (field.kind === 'text') return String(value);
  return value as WireValue;
}

/** A wire value as a form holds it: a list as its codes; an empty value as not given. */
export function toFormValue(field: MemberField, value: unknown): unknown {
  if (isEmpty(value)) return undefined;
  if (field.kind === 'list') {
    const items = typeof value === 'string' ? value.split(',').filter(Boolean) : value;
    return Array.isArray(items) && items.length > 0 ? items : undefined;
  }
  return value;
}

/** A stored text as a member reads it: a date as a long Japanese date (year, month and day with
 *  their kanji), other texts through their x-display. The info view's rows and a form's
 *  read-only field (the birthday on edit) show a value the same way. */
export function fieldText(node: JsonObject, text: string, formatDate: (value: string) => string): string {
  return node.format === 'date' ? formatDate(text) : displayText(node, text);
}

/** The text a member reads for a stored text: the field's `x-display` ({ "match", "replace" },
 *  e.g. the postal code 1000001 as 100-0001), else the text itself. */
export function displayText(node: JsonObject, text: string): string {
  const display = node['x-display'] as { match?: unknown; replace?: unknown } | undefined;
  if (!display || typeof display.match !== 'string' || typeof display.replace !== 'string') return text;
  return text.replace(new RegExp(display.match, 'u'), display.replace);
}

/** The saved record (wire values by stored name) as the data of `form`: each of its record
 *  fields under its name there, lists as lists, texts as the member reads them, empty ones left
 *  out (an empty field is not given). */
export function formDataOf(record: MemberRecord, form: string, saved: Record<string, unknown>): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const [name, field] of record.of(form)) {
    const value = toFormValue(field, saved[field.name]);
    if (value !== undefined) data[name] = typeof value === 'string' ? displayText(field.node, value) : value;
  }
  return data;
}
