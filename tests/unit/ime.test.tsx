// @vitest-environment jsdom
// Text inputs during IME composition (Japanese kana-to-kanji input): the half-typed text is
// neither committed to the form data, nor normalised, nor validated until compositionend.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import * as form from 'virtual:form/login';
import { FormHarness, catchUp } from '../support/form-harness';
import { rulesIn } from '../support/schema-rules';

afterEach(cleanup);

/** The login form: its e-mail field's schema normalises (canonicalEmail: NFKC turns a
 *  full-width digit half-width), so normalising is visible. */
function setup(initial?: Record<string, unknown>) {
  const onData = vi.fn();
  render(<FormHarness form={form} initial={initial} onData={onData} />);
  const email = screen.getByRole('textbox', { name: /メールアドレス/ }) as HTMLInputElement;
  const committed = () => (onData.mock.lastCall?.[0] as { email?: string } | undefined)?.email;
  return { email, onData, committed };
}

const errorsShown = () => Array.from(document.querySelectorAll('.field__errors li')).map((el) => el.textContent);

describe('IME composition in a text field (login form)', () => {
  it('does not commit, normalise or validate while composing; commits normalised on compositionend', () => {
    const { email, onData, committed } = setup({ email: 'taro@example.com', password: 'secret' });
    // the member has been in the field and left it: its errors would show from now on
    act(() => email.focus());
    fireEvent.blur(email);
    expect(errorsShown()).toEqual([]);
    act(() => email.focus());

    fireEvent.compositionStart(email, { data: '' });
    fireEvent.input(email, { target: { value: 'taro@example.comた' } });
    fireEvent.input(email, { target: { value: 'taro@example.com田' } });
    fireEvent.input(email, { target: { value: 'taro@example.com田１' } });
    // the draft is shown as typed, nothing reached the form
    expect(email.value).toBe('taro@example.com田１');
    expect(onData).not.toHaveBeenCalled();
    expect(errorsShown()).toEqual([]);

    fireEvent.compositionEnd(email, { data: '田１' });
    // committed, normalised (full-width digit to half width), and now validated
    expect(committed()).toBe('taro@example.com田1');
    expect(email.value).toBe('taro@example.com田1');
    expect(errorsShown()).toEqual([rulesIn(form.schema).message('email', 'pattern')]);
  });

  it('a composition that ends in a valid value shows no error', () => {
    const { email, committed } = setup({ password: 'secret' });
    act(() => email.focus());
    fireEvent.blur(email);
    act(() => email.focus());
    fireEvent.compositionStart(email);
    fireEvent.input(email, { target: { value: 'ｔ' } });
    expect(errorsShown()).toEqual([]);
    fireEvent.input(email, { target: { value: 'taro@example.com' } });
    fireEvent.compositionEnd(email);
    expect(committed()).toBe('taro@example.com');
    expect(errorsShown()).toEqual([]);
  });

  it('commits (normalised) on every keystroke outside composition', () => {
    const { email, onData, committed } = setup();
    fireEvent.input(email, { target: { value: 'a１' } });
    catchUp();
    expect(onData).toHaveBeenCalledTimes(1);
    expect(committed()).toBe('a1');
    expect(email.value).toBe('a1');
  });

  it('an emptied field is committed as undefined, so the required message applies', () => {
    const { email, committed } = setup({ email: 'x', password: 'secret' });
    fireEvent.input(email, { target: { value: '' } });
    catchUp();
    expect(committed()).toBeUndefined();
  });
});
