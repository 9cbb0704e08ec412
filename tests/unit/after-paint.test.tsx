// @vitest-environment jsdom
// A text field paints the key first and commits it to the form after that frame
// (src/engine/after-paint.ts): nothing that reads the form may see data a key behind.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import * as loginForm from 'virtual:form/login';
import * as profileForm from 'virtual:form/register-profile';
import type { FormModule } from '../../src/engine/SchemaForm';
import { FormHarness } from '../support/form-harness';

afterEach(cleanup);

/** The next frame as a browser runs it: its animation callbacks, then a task after its paint. */
const nextFrame = () => act(() => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));

function login() {
  const onData = vi.fn();
  const onSubmit = vi.fn();
  render(<FormHarness form={loginForm as FormModule} onData={onData} onSubmit={onSubmit} />);
  const email = screen.getByRole('textbox', { name: /メールアドレス/ }) as HTMLInputElement;
  const password = document.getElementById('root_password') as HTMLInputElement;
  const committed = () => onData.mock.lastCall?.[0] as Record<string, unknown> | undefined;
  return { email, password, onData, onSubmit, committed };
}

describe('a keystroke is painted first and committed after its frame', () => {
  it('shows the key at once; the form gets it (normalised) after the next frame', async () => {
    const { email, onData, committed } = login();
    fireEvent.change(email, { target: { value: 'a１' } });
    expect(email.value).toBe('a１');
    expect(onData).not.toHaveBeenCalled();
    await nextFrame();
    expect(onData).toHaveBeenCalledTimes(1);
    expect(committed()).toEqual({ email: 'a1' });
    expect(email.value).toBe('a1');
  });

  it('keys typed within one frame are committed once, as the last of them', async () => {
    const { email, onData, committed } = login();
    for (const value of ['t', 'ta', 'tar', 'taro']) fireEvent.change(email, { target: { value } });
    expect(email.value).toBe('taro');
    await nextFrame();
    expect(onData).toHaveBeenCalledTimes(1);
    expect(committed()).toEqual({ email: 'taro' });
  });

  it('a key typed while the one before is being committed stays on screen', async () => {
    const { email, committed } = login();
    fireEvent.change(email, { target: { value: 'ab' } });
    await nextFrame();
    fireEvent.change(email, { target: { value: 'abc' } });
    expect(email.value).toBe('abc');
    expect(committed()).toEqual({ email: 'ab' });
    await nextFrame();
    expect(committed()).toEqual({ email: 'abc' });
  });

  it('a press anywhere commits what waits before its click is handled', () => {
    const { email, committed } = login();
    fireEvent.change(email, { target: { value: 'taro@example.com' } });
    expect(committed()).toBeUndefined();
    fireEvent.pointerDown(document.body);
    expect(committed()).toEqual({ email: 'taro@example.com' });
  });

  it('Enter commits the last key before the form is submitted', () => {
    const { email, password, onSubmit, committed } = login();
    fireEvent.change(email, { target: { value: 'taro@example.com' } });
    fireEvent.change(password, { target: { value: 'secret' } });
    fireEvent.keyDown(password, { key: 'Enter' });
    expect(committed()).toEqual({ email: 'taro@example.com', password: 'secret' });
    fireEvent.submit(password.form!);
    expect(onSubmit).toHaveBeenCalledWith({ email: 'taro@example.com', password: 'secret' });
  });

  it('a submit with nothing before it (e.g. requestSubmit) still sees the last key', () => {
    const { email, password, onSubmit } = login();
    fireEvent.change(email, { target: { value: 'taro@example.com' } });
    fireEvent.change(password, { target: { value: 'secret' } });
    fireEvent.submit(password.form!);
    expect(onSubmit).toHaveBeenCalledWith({ email: 'taro@example.com', password: 'secret' });
  });

  it('leaving the field right after a key: the key is committed first, then the leave-only normalising', async () => {
    const onData = vi.fn();
    render(<FormHarness form={profileForm as FormModule} onData={onData} />);
    const address = screen.getByRole('textbox', { name: /^住所/ }) as HTMLInputElement;
    act(() => address.focus());
    // live: emoji go while typing; on leaving: surrounding spaces too (trim is a leave-only normaliser)
    fireEvent.change(address, { target: { value: '  東京都😀千代田区 ' } });
    fireEvent.blur(address);
    expect(onData.mock.lastCall?.[0]).toMatchObject({ address_current: '東京都千代田区' });
    await nextFrame();
    expect(onData.mock.lastCall?.[0]).toMatchObject({ address_current: '東京都千代田区' });
    expect(address.value).toBe('東京都千代田区');
  });

  it('the page going away keeps the last key', () => {
    const { email, committed } = login();
    fireEvent.change(email, { target: { value: 'taro@example.com' } });
    act(() => {
      window.dispatchEvent(new Event('pagehide'));
    });
    expect(committed()).toEqual({ email: 'taro@example.com' });
  });
});
