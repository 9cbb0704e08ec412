// What an error summary lists: one line per field in error, in the order the form shows its
// fields, each naming its field (the label, unless the message already says it) and linking to
// it by the id rjsf gives the field (`root_<name>`).
import type { RJSFValidationError, UiSchema } from '@rjsf/utils';
import messages from '../../messages/ja.json';
import { format } from '../shared/format';
import { fieldNodes } from '../shared/validation/schema-nodes';
import type { JsonObject } from '../shared/validation/schema-bundle';
import type { FieldErrors } from '../shared/validation/field-errors';

export interface SummaryItem {
  /** The field's id (its FieldTemplate's `data-field`). */
  fieldId: string;
  text: string;
}

interface FormLike {
  schema: object;
  uiSchema: UiSchema;
}

/** The field's label as the form shows it: the UI schema's ui:title, else the schema's title. */
export function labelOf(form: FormLike, name: string): string {
  const ui = form.uiSchema[name] as UiSchema | undefined;
  const title = (ui?.['ui:title'] as string | undefined) ?? (fieldNodes(form.schema as JsonObject)[name]?.title as string | undefined);
  return title ?? '';
}

/** The form's fields in the order it shows them (ui:order, else its sections, else the schema's). */
function fieldOrder(form: FormLike): string[] {
  const names = Object.keys(fieldNodes(form.schema as JsonObject));
  const sections = (form.uiSchema['ui:sections'] as Array<{ fields: string[] }> | undefined)?.flatMap((s) => s.fields) ?? [];
  const order = ((form.uiSchema['ui:order'] as string[] | undefined) ?? sections).filter((name) => name !== '*');
  return [...order.filter((name) => names.includes(name)), ...names.filter((name) => !order.includes(name))];
}

/** "label: message", or the message alone when it names the field itself (by its label or by
 *  the schema's title: a phone message that says "phone number" under the label "registered
 *  phone number"). */
export function summaryText(label: string, message: string, title?: string): string {
  const named = [label, title].some((name) => !!name && message.includes(name));
  return !label || named ? message : format(messages.form.errorSummaryItem, { label, message });
}

/** One item per field with an error (its first message), `fieldErrors` (the server's) included. */
export function summaryItems(form: FormLike, errors: Array<Pick<RJSFValidationError, 'property' | 'message'>>, fieldErrors?: FieldErrors): SummaryItem[] {
  const first = new Map<string, string>();
  const add = (name: string, message?: string) => {
    if (name && message && !first.has(name)) first.set(name, message);
  };
  errors.forEach((error) => add((error.property ?? '').split('.').filter(Boolean)[0] ?? '', error.message));
  Object.entries(fieldErrors ?? {}).forEach(([path, list]) => add(path.split('.')[0], list[0]));
  return fieldOrder(form)
    .filter((name) => first.has(name))
    .map((name) => ({
      fieldId: `root_${name}`,
      text: summaryText(labelOf(form, name), first.get(name)!, fieldNodes(form.schema as JsonObject)[name]?.title as string | undefined),
    }));
}

/** The top-level field a control's id belongs to (`root_purpose_0` → `purpose`; names have `_`
 *  in them too, so the longest name that fits wins). */
export function fieldNameOf(form: FormLike, id: string): string | undefined {
  const rest = id.replace(/^root_/, '');
  return Object.keys(fieldNodes(form.schema as JsonObject))
    .filter((name) => rest === name || rest.startsWith(`${name}_`))
    .sort((a, b) => b.length - a.length)[0];
}
