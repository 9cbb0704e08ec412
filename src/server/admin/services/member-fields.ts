// A member's record as the back office shows and exports it: every field of the member record
// (the forms marked x-member-record) under the title its form gives and with the text the member
// reads on /user/info (src/shared/member-view.ts), so a field added to a form's JSON appears
// here, and among the export's columns, with no code change.
import type { Db } from '../../db/connect';
import type { User } from '../../db/types';
import { masterOptions, type MasterName } from '../../masters';
import { memberStore } from '../../member-store';
import { allMunicipalities } from '../../denshijiti';
import { formatDate } from '../../../shared/format-date';
import { displayText, isRecordForm, type RecordForm } from '../../../shared/member-record';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { memberFieldRows, memberFieldRowsOf, viewSpecs } from '../../../shared/member-view';
import { mastersOf } from '../../../shared/validation/conditions';
import type { SchemaSet } from '../../../shared/validation/schema-files';
import type { JsonObject } from '../../../shared/validation/schema-bundle';
import type { ExportColumn, MemberFieldValue } from '../../../shared/admin-api';
import memberTexts from '../../../../messages/ja.json';

/** The forms that write the member record, the one whose UI schema lays out the info view first. */
export function recordForms(set: SchemaSet): RecordForm[] {
  const forms = Object.values(set.forms).filter((form) => isRecordForm(form.schema));
  return [...forms.filter((form) => viewSpecs(form.uiSchema).length > 0), ...forms.filter((form) => viewSpecs(form.uiSchema).length === 0)];
}

export type OptionLists = Record<string, ReadonlyArray<{ value: string; label: string }>>;

/** Each option list the record's forms name, from the database (the municipalities from their own list). */
export async function optionLists(db: Db, forms: RecordForm[]): Promise<OptionLists> {
  const names = [...new Set(forms.flatMap((form) => mastersOf(form.schema)))];
  const lists = await Promise.all(names.map(async (name) => [name, name === 'denshijiti' ? allMunicipalities() : await masterOptions(db, name as MasterName)] as const));
  return Object.fromEntries(lists);
}

const wireText = (value: unknown) => (value === undefined || value === null ? '' : String(value));

/** The rows of one member's record, labels from the forms, displays as on /user/info. */
export function memberFieldValues(set: SchemaSet, masters: OptionLists, user: User): MemberFieldValue[] {
  const forms = recordForms(set);
  const saved = memberStore(set).saved(user);
  return memberFieldRows(forms, saved, { masters, texts: memberTexts.info, formatDate }).map((row) => ({
    name: row.fields[0] ?? row.label,
    names: row.fields,
    label: row.label,
    value: row.fields.map((name) => wireText(saved[name])).join(' ').trim(),
    display: row.value,
  }));
}

/** Every field of the member record, in the record's order, under its form's title. */
export function recordColumns(set: SchemaSet): ExportColumn[] {
  const { record } = memberStore(set);
  return record.fields.map((field) => {
    const [form, nameInForm] = Object.entries(field.forms)[0] ?? ['', field.name];
    const ui = set.forms[form]?.uiSchema?.[nameInForm] as JsonObject | undefined;
    const title = ui?.['ui:title'] ?? field.node.title;
    return { name: field.name, label: typeof title === 'string' ? title : field.name };
  });
}

/** A stored text in its display form for an export: the field's `x-display` (the postal code
 *  1000001 as 100-0001), or, for `{ "as": "phone" }`, the number in its national form with
 *  hyphens (090-1234-5678), so that a spreadsheet keeps its leading 0. */
export function exportText(node: JsonObject, text: string): string {
  const display = node['x-display'] as { as?: unknown } | undefined;
  if (display?.as === 'phone') {
    const number = parsePhoneNumberFromString(text, 'JP');
    return number?.isValid() ? number.formatNational() : text;
  }
  return displayText(node, text);
}

/** Each field's own text for the member (a joined row's fields each as stored), by record: what
 *  depends on the forms is worked out once, for many records (the CSV). With `names`, only those
 *  fields' texts are worked out (an export of 4 columns does not format the other 30). */
export function fieldDisplaysOf(set: SchemaSet, masters: OptionLists, names?: readonly string[]): (user: User) => Record<string, string> {
  const store = memberStore(set);
  const only = names ? new Set(names) : undefined;
  const rowsOf = memberFieldRowsOf(recordForms(set), { masters, texts: memberTexts.info, formatDate }, only);
  const displayed = store.record.fields.filter((field) => field.node['x-display'] && (!only || only.has(field.name)));
  return (user) => {
    const saved = store.saved(user);
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(saved)) if (!only || only.has(name)) out[name] = wireText(value);
    for (const row of rowsOf(saved)) if (row.fields.length === 1) out[row.fields[0]!] = row.value;
    // A text with a display form (postal code, phone) in that form, leading 0 and hyphens kept.
    for (const field of displayed) {
      const value = saved[field.name];
      if (typeof value === 'string' && value) out[field.name] = exportText(field.node, value);
    }
    return out;
  };
}
