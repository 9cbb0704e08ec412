// @vitest-environment jsdom
// A keystroke is judged by its own field and handed to the form when the member pauses
// (src/engine/catch-up.ts, ADR 028): the field's message and the typed text follow every key
// without the form re-running, and nothing that reads the form (a press, Enter, a submit, the page
// going away or asking to) ever sees data a key behind.
import { Profiler, useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { hashForSchema } from '@rjsf/utils';
import * as loginForm from 'virtual:form/login';
import * as profileForm from 'virtual:form/register-profile';
import { SchemaForm, type FormModule } from '../../src/engine/SchemaForm';
import { CATCH_UP_MS } from '../../src/engine/catch-up';
import { AFTER_PAINT_BACKSTOP_MS, runAfterKeyPaint } from '../../src/engine/after-key-paint';
import type { FieldValidator } from '../../src/engine/field-verdict';
import { useLeaveWarning } from '../../src/app/use-session-draft';
import { FormHarness } from '../support/form-harness';
import { rulesIn } from '../support/schema-rules';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const login = loginForm as FormModule;
const rules = rulesIn(login.schema);
/** The member pausing for `ms` (default: long enough for the form to catch up). */
const pause = (ms = CATCH_UP_MS) => act(() => vi.advanceTimersByTime(ms));
/** A key, and its paint: the field's verdict is worked out once the key is painted. */
const type = (input: HTMLElement, value: string) => {
  fireEvent.input(input, { target: { value } });
  act(() => runAfterKeyPaint());
};
const errorsOf = (name: string) => Array.from(document.querySelectorAll(`[data-field="root_${name}"] .field__errors li`)).map((li) => li.textContent);

/** The login form, its validators counted: the form's own (run whenever the form re-runs) and each field's. */
function setup(initial?: Record<string, unknown>) {
  const calls = { form: 0, fields: 0 };
  // a validator reports its errors on itself (ajv's `validate.errors`): the count passes them on
  const counted = <F extends (...args: never[]) => unknown>(fn: F, count: () => void): F =>
    Object.defineProperty((...args: never[]) => (count(), fn(...args)), 'errors', {
      get: () => (fn as unknown as FieldValidator).errors,
      set: (errors: FieldValidator['errors']) => ((fn as unknown as FieldValidator).errors = errors),
    }) as unknown as F;
  const root = hashForSchema(login.schema);
  const form: FormModule = {
    ...login,
    validateFns: { ...login.validateFns, [root]: counted(login.validateFns[root], () => calls.form++) },
    fieldValidateFns: Object.fromEntries(Object.entries(login.fieldValidateFns ?? {}).map(([name, fn]) => [name, counted(fn, () => calls.fields++)])),
  };
  const onData = vi.fn();
  const onSubmit = vi.fn();
  render(<FormHarness form={form} initial={initial} onData={onData} onSubmit={onSubmit} />);
  const email = screen.getByRole('textbox', { name: /メールアドレス/ }) as HTMLInputElement;
  const password = document.getElementById('root_password') as HTMLInputElement;
  const committed = () => onData.mock.lastCall?.[0] as Record<string, unknown> | undefined;
  return { email, password, onData, onSubmit, committed, calls };
}

describe('a keystroke is judged by its field; the form catches up when the member pauses', () => {
  it('shows the key at once, as it will be kept (normalised); the form gets it once the member pauses', () => {
    const { email, onData, committed } = setup();
    type(email, 'a１');
    expect(email.value).toBe('a1');
    pause(CATCH_UP_MS - 1);
    expect(onData).not.toHaveBeenCalled();
    pause(1);
    expect(onData).toHaveBeenCalledTimes(1);
    expect(committed()).toEqual({ email: 'a1' });
    expect(email.value).toBe('a1');
  });

  it('keys typed without a pause are committed once, as the last of them; each key starts the pause again', () => {
    const { email, onData, committed } = setup();
    for (const value of ['t', 'ta', 'tar', 'taro']) {
      type(email, value);
      pause(CATCH_UP_MS - 1);
    }
    expect(email.value).toBe('taro');
    expect(onData).not.toHaveBeenCalled();
    pause(1);
    expect(onData).toHaveBeenCalledTimes(1);
    expect(committed()).toEqual({ email: 'taro' });
  });

  it('a key runs the field’s own validator, never the form’s', () => {
    const { email, calls } = setup();
    act(() => email.focus());
    const before = calls.form;
    for (const value of ['t', 'ta', 'taro@', 'taro@example.com']) type(email, value);
    expect(calls.form).toBe(before);
    expect(calls.fields).toBe(4);
    pause();
    expect(calls.form).toBeGreaterThan(before);
  });

  it('the field’s message follows every key before the form has it (once the field was left)', () => {
    const { email, onData } = setup({ password: 'secret' });
    act(() => email.focus());
    type(email, 'taro');
    // not yet left: nothing shouts while the member is still typing (ADR 007)
    expect(errorsOf('email')).toEqual([]);
    fireEvent.blur(email);
    expect(errorsOf('email')).toEqual([rules.message('email', 'pattern')]);
    act(() => email.focus());
    onData.mockClear();
    type(email, 'taro@example.com');
    expect(errorsOf('email')).toEqual([]);
    expect(email.getAttribute('aria-invalid')).toBe('false');
    type(email, '');
    expect(errorsOf('email')).toEqual([rules.required('email')]);
    expect(email.getAttribute('aria-invalid')).toBe('true');
    type(email, 'taro@');
    expect(errorsOf('email')).toEqual([rules.message('email', 'pattern')]);
    expect(onData).not.toHaveBeenCalled();
    pause();
    // the form caught up and says the same
    expect(onData).toHaveBeenCalledTimes(1);
    expect(errorsOf('email')).toEqual([rules.message('email', 'pattern')]);
  });

  it('the password checklist follows every key before the form has the password', () => {
    const onData = vi.fn();
    render(<FormHarness form={profileForm as FormModule} onData={onData} />);
    onData.mockClear();
    const password = document.getElementById('root_password') as HTMLInputElement;
    const ticked = () => document.querySelectorAll('.checklist__item--ok').length;
    expect(ticked()).toBe(0);
    type(password, 'a');
    expect(ticked()).toBe(2); // a lower-case letter; no 8 of the same in a row
    type(password, 'aA1!bcde');
    expect(ticked()).toBe(6);
    type(password, '');
    expect(ticked()).toBe(0);
    type(password, 'aA');
    expect(ticked()).toBe(3);
    expect(onData).not.toHaveBeenCalled();
    pause();
    expect(onData.mock.lastCall?.[0]).toMatchObject({ password: 'aA' });
    expect(ticked()).toBe(3);
  });

  it('a server message goes with the first key in its field (typing is not leaving: no message of its own yet)', () => {
    const onData = vi.fn();
    render(<FormHarness form={login} serverErrors={{ email: ['taken'] }} onData={onData} />);
    const email = screen.getByRole('textbox', { name: /メールアドレス/ }) as HTMLInputElement;
    expect(errorsOf('email')).toEqual(['taken']);
    act(() => email.focus());
    type(email, 'taro');
    expect(errorsOf('email')).toEqual([]);
    expect(email.getAttribute('aria-invalid')).toBe('false');
    pause();
    expect(errorsOf('email')).toEqual([]);
    fireEvent.blur(email);
    expect(errorsOf('email')).toEqual([rules.message('email', 'pattern')]);
  });

  it('the field’s verdict waits for the key’s paint: the character at once, the message in the frame after', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame'] });
    const { email } = setup();
    act(() => email.focus());
    type(email, 'taro');
    fireEvent.blur(email);
    act(() => email.focus());
    expect(errorsOf('email')).toEqual([rules.message('email', 'pattern')]);
    fireEvent.input(email, { target: { value: 'taro@example.com' } });
    expect(email.value).toBe('taro@example.com');
    expect(errorsOf('email')).toEqual([rules.message('email', 'pattern')]); // not before the paint
    act(() => vi.advanceTimersToNextFrame()); // the frame: its animation callback queues the verdict
    act(() => vi.advanceTimersByTime(1)); // just after the paint (a 0 ms timeout set in a fake frame is due 1 ms on)
    expect(errorsOf('email')).toEqual([]);
    // no frame comes (a frame out of view): the verdict comes all the same
    fireEvent.input(email, { target: { value: 'taro@' } });
    act(() => vi.advanceTimersByTime(AFTER_PAINT_BACKSTOP_MS));
    expect(errorsOf('email')).toEqual([rules.message('email', 'pattern')]);
  });

  it('a key that changes no message renders nothing: the input itself holds what is typed', () => {
    let commits = 0;
    const onData = vi.fn();
    render(
      <Profiler id="form" onRender={() => commits++}>
        <FormHarness form={login} onData={onData} />
      </Profiler>,
    );
    const email = screen.getByRole('textbox', { name: /メールアドレス/ }) as HTMLInputElement;
    act(() => email.focus());
    type(email, 't'); // the field's first verdict (not an address yet): its template shows it
    const before = commits;
    for (const value of ['ta', 'tar', 'taro']) type(email, value);
    expect(commits).toBe(before);
    expect(email.value).toBe('taro');
    // the verdict changes (an address now): the field's template renders, once
    type(email, 'taro@example.com');
    expect(commits).toBe(before + 1);
    pause();
    expect(onData.mock.lastCall?.[0]).toEqual({ email: 'taro@example.com' });
    expect(email.value).toBe('taro@example.com');
  });

  it('a key leaves the input’s attributes alone (React does not "restore" it: no style to recompute before the paint)', () => {
    const { email, password } = setup();
    for (const input of [email, password]) {
      act(() => input.focus());
      type(input, 'a'); // the field's first verdict: its template renders once
      const changed: string[] = [];
      const watch = new MutationObserver((records) => changed.push(...records.map((record) => record.attributeName!)));
      watch.observe(input, { attributes: true });
      for (const value of ['ab', 'abc', 'abcd']) type(input, value);
      changed.push(...watch.takeRecords().map((record) => record.attributeName!));
      watch.disconnect();
      expect(changed).toEqual([]);
      expect(input.value).toBe('abcd');
    }
  });

  it('a key rewritten by a normaliser keeps the caret where it was typed', () => {
    render(<FormHarness form={profileForm as FormModule} />);
    const name = document.getElementById('root_last_name_alphabet') as HTMLInputElement;
    act(() => name.focus());
    type(name, 'TAKA');
    // a full-width Ｎ typed after "TA": kept as half width, the caret after it, not at the end
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(name, 'TAＮKA');
    name.setSelectionRange(3, 3);
    fireEvent.input(name);
    expect(name.value).toBe('TANKA');
    expect([name.selectionStart, name.selectionEnd]).toEqual([3, 3]);
  });

  it('a key typed while the one before is being committed stays on screen', () => {
    const { email, committed } = setup();
    type(email, 'ab');
    pause();
    type(email, 'abc');
    expect(email.value).toBe('abc');
    expect(committed()).toEqual({ email: 'ab' });
    pause();
    expect(committed()).toEqual({ email: 'abc' });
  });
});

