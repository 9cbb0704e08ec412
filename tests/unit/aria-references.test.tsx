// @vitest-environment jsdom
// Every form of schemas/forms as the engine renders it (untouched, and with every error shown):
// an aria-describedby or aria-labelledby names only ids that are in the document (a reference to
// an absent id describes nothing, and checkers count it against the page), every group of
// controls — a fieldset, a group, a radio group — has a name, and a <label for> points at a
// control it can label.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, waitFor } from '@testing-library/react';
import { forms } from 'virtual:form-index';
import options from '../../schemas/masters/options.json';
import type { FormModule } from '../../src/engine/SchemaForm';
import type { MasterOption } from '../../src/engine/form-context';
import { FormHarness } from '../support/form-harness';

afterEach(cleanup);

const MASTERS = Object.fromEntries(Object.entries(options).filter(([, list]) => Array.isArray(list))) as Record<string, MasterOption[]>;

/** `attribute="id id"` references on the page whose id is not in the document. */
function danglingReferences(attribute: string): string[] {
  return Array.from(document.querySelectorAll(`[${attribute}]`)).flatMap((el) =>
    (el.getAttribute(attribute) ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .filter((id) => !document.getElementById(id))
      .map((id) => `${el.id || el.getAttribute('name') || el.tagName} → ${id}`),
  );
}

/** The name a group gets from aria-label, aria-labelledby or (a fieldset) its legend. */
function groupName(el: Element): string {
  const label = el.getAttribute('aria-label')?.trim();
  if (label) return label;
  const by = el.getAttribute('aria-labelledby');
  if (by)
    return by
      .split(/\s+/)
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' ')
      .trim();
  if (el.tagName === 'FIELDSET') return el.querySelector(':scope > legend')?.textContent?.trim() ?? '';
  return '';
}

function unnamedGroups(): string[] {
  return Array.from(document.querySelectorAll('fieldset, [role="group"], [role="radiogroup"]'))
    .filter((el) => !groupName(el))
    .map((el) => `${el.tagName.toLowerCase()}#${el.id} ${el.getAttribute('role') ?? ''}`.trim());
}

const LABELABLE = new Set(['INPUT', 'SELECT', 'TEXTAREA', 'BUTTON', 'METER', 'OUTPUT', 'PROGRESS']);
function labelsForNothing(): string[] {
  return Array.from(document.querySelectorAll('label[for]'))
    .filter((label) => !LABELABLE.has(document.getElementById(label.getAttribute('for')!)?.tagName ?? ''))
    .map((label) => `${label.textContent} → ${label.getAttribute('for')}`);
}

const names = Object.keys(forms).sort();

describe('ARIA references and group names in every form', () => {
  it('covers the forms of schemas/forms', () => {
    expect(names.length).toBeGreaterThan(10);
    expect(names).toContain('register-profile');
  });

  it.each(names)('%s: untouched, nothing dangles and every group is named', async (name) => {
    const form = (await forms[name as keyof typeof forms]()) as unknown as FormModule;
    render(<FormHarness form={form} masters={MASTERS} />);
    expect(document.querySelector('form')).toBeTruthy();
    expect(danglingReferences('aria-describedby')).toEqual([]);
    expect(danglingReferences('aria-labelledby')).toEqual([]);
    expect(unnamedGroups()).toEqual([]);
    expect(labelsForNothing()).toEqual([]);
  });

  it.each(names)('%s: with every error shown, the errors are referenced and nothing dangles', async (name) => {
    const form = (await forms[name as keyof typeof forms]()) as unknown as FormModule;
    render(<FormHarness form={form} masters={MASTERS} showErrorsOnOpen />);
    const required = (form.schema.required ?? []) as string[];
    if (required.length) await waitFor(() => expect(document.querySelectorAll('.field__errors li').length).toBeGreaterThan(0));
    expect(danglingReferences('aria-describedby')).toEqual([]);
    expect(unnamedGroups()).toEqual([]);
    // each shown error list is what its control is described by
    for (const list of document.querySelectorAll('[id$="__error"]')) {
      const id = list.id.slice(0, -'__error'.length);
      const described = Array.from(document.querySelectorAll(`[aria-describedby~="${list.id}"]`));
      expect(described.length, `${id}'s errors describe its control`).toBeGreaterThan(0);
    }
  });
});

describe('the register-profile form in particular', () => {
  it('names the gender radio group by its label and describes fields only by their rendered texts', async () => {
    const form = (await forms['register-profile']()) as unknown as FormModule;
    render(<FormHarness form={form} masters={MASTERS} />);
    const gender = document.querySelector('[role="radiogroup"]#root_gender');
    expect(gender?.getAttribute('aria-label')).toBe('性別');
    // help only where the UI schema gives help
    const withHelp = document.getElementById('root_zip_current');
    expect(withHelp?.getAttribute('aria-describedby')).toBe('root_zip_current__help');
    expect(document.getElementById('root_zip_current__help')).toBeTruthy();
    const plain = document.getElementById('root_last_name_kanji');
    expect(plain?.hasAttribute('aria-describedby')).toBe(false);
  });
});
