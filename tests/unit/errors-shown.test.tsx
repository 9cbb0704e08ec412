// @vitest-environment jsdom
// A field's errors show once the member has left that field (ADR 007), not when they leave
// another field whose name merely starts with its own (purpose_detail is not part of purpose).
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import * as profileForm from 'virtual:form/register-profile';
import options from '../../schemas/masters/options.json';
import type { FormModule } from '../../src/engine/SchemaForm';
import { FormHarness, catchUp } from '../support/form-harness';

afterEach(cleanup);

function setup() {
  render(<FormHarness form={profileForm as FormModule} masters={{ purpose: options.purpose }} />);
}

/** Focuses and leaves the element, as a member passing through it does (typing `text` first). */
function leave(element: HTMLElement, text?: string) {
  act(() => element.focus());
  if (text !== undefined) fireEvent.input(element, { target: { value: text } });
  fireEvent.blur(element);
  catchUp();
}

const errorsOf = (id: string) => Array.from(document.querySelectorAll(`[data-field="${id}"] .field__errors li`)).map((li) => li.textContent);

describe('which field a leave shows errors for', () => {
  it('leaving purpose_detail shows its own errors, not those of the purpose choices', () => {
    setup();
    leave(screen.getByRole('textbox', { name: /^具体的な目的/ }), '短い');
    expect(errorsOf('root_purpose_detail')).not.toEqual([]);
    expect(errorsOf('root_purpose')).toEqual([]);
    leave(within(screen.getByRole('group', { name: /二地域居住の目的/ })).getAllByRole('checkbox')[0]);
    expect(errorsOf('root_purpose')).not.toEqual([]);
  });

  it('leaving the password confirmation does not show the (skipped) password field its errors', () => {
    setup();
    leave(document.getElementById('root_password_confirm')!, 'abc');
    expect(errorsOf('root_password_confirm')).not.toEqual([]);
    expect(errorsOf('root_password')).toEqual([]);
  });
});
