// The texts and numbers the browser tests expect, read from where the product keeps them, so a
// product owner's JSON edit of a wording or a limit keeps the browser tests green while the
// behaviour they check still holds: field messages, limits and labels from the prepared schemas
// (tests/support/schema-messages.ts: the finished texts the form and the server show), screen
// texts from messages/ja.json, mail subjects from messages/mail.ja.json, my page's notices from
// messages/operator.ja.json, screen titles and settings from schemas/catalogue.json.
// JSON is imported with its import attribute: Playwright's loader refuses a JSON import without.
import messages from '../../messages/ja.json' with { type: 'json' };
import mail from '../../messages/mail.ja.json' with { type: 'json' };
import operator from '../../messages/operator.ja.json' with { type: 'json' };
import { format } from '../../src/shared/format';
import { codeLengthOf } from '../../src/shared/validation/code-length';
import { fieldNodes } from '../../src/shared/validation/schema-nodes';
import type { JsonObject } from '../../src/shared/validation/schema-bundle';
import { rulesOf, schemaSet } from '../../tests/support/schema-messages';

export { messages, format, rulesOf };

/** What my page's notices say when the operator acts (the member's side of the operator tool). */
export const memberNotice = operator.memberNotice;

/** A mail's subject as the mailer fills it ({site}, {operator}, and `values`). */
export function mailSubject(template: keyof typeof mail.templates, values: Record<string, string | number> = {}): string {
  return format(mail.templates[template].subject, { site: messages.site.name, operator: mail.operator, ...values });
}

/** The domain the site's mail comes from (mail.ja.json `from`, the default of MAIL_FROM, which
 *  the browser tests' stack leaves unset). */
export const MAIL_DOMAIN = /@([^>\s]+)>?\s*$/.exec(mail.from)![1];

/** The length of the mailed code (fields.json `code`), as the screens and the server take it. */
export const CODE_LENGTH = codeLengthOf(schemaSet().forms['login-code'].schema);

/** The notice a code-entry screen shows once the code is sent (`template` is the screen's
 *  codeSent text: {email}, {length}). */
export const codeSent = (template: string, email: string) => format(template, { email, length: CODE_LENGTH });

/** The accessible name of the n-th box (1-based) of the code input. */
export const pinBox = (n: number) => format(messages.form.pinLabel, { n });

/** "ようこそ、{name} 様" for `name`, or (without one) for whoever is logged in. */
export const welcome = (name?: string) => (name === undefined ? textPattern(messages.mypage.welcomeName) : format(messages.mypage.welcomeName, { name }));

interface Route {
  path: string;
  title: string;
  settings?: Record<string, number>;
}

function route(path: string): Route {
  const found = (schemaSet().catalogue.routes as unknown as Route[]).find((r) => r.path === path);
  if (!found) throw new Error(`No route "${path}" in schemas/catalogue.json`);
  return found;
}

/** A screen's title (catalogue.json), which is its heading. */
export const screenTitle = (path: string) => route(path).title;

/** A number a screen acts on (catalogue.json `settings`, e.g. resendLockSeconds). */
export function routeSetting(path: string, name: string): number {
  const value = route(path).settings?.[name];
  if (typeof value !== 'number') throw new Error(`No setting "${name}" for route "${path}" in schemas/catalogue.json`);
  return value;
}

/** The label a form shows for a field: its UI schema's ui:title, else the schema's title. */
export function label(form: string, field: string): string {
  const { schema, uiSchema } = schemaSet().forms[form] ?? {};
  if (!schema) throw new Error(`No form "${form}"`);
  const title = ((uiSchema[field] as JsonObject | undefined)?.['ui:title'] as string | undefined) ?? (fieldNodes(schema)[field]?.title as string | undefined);
  if (typeof title !== 'string') throw new Error(`${form}: no label for ${field}`);
  return title;
}

/** A field's placeholder as the form shows it (its UI schema's ui:placeholder). */
export function placeholder(form: string, field: string): string {
  const text = ((schemaSet().forms[form]?.uiSchema[field] as JsonObject | undefined)?.['ui:placeholder']);
  if (typeof text !== 'string') throw new Error(`${form}: no placeholder for ${field}`);
  return text;
}

/** A form's labels by field name (`labels('login').email`); a name the form lacks throws. */
export function labels(form: string): Record<string, string> {
  return new Proxy({} as Record<string, string>, { get: (_, field) => (typeof field === 'string' ? label(form, field) : undefined) });
}

/** The text of a form's submit button (its UI schema's ui:submitButtonOptions). */
export function submitText(form: string): string {
  const text = (schemaSet().forms[form]?.uiSchema['ui:submitButtonOptions'] as JsonObject | undefined)?.submitText;
  if (typeof text !== 'string') throw new Error(`${form}: no submit button text`);
  return text;
}

/** The titles of a form's sections (its UI schema's ui:sections), in order. */
export function sectionTitles(form: string): string[] {
  const sections = (schemaSet().forms[form]?.uiSchema['ui:sections'] ?? []) as Array<{ title?: string }>;
  return sections.map((section) => section.title).filter((title): title is string => typeof title === 'string');
}

/** How the member info view writes a row that joins fields (edit-profile.ui.json ui:view `text`,
 *  e.g. "〒{zip_current}"), filled with `values`. */
export function viewRow(field: string, values: Record<string, string>): string {
  const rows = ((schemaSet().forms['edit-profile'].uiSchema['ui:view'] as JsonObject | undefined)?.rows ?? []) as Array<{ field?: string; text?: string }>;
  const text = rows.find((row) => row.field === field)?.text;
  if (typeof text !== 'string') throw new Error(`edit-profile ui:view: no text row for ${field}`);
  return format(text, values);
}

/** The new-password checklist's items as the form lists them (the field's `allOf` rule titles). */
export function passwordChecklist(form = 'register-profile', field = 'password'): string[] {
  const node = fieldNodes(schemaSet().forms[form].schema)[field];
  const rules = ((node?.allOf as JsonObject[] | undefined) ?? []).filter((rule) => typeof rule.title === 'string');
  if (rules.length === 0) throw new Error(`${form}: ${field} has no checklist`);
  return rules.map((rule) => rule.title as string);
}

export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A message with `{placeholders}` as a regular expression: the text as written, each
 *  placeholder matching `fills[name]` (a regular-expression source), or any text if not given. */
export function textPattern(template: string, fills: Record<string, string> = {}): RegExp {
  const parts = template.split(/(\{\w+\})/);
  return new RegExp(parts.map((part) => (/^\{\w+\}$/.test(part) ? `(?:${fills[part.slice(1, -1)] ?? '.+'})` : escapeRegExp(part))).join(''));
}

/** Matches a text that holds any of `texts`: strings as written, or patterns. */
export const anyOf = (...texts: Array<string | RegExp>) => new RegExp(texts.map((t) => (typeof t === 'string' ? escapeRegExp(t) : t.source)).join('|'));
