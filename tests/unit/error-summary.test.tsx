// @vitest-environment jsdom
// Issue 21, points 1 and 3, in the engine: live validation judges the value as it will be sent
// (through the field's x-normalise), what is shown of errors never changes under a pointer that
// is pressed (one press, one submit), a refused submit shows one summary at the top of the form
// that takes focus and links to each field, and the page's one polite live region says what a
// field left in error needs.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import * as identityForm from 'virtual:form/reset-identity';
import type { FormModule } from '../../src/engine/SchemaForm';
import { LiveRegion } from '../../src/engine/LiveRegion';
import { TAP_CLICK_MS } from '../../src/engine/after-pointer';
import { runAfterKeyPaint } from '../../src/engine/after-key-paint';
import { normalise } from '../../src/shared/normalise';
import { format } from '../../src/shared/format';
import messages from '../../messages/ja.json';
import type { JsonObject } from '../../src/shared/validation/schema-bundle';
import { FormHarness, catchUp } from '../support/form-harness';
import { rulesIn } from '../support/schema-rules';

afterEach(cleanup);

const form = identityForm as FormModule;
const rules = rulesIn(form.schema);
const fieldErrors = (name: string) => Array.from(document.querySelectorAll(`[data-field="root_${name}"] .field__errors li`)).map((li) => li.textContent);
const summaryLinks = () => Array.from(document.querySelectorAll('.error-summary a')).map((a) => [a.getAttribute('href'), a.textContent]);
const phone = () => document.getElementById('root_phone') as HTMLInputElement;

/** The form with the page's one polite live region beside it; answers that region. */
function renderWithRegion(onSubmit?: () => void): Element {
  render(
    <>
      <FormHarness form={form} {...(onSubmit ? { onSubmit } : {})} />
      <LiveRegion />
    </>,
  );
  return document.querySelector('[aria-live="polite"]')!;
}

async function refusedSubmit(onSubmit = vi.fn()) {
  renderWithRegion(onSubmit);
  fireEvent.submit(document.querySelector('form')!);
  await waitFor(() => expect(fieldErrors('phone')).toEqual([rules.required('phone')]));
  return onSubmit;
}

function type(input: HTMLInputElement, value: string) {
  fireEvent.input(input, { target: { value } });
  catchUp();
}

describe('live validation judges the value as it will be sent', () => {
  it('a phone typed with hyphens is not refused while it is typed (x-normalise removes them)', async () => {
    // The reset phone's rule takes digits only; its normalisers make 03-1234-5678 digits.
    expect(normalise(form.schema as JsonObject, { phone: '03-1234-5678' }).phone).toBe('0312345678');
    await refusedSubmit();
    type(phone(), '03-1234-5678');
    expect(phone().value).toBe('03-1234-5678'); // the member's text stays as typed while in the field
    expect(fieldErrors('phone')).toEqual([]);
    // and a number that is short even without its hyphens still is refused
    type(phone(), '03-1234');
    expect(fieldErrors('phone')).toEqual([rules.message('phone', 'minLength')]);
  });

  it('a submit hands over the data as the schema accepted it (normalised)', async () => {
    const onSubmit = await refusedSubmit();
    type(document.getElementById('root_email') as HTMLInputElement, 'taro@example.com');
    type(document.getElementById('root_birthday') as HTMLInputElement, '1990/4/5');
    type(phone(), '03-1234-5678');
    fireEvent.submit(document.querySelector('form')!);
    expect(onSubmit).toHaveBeenCalledWith({ email: 'taro@example.com', birthday: '1990-04-05', phone: '0312345678' });
  });
});

describe('what is shown of errors holds while a pointer is pressed', () => {
  it('a message that would go at the press goes only once the press is over', async () => {
    await refusedSubmit();
    const summaryBefore = summaryLinks();
    // A key makes the phone valid: the field judges it once the key is painted, so its message
    // goes with the key, before any press (ADR 028).
    fireEvent.input(phone(), { target: { value: '0312345678' } });
    act(() => runAfterKeyPaint());
    expect(fieldErrors('phone')).toEqual([]);
    // The press begins (on the page's next button, say); the form catches up with the key at that
    // moment, which would take the phone out of the summary above.
    fireEvent.pointerDown(document.body);
    catchUp();
    expect(summaryLinks()).toEqual(summaryBefore);
    fireEvent.pointerUp(document.body);
    fireEvent.click(document.body);
    await waitFor(() => expect(fieldErrors('phone')).toEqual([]));
    expect(summaryLinks().map(([href]) => href)).toEqual(['#root_email', '#root_birthday']);
  });

  it('the summary stays while the press that fixes its last error is under way, and that one press submits', async () => {
    const onSubmit = await refusedSubmit();
    type(document.getElementById('root_email') as HTMLInputElement, 'taro@example.com');
    type(document.getElementById('root_birthday') as HTMLInputElement, '1990/4/5');
    fireEvent.input(phone(), { target: { value: '03-1234-5678' } });
    expect(summaryLinks().map(([href]) => href)).toEqual(['#root_phone']);
    // The press begins: the form catches up and has no error left. rjsf unmounts its error list
    // then; the summary above the button must not go (the button would move under the pointer).
    fireEvent.pointerDown(document.body);
    catchUp();
    expect(summaryLinks().map(([href]) => href)).toEqual(['#root_phone']);
    fireEvent.pointerUp(document.body);
    fireEvent.submit(document.querySelector('form')!);
    expect(onSubmit).toHaveBeenCalledTimes(1);
    fireEvent.click(document.body);
    await waitFor(() => expect(document.querySelector('.error-summary')).toBeNull());
  });
});

