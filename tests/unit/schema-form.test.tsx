// @vitest-environment jsdom
// The engine's SchemaForm with the login form: each schema message shows under its own field,
// only once the member has left the field or tried to submit; server messages show at once and
// go when their field is edited.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as form from 'virtual:form/login';
import type { RJSFSchema } from '@rjsf/utils';
import messages from '../../messages/ja.json';
import type { FormModule } from '../../src/engine/SchemaForm';
import { FormHarness } from '../support/form-harness';
import { inlineFormModule } from '../support/precompiled';
import { rulesIn } from '../support/schema-rules';

afterEach(cleanup);

/** The login form's own messages, as its schema states them. */
const rules = rulesIn(form.schema);

const fieldErrors = (field: string) =>
  Array.from(document.querySelectorAll(`[data-field="root_${field}"] .field__errors li`)).map((li) => li.textContent);

describe('SchemaForm (login form)', () => {
  it('shows nothing before any interaction', () => {
    render(<FormHarness form={form} />);
    expect(screen.queryAllByRole('alert')).toEqual([]);
    expect(document.querySelector('.error-summary')).toBeNull();
    expect(screen.getByRole('button', { name: 'ログイン' })).toBeTruthy();
  });

  it('on an empty submit, puts each required message under its own field and does not submit', async () => {
    const onSubmit = vi.fn();
    const user = userEvent.setup();
    render(<FormHarness form={form} onSubmit={onSubmit} />);
    await user.click(screen.getByRole('button', { name: 'ログイン' }));
    await waitFor(() => expect(fieldErrors('email')).toEqual([rules.required('email')]));
    expect(fieldErrors('password')).toEqual([rules.required('password')]);
    expect(onSubmit).not.toHaveBeenCalled();
    // One summary above the fields, focused, a link per field; the fields' messages are no
    // live regions of their own.
    const summary = document.querySelector<HTMLElement>('.error-summary')!;
    expect(summary.compareDocumentPosition(document.querySelector('[data-field="root_email"]')!) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(summary));
    expect(Array.from(summary.querySelectorAll('a')).map((a) => a.getAttribute('href'))).toEqual(['#root_email', '#root_password']);
    expect(screen.queryAllByRole('alert')).toEqual([]);
  });

  it('keeps quiet while the member types, and shows the format message once they leave the field', async () => {
    const user = userEvent.setup();
    render(<FormHarness form={form} />);
    const email = screen.getByRole('textbox', { name: /メールアドレス/ });
    await user.type(email, 'taro');
    expect(fieldErrors('email')).toEqual([]);
    await user.tab();
    await waitFor(() => expect(fieldErrors('email')).toEqual([rules.message('email', 'pattern')]));
    expect(fieldErrors('password')).toEqual([]); // not visited yet
    await user.click(email);
    await user.type(email, '@example.com');
    await waitFor(() => expect(fieldErrors('email')).toEqual([]));
  });

  it('submits valid data', async () => {
    const onSubmit = vi.fn();
    const user = userEvent.setup();
    render(<FormHarness form={form} onSubmit={onSubmit} />);
    await user.type(screen.getByRole('textbox', { name: /メールアドレス/ }), 'taro@example.com');
    await user.type(document.getElementById('root_password')!, 'Secret-123');
    await user.click(screen.getByRole('button', { name: 'ログイン' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ email: 'taro@example.com', password: 'Secret-123' }));
  });

  it('shows server messages at once and drops one when its field is edited', async () => {
    const user = userEvent.setup();
    const serverErrors = { email: ['このメールアドレスは登録されていません'], password: ['パスワードが違います'] };
    render(<FormHarness form={form} initial={{ email: 'taro@example.com', password: 'x' }} serverErrors={serverErrors} />);
    expect(fieldErrors('email')).toEqual(['このメールアドレスは登録されていません']);
    expect(fieldErrors('password')).toEqual(['パスワードが違います']);
    await user.type(screen.getByRole('textbox', { name: /メールアドレス/ }), 'm');
    await waitFor(() => expect(fieldErrors('email')).toEqual([]));
    expect(fieldErrors('password')).toEqual(['パスワードが違います']);
  });
});

// Rules no real form uses yet, but the schema contract allows: the engine must still put every
// message under its field.
describe('SchemaForm with other schema shapes', () => {
  let stringRequired: FormModule;
  let unmessaged: FormModule;
  let nested: FormModule;
  beforeAll(async () => {
    const props = { family: { type: 'string', title: '姓' }, given: { type: 'string', title: '名' } };
    stringRequired = await inlineFormModule('t1', { type: 'object', required: ['family', 'given'], properties: props, errorMessage: { required: '必須項目です' } } as RJSFSchema);
    unmessaged = await inlineFormModule('t2', { type: 'object', required: ['family'], properties: props } as RJSFSchema);
    nested = await inlineFormModule('t3', {
      type: 'object',
      properties: {
        address: {
          type: 'object',
          title: '住所',
          required: ['zip'],
          properties: { zip: { type: 'string', title: '郵便番号' } },
          errorMessage: { required: { zip: '郵便番号を入力してください' } },
        },
      },
    } as RJSFSchema);
  });

  const submit = async (form: FormModule, initial?: Record<string, unknown>) => {
    const user = userEvent.setup();
    render(<FormHarness form={form} initial={initial} />);
    await user.click(screen.getByRole('button'));
    await waitFor(() => expect(document.querySelectorAll('.field__errors li').length).toBeGreaterThan(0));
  };

  it('a nested required message shows under the nested field', async () => {
    await submit(nested, { address: {} });
    expect(fieldErrors('address_zip')).toEqual(['郵便番号を入力してください']);
  });

  it('a single string `required` message shows under every missing field', async () => {
    await submit(stringRequired);
    expect(fieldErrors('family'), 'family').toEqual(['必須項目です']);
    expect(fieldErrors('given'), 'given').toEqual(['必須項目です']);
  });

  it('a `required` without a schema message shows the fallback under its field', async () => {
    const user = userEvent.setup();
    render(<FormHarness form={unmessaged} />);
    await user.click(screen.getByRole('button'));
    await waitFor(() => expect(fieldErrors('family')).toEqual([messages.form.fallbackFieldError]));
  });
});
