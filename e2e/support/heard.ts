// The screen-reader contract's half about fields (issue 35): at a checkpoint, every field of every
// engine form on the page (in the frame too) is looked up in Chromium's accessibility tree (the
// DevTools protocol's Accessibility domain, what a screen reader is given) and checked against
// its form's schema: its accessible name holds its label, a required field is exposed as
// required (and an optional one is not), its description holds the hint its schema gives while
// the hint shows and, while the field shows an error, the error, with invalid set only then.
import type { CDPSession, Frame, Page } from '@playwright/test';
import { fieldNodes } from '../../src/shared/validation/schema-nodes';
import type { JsonObject } from '../../src/shared/validation/schema-bundle';
import { schemaSet } from '../../tests/support/schema-messages';
import { messages } from './texts';

/** A field as the page shows it (read in the frame). */
interface ShownField {
  form: string;
  field: string;
  probe: string;
  /** The control or group that carries the field's id. */
  role: string;
  disabled: boolean;
  readonly: boolean;
  /** The controls inside a group (whose required state they carry: ARIA gives a group none). */
  innerProbes: string[];
  /** The badge next to the label says 必須 (false: 任意, or no badge). */
  badgeRequired: boolean;
  badgeOptional: boolean;
  /** The field's hint as shown (its help), or null. */
  help: string | null;
  /** The field's description as shown, or null. */
  description: string | null;
  /** The field's errors as shown. */
  errors: string[];
}

interface AxFacts {
  role: string;
  name: string;
  description: string;
  required: boolean;
  invalid: boolean;
}

export interface FieldCheck {
  id: 'name-holds-label' | 'required-exposed' | 'hint-in-description' | 'error-in-description';
  criteria: string[];
  checked: number;
  failures: string[];
}

const CHECKS: Record<FieldCheck['id'], string[]> = {
  'name-holds-label': ['1.3.1', '2.5.3', '4.1.2'],
  'required-exposed': ['1.3.1', '3.3.2', '4.1.2'],
  'hint-in-description': ['1.3.1', '3.3.2'],
  'error-in-description': ['3.3.1', '4.1.2'],
};

/** Marks every top-level field's control of every engine form (`form.schema-form[name]`) with a
 *  probe id and reads what the page shows of it. */
function readFields(prefix: string): ShownField[] {
  const out: ShownField[] = [];
  let n = 0;
  for (const form of document.querySelectorAll('form.schema-form[name]')) {
    for (const field of form.querySelectorAll('[data-field]')) {
      const id = field.getAttribute('data-field')!;
      if (!/^root_/.test(id) || field.getClientRects().length === 0) continue;
      const own = field.querySelector(`[id="${id}"]`);
      if (!own) continue;
      // A group of controls (radios, boxes, a date's or a code's boxes) is heard by its group.
      const group = own.closest('[role="group"], [role="radiogroup"]');
      const control = group && field.contains(group) ? group : own;
      const inner = Array.from(control.querySelectorAll('input:not([type="hidden"]), select, textarea'));
      const probe = `${prefix}${n++}`;
      control.setAttribute('data-heard-probe', probe);
      const shownText = (el: Element | null) => (el && el.getClientRects().length > 0 ? (el.textContent ?? '').replace(/\s+/g, ' ').trim() : null);
      out.push({
        form: form.getAttribute('name')!,
        field: id.slice('root_'.length),
        probe,
        role: control.getAttribute('role') ?? control.tagName.toLowerCase(),
        disabled: (control as HTMLInputElement).disabled === true || !!control.closest('fieldset[disabled]'),
        readonly: (control as HTMLInputElement).readOnly === true || control.tagName === 'P' || (inner.length > 0 && inner.every((el) => (el as HTMLInputElement).readOnly)),
        innerProbes: control === own && !group ? [] : inner.map((el, k) => {
          el.setAttribute('data-heard-probe', `${probe}-${k}`);
          return `${probe}-${k}`;
        }),
        badgeRequired: !!field.querySelector('.badge--required'),
        badgeOptional: !!field.querySelector('.badge--optional'),
        help: shownText(field.querySelector(`[id="${id}__help"]`)),
        description: shownText(field.querySelector(`[id="${id}__description"]`)),
        errors: Array.from(field.querySelectorAll(`[id="${id}__error"] li`)).map((li) => (li.textContent ?? '').trim()),
      });
    }
  }
  return out;
}

