// @vitest-environment jsdom
// Agreement checkboxes (register-terms `agree`, register-profile `condition_checked`) must be
// ticked by the member: unticked when the form opens, and refused until ticked.
//
// Regression: both schemas say `"const": true` (fields.json#/$defs/agreement and /consent), and
// rjsf by default turns a `const` into a default value, so both boxes opened ticked and an
// untouched terms form submitted { agree: true }. Fixed in a39d7f8 (SchemaForm passes
// experimental_defaultFormStateBehavior.constAsDefaults = 'never').
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as termsForm from 'virtual:form/register-terms';
import * as profileForm from 'virtual:form/register-profile';
import type { FormModule } from '../../src/engine/SchemaForm';
import { FormHarness } from '../support/form-harness';
import { rulesIn } from '../support/schema-rules';

afterEach(cleanup);

/** What each form says when its box is left unticked (its schema's own messages). */
const AGREE_REQUIRED = rulesIn((termsForm as FormModule).schema).required('agree');
const CONDITION_REQUIRED = rulesIn((profileForm as FormModule).schema).required('condition_checked');

const fieldErrors = (field: string) =>
  Array.from(document.querySelectorAll(`[data-field="root_${field}"] .field__errors li`)).map((li) => li.textContent);

function setup(form: FormModule) {
  const onData = vi.fn();
  const onSubmit = vi.fn();
  const user = userEvent.setup();
  render(<FormHarness form={form} onData={onData} onSubmit={onSubmit} />);
  const submit = () => user.click(document.querySelector<HTMLButtonElement>('button[type="submit"]')!);
  return { user, onData, onSubmit, submit };
}

describe('register-terms: agree', () => {
  it('opens unticked, and its value is not set before the member ticks it', () => {
    const { onData } = setup(termsForm as FormModule);
    expect((screen.getByRole('checkbox', { name: /利用規約に同意する/ }) as HTMLInputElement).checked).toBe(false);
    for (const [data] of onData.mock.calls) expect((data as { agree?: boolean }).agree).not.toBe(true);
  });

  it('an untouched form is not submitted and shows the agreement\'s required message', async () => {
    const { onSubmit, submit } = setup(termsForm as FormModule);
    await submit();
    await waitFor(() => expect(fieldErrors('agree')).toEqual([AGREE_REQUIRED]));
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('submits once ticked', async () => {
    const { user, onSubmit, submit } = setup(termsForm as FormModule);
    const box = screen.getByRole('checkbox', { name: /利用規約に同意する/ }) as HTMLInputElement;
    if (!box.checked) await user.click(box);
    await submit();
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ agree: true }));
  });
});

describe('register-profile: condition_checked', () => {
  it('opens unticked, and its value is not set before the member ticks it', () => {
    const { onData } = setup(profileForm as FormModule);
    const box = screen.getByRole('checkbox', { name: /帰省・単身赴任・介護を目的とした申し込みではありません/ }) as HTMLInputElement;
    expect(box.checked).toBe(false);
    for (const [data] of onData.mock.calls) expect((data as { condition_checked?: boolean }).condition_checked).not.toBe(true);
  });

  it('an untouched form shows the required message under it on submit', async () => {
    const { submit } = setup(profileForm as FormModule);
    await submit();
    await waitFor(() => expect(fieldErrors('condition_checked')).toEqual([CONDITION_REQUIRED]));
  });
});
