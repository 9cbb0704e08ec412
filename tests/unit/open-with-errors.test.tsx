// @vitest-environment jsdom
// A member whose stored profile a tightened rule now refuses is not stranded: with
// showErrorsOnOpen (the edit screen sets it) the form opens showing exactly that field's message,
// takes the member to it, and submits once it is fixed. Without the option, or with data that
// passes, the form opens as calm as ever (ADR 007).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import * as editForm from 'virtual:form/edit-profile';
import options from '../../schemas/masters/options.json';
import type { FormModule } from '../../src/engine/SchemaForm';
import { RevealContext } from '../../src/engine/reveal';
import { masterFields } from '../../src/shared/validation/conditions';
import { sampleData } from '../../src/shared/sample-data';
import type { JsonObject } from '../../src/shared/validation/schema-bundle';
import { FormHarness, catchUp } from '../support/form-harness';

afterEach(cleanup);

const form = editForm as FormModule;
const schema = form.schema as JsonObject;
const masters = options as unknown as Record<string, Array<{ value: string; label: string }>>;
const fields = masterFields(schema);

/** A stored profile the edit form accepts as it is now. */
const stored = () => sampleData(schema, { masters, masterOf: (field) => fields[field] });

/** The purpose detail's rule and message as the form has them (the browser's prepared schema). */
const detail = (schema.properties as Record<string, JsonObject>).purpose_detail;
const minLength = detail.minLength as number;
const minMessage = (detail.errorMessage as Record<string, string>).minLength;
/** A value stored under an earlier, looser rule: one character short of today's minimum. */
const tooShort = '週末は地方で暮らしたい'.repeat(10).slice(0, minLength - 1);

const shownErrors = () =>
  Array.from(document.querySelectorAll('.field--error')).map((field) => ({
    field: field.getAttribute('data-field'),
    messages: Array.from(field.querySelectorAll('.field__errors li')).map((li) => li.textContent),
  }));

async function open(initial: Record<string, unknown>, showErrorsOnOpen: boolean, onSubmit = vi.fn()) {
  const reveal = vi.fn();
  render(
    <RevealContext.Provider value={reveal}>
      <FormHarness form={form} initial={initial} masters={masters} showErrorsOnOpen={showErrorsOnOpen} onSubmit={onSubmit} />
    </RevealContext.Provider>,
  );
  // The first error is focused and revealed just after the errors have rendered.
  await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
  return { reveal, onSubmit };
}

describe('a form opened with stored data a rule now refuses (showErrorsOnOpen)', () => {
  it('the stored sample passes today’s rules (so the cases below test one field)', () => {
    expect(minLength).toBeGreaterThan(1);
    expect(tooShort).toHaveLength(minLength - 1);
  });

  it('shows exactly that field’s message at once, focuses the summary that links to it and asks to bring it into view', async () => {
    const { reveal } = await open({ ...stored(), purpose_detail: tooShort }, true);
    expect(shownErrors()).toEqual([{ field: 'root_purpose_detail', messages: [minMessage] }]);
    const summary = document.querySelector('.error-summary');
    expect(document.activeElement).toBe(summary);
    expect(Array.from(summary!.querySelectorAll('a')).map((a) => a.getAttribute('href'))).toEqual(['#root_purpose_detail']);
    expect(reveal).toHaveBeenCalledTimes(1);
    expect(reveal.mock.calls[0][0]).toBe(summary);
    // its link takes the member to the field
    fireEvent.click(summary!.querySelector('a')!);
    const textarea = screen.getByRole('textbox', { name: /具体的な目的/ });
    expect(document.activeElement).toBe(textarea);
    expect((reveal.mock.calls[1][0] as Element).getAttribute('data-field')).toBe('root_purpose_detail');
  });

  it('once fixed, the message goes and the form submits the fixed value', async () => {
    const { onSubmit } = await open({ ...stored(), purpose_detail: tooShort }, true);
    const textarea = screen.getByRole('textbox', { name: /具体的な目的/ });
    const fixed = `${tooShort}です`;
    fireEvent.input(textarea, { target: { value: fixed } });
    catchUp();
    expect(shownErrors()).toEqual([]);
    fireEvent.submit(textarea.closest('form')!);
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit.mock.calls[0][0]).toMatchObject({ purpose_detail: fixed });
  });

  it('opens calm without the option, even with a refused value (ADR 007)', async () => {
    await open({ ...stored(), purpose_detail: tooShort }, false);
    expect(shownErrors()).toEqual([]);
  });

  it('opens calm with the option when the stored data passes', async () => {
    const { reveal } = await open(stored(), true);
    expect(shownErrors()).toEqual([]);
    expect(reveal).not.toHaveBeenCalled();
  });
});