const pageSessions = new WeakMap<Page, Promise<CDPSession>>();
/** The DevTools session that sees a frame's document: the frame's own when it runs in a process
 *  of its own (the app's origin is not the parent's; made anew, as a navigation may replace it),
 *  else the page's. */
async function sessionOf(page: Page, frame: Frame): Promise<{ session: CDPSession; own: boolean }> {
  if (frame !== page.mainFrame()) {
    const own = await page
      .context()
      .newCDPSession(frame)
      .catch(() => null);
    if (own) return { session: own, own: true };
  }
  let session = pageSessions.get(page);
  if (!session) pageSessions.set(page, (session = page.context().newCDPSession(page)));
  return { session: await session, own: false };
}

interface DomNode {
  backendNodeId: number;
  attributes?: string[];
  children?: DomNode[];
  contentDocument?: DomNode;
  shadowRoots?: DomNode[];
}

/** probe → backendNodeId, over the whole page (frames of the page's process included). */
function probesIn(root: DomNode, found = new Map<string, number>()): Map<string, number> {
  const attributes = root.attributes ?? [];
  for (let i = 0; i < attributes.length; i += 2) if (attributes[i] === 'data-heard-probe') found.set(attributes[i + 1], root.backendNodeId);
  for (const child of [...(root.children ?? []), ...(root.contentDocument ? [root.contentDocument] : []), ...(root.shadowRoots ?? [])]) probesIn(child, found);
  return found;
}

async function axFacts(session: CDPSession, backendNodeId: number): Promise<AxFacts | undefined> {
  const { nodes } = (await session.send('Accessibility.getPartialAXTree', { backendNodeId, fetchRelatives: false })) as {
    nodes: Array<{ ignored?: boolean; role?: { value?: string }; name?: { value?: string }; description?: { value?: string }; properties?: Array<{ name: string; value: { value?: unknown } }> }>;
  };
  const node = nodes[0];
  if (!node || node.ignored) return undefined;
  const property = (name: string) => node.properties?.find((p) => p.name === name)?.value.value;
  return {
    role: String(node.role?.value ?? ''),
    name: String(node.name?.value ?? ''),
    description: String(node.description?.value ?? ''),
    required: property('required') === true,
    invalid: property('invalid') !== undefined && property('invalid') !== 'false',
  };
}

/** A form's field as its schema gives it: label, static requiredness, hint. */
function schemaField(form: string, field: string) {
  const entry = schemaSet().forms[form];
  if (!entry) return undefined;
  const node = fieldNodes(entry.schema)[field] as JsonObject | undefined;
  if (!node) return undefined;
  const ui = (entry.uiSchema[field] ?? {}) as JsonObject;
  const label = (ui['ui:title'] as string | undefined) ?? (node.title as string | undefined);
  const options = (ui['ui:options'] ?? {}) as JsonObject;
  const hint = (ui['ui:help'] as string | undefined) ?? (options.help as string | undefined);
  const description = (ui['ui:description'] as string | undefined) ?? (options.description as string | undefined) ?? (node.description as string | undefined);
  const required = ((entry.schema.required as string[] | undefined) ?? []).includes(field);
  return { label, hint, description, required };
}

const squash = (text: string) => text.replace(/\s+/g, '');

