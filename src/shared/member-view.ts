// The member record as rows a person reads: the info view (/user/info) and the operator tool's
// `members show`. The edit form's UI schema says which rows come first ("ui:view": { "rows":
// [...] }); each row shows a field under its title, or joins several ("text":
// "{last_name_kanji} {first_name_kanji}") under its own ("title"). Every other field of the
// record follows in the forms' order under its title, so a field added to a form is shown with
// no code change. A value is shown as the schema says: a choice by its option's label (with the
// "other" text its condition brings in beside it), a date as a date, a list joined, a stored text
// through its x-display.
import type { JsonObject } from './validation/schema-bundle.ts';
import { fieldNodes } from './validation/schema-nodes.ts';
import { choiceBringing, masterOf } from './validation/conditions.ts';
import { fieldOrder, fieldText, kindOf, storedName, type RecordForm } from './member-record.ts';
import { format } from './format.ts';

export interface ViewRow {
  label: string;
  value: string;
}

/** A row with the stored fields it shows (one, or those its text joins): the back office's. */
export interface FieldRow extends ViewRow {
  fields: string[];
}

/** The texts the rows are made with (messages/ja.json "info"). */
export interface ViewTexts {
  /** messages.info.withOther: a choice with the "other" text its condition brings in. */
  withOther: string;
  listSeparator: string;
  yes: string;
  no: string;
}

export interface ViewOptions {
  masters: Record<string, ReadonlyArray<{ value: string; label: string }> | undefined>;
  texts: ViewTexts;
  formatDate: (value: string) => string;
}

/** One row of "ui:view": a field under its title, or a text made of fields under `title`
 *  (fields by the name the member record stores them under). */
interface ViewSpec {
  field?: string;
  title?: string;
  text?: string;
}

interface Field {
  name: string;
  stored: string;
  node: JsonObject;
  form: RecordForm;
}

const PLACEHOLDER = /\{([A-Za-z0-9_]+)\}/g;

/** The rows "ui:view" of a UI schema states (none when it has none). */
export function viewSpecs(uiSchema: JsonObject | undefined): ViewSpec[] {
  const view = uiSchema?.['ui:view'] as { rows?: unknown } | undefined;
  return Array.isArray(view?.rows) ? (view.rows as ViewSpec[]) : [];
}

/** The fields a view row names: its field and those its text joins. */
export function namedBy(spec: ViewSpec): string[] {
  const names = spec.field ? [spec.field] : [];
  for (const match of (spec.text ?? '').matchAll(PLACEHOLDER)) names.push(match[1]);
  return names;
}

/** The title a field is shown under. */
function titleOf(field: Field): string {
  const ui = field.form.uiSchema?.[field.name] as JsonObject | undefined;
  const title = ui?.['ui:title'] ?? field.node.title;
  return typeof title === 'string' ? title : field.name;
}

// fieldText lives beside displayText, so a form's read-only date field does not bring the whole
// view with it (ADR 029).
export { fieldText };

/** `saved` (the record's values as they travel, by stored name) as rows: those the first form's
 *  "ui:view" states, then every other stored field of `forms`. */
export function memberView(forms: RecordForm[], saved: Record<string, unknown>, options: ViewOptions): ViewRow[] {
  return memberFieldRows(forms, saved, options).map(({ label, value }) => ({ label, value }));
}

/** memberView's rows, each naming the stored fields it shows. */
export function memberFieldRows(forms: RecordForm[], saved: Record<string, unknown>, options: ViewOptions): FieldRow[] {
  return memberFieldRowsOf(forms, options)(saved);
}

/** memberFieldRows with what depends on the forms alone worked out once, for many records (the
 *  back office's CSV reads the forms once, not once a member). */
export function memberFieldRowsOf(forms: RecordForm[], options: ViewOptions, only?: ReadonlySet<string>): (saved: Record<string, unknown>) => FieldRow[] {
  const fields = new Map<string, Field>();
  const others = new Map<string, { field: string; value: unknown }>();
  for (const form of forms) {
    const nodes = fieldNodes(form.schema);
    const storedOf = (name: string) => (nodes[name] ? storedName(name, nodes[name]) : undefined);
    for (const name of fieldOrder(form)) {
      const stored = storedOf(name);
      if (stored && !fields.has(stored)) fields.set(stored, { name, stored, node: nodes[name], form });
    }
    for (const [name, { field, value }] of Object.entries(choiceBringing(form.schema))) {
      const [other, chosen] = [storedOf(name), storedOf(field)];
      if (other && chosen && !others.has(other)) others.set(other, { field: chosen, value });
    }
  }

  const specs = viewSpecs(forms[0]?.uiSchema);
  return (saved) => rowsOf(fields, others, specs, saved, options, only);
}

function rowsOf(
  fields: Map<string, Field>,
  others: Map<string, { field: string; value: unknown }>,
  specs: ReturnType<typeof viewSpecs>,
  saved: Record<string, unknown>,
  options: ViewOptions,
  only?: ReadonlySet<string>,
): FieldRow[] {
  const label = (field: Field, code: string) => options.masters[masterOf(field.form.schema, field.node) ?? '']?.find((o) => o.value === code)?.label ?? code;
  /** A chosen code by its label, with the "other" text it brings in. */
  const choice = (field: Field, code: string) => {
    const other = [...others].find(([, c]) => c.field === field.stored && c.value === code)?.[0];
    const text = other && fields.has(other) ? String(saved[other] ?? '') : '';
    return text ? format(options.texts.withOther, { label: label(field, code), other: text }) : label(field, code);
  };
  const show = (stored: string): string => {
    const field = fields.get(stored);
    const value = field ? saved[stored] : undefined;
    if (!field || value === undefined || value === null || value === '') return '';
    const kind = kindOf(field.node);
    if (kind === 'flag') return value ? options.texts.yes : options.texts.no;
    const text = String(value);
    if (kind === 'list') return text.split(',').filter(Boolean).map((code) => choice(field, code)).join(options.texts.listSeparator);
    if (masterOf(field.form.schema, field.node)) return choice(field, text);
    const names = (field.form.uiSchema?.[field.name] as JsonObject | undefined)?.['ui:enumNames'];
    if (Array.isArray(field.node.enum) && Array.isArray(names)) return String(names[field.node.enum.indexOf(text)] ?? text);
    return fieldText(field.node, text, options.formatDate);
  };

  const rows: FieldRow[] = [];
  const shown = new Set<string>();
  for (const spec of specs) {
    const names = namedBy(spec);
    for (const name of names) shown.add(name);
    if (only && !names.some((name) => only.has(name))) continue;
    const head = spec.field ? fields.get(spec.field) : undefined;
    const value = spec.text && names.some((name) => show(name)) ? spec.text.replace(PLACEHOLDER, (_, name: string) => show(name)).trim() : spec.text ? '' : show(spec.field ?? '');
    rows.push({ label: spec.title ?? (head ? titleOf(head) : (spec.field ?? '')), value, fields: names });
  }
  for (const [stored, field] of fields) {
    if (shown.has(stored) || (only && !only.has(stored))) continue;
    // An "other" text is shown beside the choice that brings it in.
    const brought = others.get(stored);
    if (brought && fields.has(brought.field)) continue;
    rows.push({ label: titleOf(field), value: show(stored), fields: [stored] });
  }
  return rows;
}