describe('nothing reads the form a key behind', () => {
  it('a press anywhere commits what waits before its click is handled', () => {
    const { email, committed } = setup();
    type(email, 'taro@example.com');
    expect(committed()).toBeUndefined();
    fireEvent.pointerDown(document.body);
    expect(committed()).toEqual({ email: 'taro@example.com' });
  });

  it('Enter commits the last key before the form is submitted, which sends what was typed', () => {
    const { email, password, onSubmit, committed } = setup();
    type(email, 'taro@example.com');
    type(password, 'secret');
    fireEvent.keyDown(password, { key: 'Enter' });
    expect(committed()).toEqual({ email: 'taro@example.com', password: 'secret' });
    fireEvent.submit(password.form!);
    expect(onSubmit).toHaveBeenCalledWith({ email: 'taro@example.com', password: 'secret' });
  });

  it('a submit with nothing before it (e.g. requestSubmit) still sees the last key', () => {
    const { email, password, onSubmit } = setup();
    type(email, 'taro@example.com');
    type(password, 'secret');
    fireEvent.submit(password.form!);
    expect(onSubmit).toHaveBeenCalledWith({ email: 'taro@example.com', password: 'secret' });
  });

  it('leaving the field right after a key: the key is committed first, then the leave-only normalising', () => {
    const onData = vi.fn();
    render(<FormHarness form={profileForm as FormModule} onData={onData} />);
    const address = screen.getByRole('textbox', { name: /^住所/ }) as HTMLInputElement;
    act(() => address.focus());
    // live: emoji go while typing; on leaving: surrounding spaces too (trim is a leave-only normaliser)
    type(address, '  東京都😀千代田区 ');
    expect(address.value).toBe('  東京都千代田区 ');
    fireEvent.blur(address);
    expect(onData.mock.lastCall?.[0]).toMatchObject({ address_current: '東京都千代田区' });
    pause();
    expect(onData.mock.lastCall?.[0]).toMatchObject({ address_current: '東京都千代田区' });
    expect(address.value).toBe('東京都千代田区');
  });

  it.each([
    ['the page going away', () => window.dispatchEvent(new Event('pagehide'))],
    ['the tab being hidden', () => document.dispatchEvent(new Event('visibilitychange'))],
  ])('%s keeps the last key', (_, event) => {
    const { email, committed } = setup();
    type(email, 'taro@example.com');
    act(event);
    expect(committed()).toEqual({ email: 'taro@example.com' });
  });

  it('a page asked to unload right after the first key warns (its data has the key by then)', () => {
    function Screen() {
      const [data, setData] = useState<Record<string, unknown>>({});
      useLeaveWarning(Object.values(data).some((value) => value !== undefined));
      return <SchemaForm form={login} formData={data} onChange={setData} onSubmit={() => undefined} />;
    }
    render(<Screen />);
    const unload = () => {
      const event = new Event('beforeunload', { cancelable: true });
      act(() => void window.dispatchEvent(event));
      return event.defaultPrevented;
    };
    expect(unload()).toBe(false);
    type(screen.getByRole('textbox', { name: /メールアドレス/ }), 't');
    expect(unload()).toBe(true);
  });

  it('every text input of registration STEP2 judges its own keys (each has a validator of its own)', () => {
    const profile = profileForm as FormModule;
    render(<FormHarness form={profile} masters={{}} />);
    // (the birthday's year, month and day boxes are one field's parts: DatePartsWidget commits the date)
    const inputs = Array.from(document.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input.input:not([id*="__"]), textarea'));
    expect(inputs.length).toBeGreaterThan(8);
    const names = inputs.map((input) => input.id.replace(/^root_/, ''));
    expect(names.filter((name) => !profile.fieldValidateFns?.[name])).toEqual([]);
  });
});