/** Checks every engine form field on the page (and in its frames); returns what was checked and what failed. */
export async function checkFields(page: Page): Promise<{ fields: number; checks: FieldCheck[] }> {
  const checks = Object.fromEntries(Object.entries(CHECKS).map(([id, criteria]) => [id, { id, criteria, checked: 0, failures: [] as string[] }])) as Record<FieldCheck['id'], FieldCheck>;
  const frames: Frame[] = page.frames().filter((frame) => /\/(user|admin)(\/|$)/.test(new URL(frame.url() || 'about:blank', 'http://x').pathname));
  const shown: Array<ShownField & { session: CDPSession; backendNodeId?: number; inner: Map<string, number> }> = [];
  const opened: CDPSession[] = [];
  for (const [index, frame] of frames.entries()) {
    let fields: ShownField[];
    try {
      fields = await frame.evaluate(readFields, `f${index}-`);
    } catch {
      continue; // a frame that navigated away meanwhile has nothing to check
    }
    if (fields.length === 0) continue;
    const { session, own } = await sessionOf(page, frame);
    if (own) opened.push(session);
    const { root } = (await session.send('DOM.getDocument', { depth: -1, pierce: true })) as { root: DomNode };
    const probes = probesIn(root);
    for (const field of fields) shown.push({ ...field, session, backendNodeId: probes.get(field.probe), inner: probes });
  }
  if (shown.length === 0) return { fields: 0, checks: Object.values(checks) };
  for (const field of shown) {
    const where = `${field.form}.${field.field}`;
    const schema = schemaField(field.form, field.field);
    const { session, backendNodeId, inner: probes } = field;
    const ax = backendNodeId === undefined ? undefined : await axFacts(session, backendNodeId);
    if (!schema || !ax) continue;
    const fail = (id: FieldCheck['id'], text: string) => checks[id].failures.push(`${where}: ${text}`);
    // The name holds the label the schema gives (a group's too).
    if (schema.label && field.role !== 'p') {
      checks['name-holds-label'].checked++;
      if (!squash(ax.name).includes(squash(schema.label))) fail('name-holds-label', `name 「${ax.name}」 lacks the label 「${schema.label}」`);
    }
    // Required as the schema and the badge say, and only then. A read-only or disabled field asks
    // nothing of the member now.
    if (!field.readonly && !field.disabled && (field.badgeRequired || field.badgeOptional || schema.required)) {
      checks['required-exposed'].checked++;
      const wanted = field.badgeRequired || (schema.required && !field.badgeOptional);
      // Where the tree has no required state for the role (Chromium gives a select's and a
      // checkbox's none; ARIA gives a group none): 必須 in its name, or, for a group, its controls.
      const stateless = ['group', 'combobox', 'checkbox'].includes(ax.role);
      let exposed = ax.required || (stateless && ax.name.includes(messages.form.required));
      if (!exposed && ax.role === 'group' && field.innerProbes.length > 0) {
        const inner = await Promise.all(field.innerProbes.map((probe) => (probes.has(probe) ? axFacts(session, probes.get(probe)!) : undefined)));
        exposed = inner.every((facts) => facts?.required === true);
      }
      if (exposed !== wanted) fail('required-exposed', `${ax.role} exposed as ${exposed ? 'required' : 'not required'}, shown as ${wanted ? '必須' : '任意'}`);
    }
    // The hint and the description the schema gives, while they show.
    for (const [given, shownText] of [
      [schema.hint, field.help],
      [schema.description, field.description],
    ] as const) {
      if (!given || !shownText) continue;
      checks['hint-in-description'].checked++;
      if (!squash(ax.description).includes(squash(shownText))) fail('hint-in-description', `description 「${ax.description}」 lacks the hint 「${shownText}」`);
    }
    // The error, while it shows; invalid then and only then.
    checks['error-in-description'].checked++;
    if (field.errors.length > 0) {
      if (!ax.invalid) fail('error-in-description', `shows 「${field.errors[0]}」 but is not exposed as invalid`);
      for (const error of field.errors) if (!squash(ax.description).includes(squash(error))) fail('error-in-description', `description 「${ax.description}」 lacks the error shown 「${error}」`);
    } else if (ax.invalid) fail('error-in-description', 'exposed as invalid while it shows no error');
  }
  for (const session of opened) await session.detach().catch(() => undefined);
  for (const frame of frames) await frame.evaluate(() => document.querySelectorAll('[data-heard-probe]').forEach((el) => el.removeAttribute('data-heard-probe'))).catch(() => undefined);
  return { fields: shown.length, checks: Object.values(checks) };
}

/** Ids that more than one element of a document carries (the page's and its frames'): a label,
 *  description or error that points at one of them may name the wrong element. */
export async function duplicateIds(page: Page): Promise<string[]> {
  const found: string[] = [];
  for (const frame of page.frames()) {
    const ids = await frame
      .evaluate(() => {
        const count = new Map<string, number>();
        document.querySelectorAll('[id]').forEach((el) => count.set(el.id, (count.get(el.id) ?? 0) + 1));
        return [...count].filter(([, n]) => n > 1).map(([id, n]) => `#${id} ×${n}`);
      })
      .catch(() => [] as string[]);
    found.push(...ids.map((id) => `${id} in ${new URL(frame.url() || 'about:blank', 'http://x').pathname}`));
  }
  return found;
}
