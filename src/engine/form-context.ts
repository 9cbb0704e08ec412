/** What the engine keeps in rjsf's formContext: which fields the member has left, whether they
 *  have tried to submit, the master option lists, and a way for a widget to fill other fields
 *  (postal-code → address). */
import type { MasterOption } from '../shared/api-types';
import type { SummaryItem } from './error-summary-items';

export type { MasterOption };

export type PostalLookup = (zip: string) => Promise<string[]>;

export interface EngineContext {
  touched: ReadonlySet<string>;
  submitted: boolean;
  /** Refused submits so far (the error summary takes focus once for each). */
  attempt: number;
  /** Whether the form shows its own error summary (a screen may gather several forms into one). */
  summary: boolean;
  takeFocus: (attempt: number) => boolean;
  /** Where rjsf's error list hands the items of the form's error summary (none when the screen
   *  gathers several forms into one summary). */
  publishSummary?: (items: SummaryItem[]) => void;
  serverErrorIds: ReadonlySet<string>;
  masters: Record<string, MasterOption[] | undefined>;
  /** Sets other top-level fields of the form. */
  patch: (values: Record<string, unknown>) => void;
  /** Reads a top-level field's current value. */
  valueOf: (name: string) => unknown;
  /** The messages of top-level field `name` were it `value` (the rest of the data as the form has
   *  it), from the field's own validator; undefined when it has none (field-verdict.ts). */
  fieldMessages: (name: string, value: unknown) => readonly string[] | undefined;
  postalLookup: PostalLookup;
}

export function engineContext(context: unknown): EngineContext | undefined {
  return context as EngineContext | undefined;
}

/** True when `left` is the field `id` or one of its array items (`root_list_0`, `root_list_0_x`).
 *  rjsf joins names with `_`, and names have `_` in them too: `root_purpose_detail` is a field of
 *  its own beside `root_purpose`, not part of it. */
const isPartOf = (left: string, id: string) => left === id || (left.startsWith(`${id}_`) && /^\d+(_|$)/.test(left.slice(id.length + 1)));

/** `edited`: the field holds typed text the form does not have yet (live-field.ts); a server
 *  message about the field no longer applies to it, so it no longer makes its errors show. */
export function errorsVisible(context: unknown, id: string, edited = false): boolean {
  const ctx = engineContext(context);
  if (!ctx) return true;
  return ctx.submitted || (!edited && ctx.serverErrorIds.has(id)) || [...ctx.touched].some((left) => isPartOf(left, id));
}

/** The option list a master widget's field draws from (`x-master` on the field, or on its items). */
export function masterName(schema: { [key: string]: unknown }): string {
  const items = schema.items as { [key: string]: unknown } | undefined;
  return String(schema['x-master'] ?? items?.['x-master'] ?? '');
}

/** The messages of a field that show as soon as they apply, while the member is still in the
 *  field: its UI schema's `errorsAtOnce` lists keywords of its schema's errorMessage. For a rule
 *  that no more typing can meet (the new address is the current one), whose button waits on it. */
export function atOnceMessages(schema: object, options: object): string[] {
  const listed = (options as { errorsAtOnce?: unknown }).errorsAtOnce;
  const keywords = Array.isArray(listed) ? (listed as string[]) : [];
  const messages = ((schema as { errorMessage?: unknown }).errorMessage ?? {}) as Record<string, unknown>;
  return keywords.map((keyword) => messages[keyword]).filter((text): text is string => typeof text === 'string');
}

/** The errors of a field the member sees now (ADR 007: once they left it or tried to submit),
 *  and before that those of its `atOnce` messages that apply. */
export function shownErrors(context: unknown, id: string, rawErrors: readonly string[] | undefined, atOnce: readonly string[] = [], edited = false): readonly string[] {
  if (!rawErrors?.length) return [];
  return errorsVisible(context, id, edited) ? rawErrors : rawErrors.filter((error) => atOnce.includes(error));
}

/** A help text is left out while an error of its field says the same words (a limit given as
 *  help, "up to 8 choices", is also the message of going over it): one sentence, once. */
export function helpShown(help: unknown, errors: readonly string[]): boolean {
  return !!help && !(typeof help === 'string' && errors.some((error) => error.trim() === help.trim()));
}

/** What a widget knows of its field: enough to tell which of the field's texts are on the page. */
export interface AriaSource {
  id: string;
  registry: { formContext?: unknown };
  rawErrors?: string[];
  options: { description?: unknown; help?: unknown; errorsAtOnce?: unknown };
  schema: { description?: string };
  hideLabel?: boolean;
}

/** A widget's field as the member sees it: its messages on what is typed in it while the form
 *  does not have that yet (live-field.ts), else the form's. */
export function withLiveErrors<P extends AriaSource>(props: P, live: { messages: readonly string[] } | null): P & { edited: boolean } {
  return live ? { ...props, rawErrors: [...live.messages], edited: true } : { ...props, edited: false };
}

/** The ARIA a control carries about its errors: invalid while its errors are shown and said to be
 *  valid otherwise (a required select or box left empty is natively invalid, which Chromium
 *  reports at once, before the member did anything, unless told otherwise), and
 *  described by the texts of its field that are rendered — the error list only while it shows,
 *  the description only when the field has one and shows its label (FieldTemplate), the help only
 *  when the UI schema gives one — and by `extra` ids the widget renders itself. A reference to an
 *  id that is not in the document names nothing, so none is made. */
export function errorAria(props: AriaSource & { edited?: boolean }, extra: Array<string | false | undefined> = []) {
  const { id, registry, rawErrors, options, schema, hideLabel, edited } = props;
  const errors = shownErrors(registry.formContext, id, rawErrors, atOnceMessages(schema, options), edited);
  const shown = errors.length > 0;
  const hasDescription = !hideLabel && !!(options.description || schema.description);
  const ids = [shown && `${id}__error`, hasDescription && `${id}__description`, helpShown(options.help, errors) && `${id}__help`, ...extra].filter(Boolean);
  return { 'aria-invalid': shown, 'aria-describedby': ids.length ? ids.join(' ') : undefined };
}

/** The name of a control whose required state Chromium does not give the accessibility tree (a
 *  select, a checkbox) or ARIA has none for (a group of boxes): its label and its required badge, as
 *  they show (FieldTemplate gives both ids). Undefined where the badge is not shown. */
export function requiredInName(props: { id: string; required?: boolean; readonly?: boolean; hideLabel?: boolean }): string | undefined {
  return props.required && !props.readonly && !props.hideLabel ? `${props.id}__label ${props.id}__badge` : undefined;
}
