// Which of a field's rules a member can break from the screen, decided by what the field's widget
// can hand the form (src/engine/widgets, src/engine/templates/BaseInputTemplate.tsx): every
// widget gives the schema's type; a select, radio or check-box list gives only the options it
// offers (and no option twice, and nothing rather than an empty list); a PIN box takes digits up
// to its length; a text input stops at its maxlength, keeps only digits where its field says so,
// and an emptied one hands over nothing rather
// than "" (so its required message shows, not a minimum of 1); a read-only or hidden field is
// filled by the screen. The spec leaves such rules out: the member never sees their messages (the server still
// answers them to a request made without the screen).
import type { JsonObject } from '../../src/shared/validation/schema-refs.ts';
import { isObject, type FieldRules, type Rule } from './field-rules.ts';

export type Widget =
  | { kind: 'shown' }
  | { kind: 'choice'; radio: boolean }
  | { kind: 'choices' }
  | { kind: 'checkbox' }
  | { kind: 'pin'; length: number }
  | { kind: 'text'; maxChars?: number; digitsOnly: boolean }
  | { kind: 'free' };

const CHOICE = new Set(['select', 'radio', 'master-select', 'master-radio']);
const RADIO = new Set(['radio', 'master-radio']);
const CHOICES = new Set(['checkboxes', 'master-checkboxes']);
/** Normalisers that drop characters, so an input with them takes more than the field keeps. */
const DROPPING = new Set(['digitsOnly', 'removeHyphens']);

/** The widget the screen shows for `field` (its UI schema entry `ui`), as far as what it can produce. */
export function widgetOf(field: FieldRules, ui: JsonObject): Widget {
  const options = isObject(ui['ui:options']) ? ui['ui:options'] : {};
  const widget = typeof ui['ui:widget'] === 'string' ? ui['ui:widget'] : undefined;
  const first = (keyword: string) => field.nodes.find((n) => n[keyword] !== undefined)?.[keyword];
  if (ui['ui:readonly'] === true || widget === 'hidden') return { kind: 'shown' };
  if (widget === 'pin') return { kind: 'pin', length: Number(options.length ?? 5) };
  if ((widget && CHOICE.has(widget)) || (!widget && Array.isArray(first('enum')))) return { kind: 'choice', radio: !!widget && RADIO.has(widget) };
  if ((widget && CHOICES.has(widget)) || (!widget && first('type') === 'array')) return { kind: 'choices' };
  if (first('type') === 'boolean') return { kind: 'checkbox' };
  // A textarea has no maxlength (it counts instead); a date input is the browser's; the
  // three-box date (date-parts) hands over any YYYY-MM-DD its digits make, or nothing.
  if (widget === 'textarea' || widget === 'date' || widget === 'date-parts') return { kind: 'free' };
  const normalisers = field.nodes.flatMap((n) => (Array.isArray(n['x-normalise']) ? n['x-normalise'] : []));
  const maxLength = first('maxLength');
  const maxChars = typeof options.maxLength === 'number' ? options.maxLength : normalisers.some((n) => DROPPING.has(String(n))) ? undefined : maxLength;
  return { kind: 'text', maxChars: typeof maxChars === 'number' ? maxChars : undefined, digitsOnly: normalisers.includes('digitsOnly') };
}

/** A pattern asking for digits only, which a field that keeps only digits always meets. */
const DIGITS = /^\^\[0-9\][*+]\$$/;

/** An emptied text field hands the form nothing (not ""), so its required message shows instead. */
const emptied = (rule: Rule) => rule.keyword === 'minLength' && Number(rule.value) <= 1;

/** Whether a member can break `rule` through `widget`. */
export function reachable(widget: Widget, rule: Rule): boolean {
  if (widget.kind === 'shown' || widget.kind === 'choice') return false;
  if (rule.keyword === 'type' && !rule.onItems) return false;
  switch (widget.kind) {
    case 'choices':
      return !rule.onItems && rule.keyword !== 'uniqueItems' && !(rule.keyword === 'minItems' && Number(rule.value) <= 1);
    case 'pin':
      return rule.keyword === 'minLength' || (rule.keyword === 'maxLength' && Number(rule.value) < widget.length);
    case 'text':
      if (rule.keyword === 'pattern' && widget.digitsOnly && DIGITS.test(String(rule.value))) return false;
      return !emptied(rule) && !(rule.keyword === 'maxLength' && widget.maxChars !== undefined && widget.maxChars <= Number(rule.value));
    case 'free':
      return !emptied(rule);
    default:
      return true;
  }
}

/** Whether the member can leave the field empty: not one the screen fills, nor radio buttons
 *  that start on a choice (none of them can be unticked). */
export function canBeLeftEmpty(widget: Widget, field: FieldRules): boolean {
  if (widget.kind === 'shown') return false;
  return !(widget.kind === 'choice' && widget.radio && field.nodes.some((n) => n.default !== undefined));
}