describe('a tap holds what is shown until its click', () => {
  it('the field a tap leaves blurs after pointerup (at the mousedown the browser makes of the tap): its message waits for the click', async () => {
    renderWithRegion();
    act(() => phone().focus());
    type(phone(), '123');
    const tap = { pointerType: 'touch' };
    fireEvent.pointerDown(document.body, tap);
    fireEvent.pointerUp(document.body, tap);
    fireEvent.blur(phone());
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(fieldErrors('phone')).toEqual([]);
    fireEvent.click(document.body);
    await waitFor(() => expect(fieldErrors('phone')).toEqual([rules.message('phone', 'minLength')]));
  });

  it('a tap that ends in no click holds them no longer than TAP_CLICK_MS', async () => {
    render(<FormHarness form={form} />);
    act(() => phone().focus());
    type(phone(), '123');
    fireEvent.pointerDown(document.body, { pointerType: 'touch' });
    fireEvent.pointerUp(document.body, { pointerType: 'touch' });
    fireEvent.blur(phone());
    await waitFor(() => expect(fieldErrors('phone')).toEqual([rules.message('phone', 'minLength')]), { timeout: TAP_CLICK_MS + 500 });
  });
});

describe('a refused submit', () => {
  it('shows one summary at the top, focused, with a link to each field; no field message is an alert', async () => {
    await refusedSubmit();
    const summary = document.querySelector('.error-summary')!;
    expect(summary.compareDocumentPosition(document.querySelector('[data-field="root_email"]')!) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(summary));
    // Each link says what its field needs (its message; the label too when the message does not
    // name the field).
    const links = summaryLinks();
    expect(links.map(([href]) => href)).toEqual(['#root_email', '#root_birthday', '#root_phone']);
    ['email', 'birthday', 'phone'].forEach((name, i) => expect(links[i][1]).toContain(rules.required(name)));
    expect(screen.queryAllByRole('alert')).toEqual([]);
    expect(document.querySelectorAll('[role="status"], [aria-live]')).toHaveLength(1);
    // Focused, it is heard whole: a named group whose name (its heading) says how many fields are
    // in error and whose description is the list of them; no colour is named (none is heard).
    expect(summary.getAttribute('role')).toBe('group');
    const heading = document.getElementById(summary.getAttribute('aria-labelledby')!)!;
    expect(heading.tagName).toBe('H2');
    expect(heading.textContent).toBe(format(messages.form.errorSummary, { count: 3 }));
    expect(heading.textContent).not.toMatch(/赤|red/i);
    const description = document.getElementById(summary.getAttribute('aria-describedby')!)!.textContent;
    links.forEach(([, text]) => expect(description).toContain(text));
    fireEvent.click(screen.getByRole('link', { name: rules.required('phone') }));
    expect(document.activeElement).toBe(phone());
  });

  it('a field left in error is said once through the one polite live region', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const region = renderWithRegion();
      act(() => phone().focus());
      type(phone(), '123');
      fireEvent.blur(phone());
      await act(() => vi.advanceTimersByTimeAsync(200));
      expect(region.textContent).toContain(rules.message('phone', 'minLength'));
      expect(screen.queryAllByRole('alert')).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('fields only passed through say nothing: nothing is shown for them (issue 35, point 1)', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const region = renderWithRegion();
      // Tabbing through the untouched form: each field is focused and left, nothing typed.
      for (const id of ['root_email', 'root_birthday', 'root_phone']) {
        const input = document.getElementById(id) as HTMLInputElement;
        act(() => input.focus());
        fireEvent.blur(input);
        await act(() => vi.advanceTimersByTimeAsync(100));
      }
      await act(() => vi.advanceTimersByTimeAsync(200));
      expect(['email', 'birthday', 'phone'].flatMap(fieldErrors)).toEqual([]);
      expect(region.textContent).toBe('');
    } finally {
      vi.useRealTimers();
    }
  });
});
