// @vitest-environment jsdom
// The coded-flow hook sends one request at a time: a second tap before the re-render that
// disables the button (or a tap right after the last digit's auto-submit) sends nothing.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, renderHook } from '@testing-library/react';
import { useCodedFlow, WrongLink, type CodedFlowConfig } from '../../src/app/use-coded-flow';

type I = { email: string };
type C = { code: string };

afterEach(cleanup);

function setUp() {
  let finishVerify!: () => void;
  let finishSend!: () => void;
  const config: CodedFlowConfig<I, C> = {
    send: vi.fn(() => new Promise<void>((resolve) => (finishSend = resolve))),
    verify: vi.fn(() => new Promise<void>((resolve) => (finishVerify = resolve))),
    sendFailed: () => undefined,
    verifyFailed: () => undefined,
    inputFields: ['email'],
    inputFormId: 'input-form',
  };
  const hook = renderHook(() => useCodedFlow<I, C>(config));
  return { config, hook, finishSend: () => finishSend(), finishVerify: () => finishVerify() };
}

describe('useCodedFlow', () => {
  it('sends the code once for two taps in a row', async () => {
    const { config, hook, finishSend } = setUp();
    await act(async () => {
      void hook.result.current.send({ email: 'a@example.com' });
      void hook.result.current.send({ email: 'a@example.com' });
    });
    expect(config.send).toHaveBeenCalledTimes(1);
    await act(async () => finishSend());
    expect(hook.result.current.phase).toBe('sent');
  });

  it('checks the code once when the auto-submit and a tap land together', async () => {
    const { hook, config, finishSend, finishVerify } = setUp();
    await act(async () => {
      void hook.result.current.send({ email: 'a@example.com' });
    });
    await act(async () => finishSend());
    const verify = hook.result.current.verify;
    await act(async () => {
      void verify({ code: '12345' });
      void verify({ code: '12345' });
    });
    expect(config.verify).toHaveBeenCalledTimes(1);
    await act(async () => finishVerify());
    expect(hook.result.current.phase).toBe('done');
  });

  // The server keeps one live code per flow and address: a second code to the same address ends
  // the first, and the flow says so (CodeEntry shows messages.codes.replaced beside its notice).
  it('marks a code that replaced an earlier one to the same address, after a resend or a redo', async () => {
    const { hook, finishSend } = setUp();
    const sendTo = async (email: string, resend = false) => {
      if (!resend) act(() => hook.result.current.setInput({ email }));
      await act(async () => {
        void (resend ? hook.result.current.resend() : hook.result.current.send({ email }));
      });
      await act(async () => finishSend());
      return hook.result.current.state.replaced;
    };
    expect(await sendTo('a@example.com')).toBe(false);
    expect(await sendTo('a@example.com', true)).toBe(true);
    act(() => hook.result.current.redo());
    expect(await sendTo('b@example.com')).toBe(false); // another address: a@'s code is not b@'s
    act(() => hook.result.current.redo());
    expect(await sendTo('a@example.com')).toBe(true);
  });
});

describe('useCodedFlow with a mailed link', () => {
  const linkConfig = (failed: (failure: unknown) => void): CodedFlowConfig<I, C> => ({
    send: vi.fn(async () => undefined),
    verify: vi.fn(async () => undefined),
    sendFailed: () => undefined,
    verifyFailed: () => undefined,
    inputFields: ['email'],
    inputFormId: 'input-form',
    link: { purpose: 'password_change', input: (email) => ({ email }), code: ({ code }) => ({ code }), failed },
  });

  it('a key cut short is told as a link that opens nothing, asks the server nothing, and leaves the address', async () => {
    window.history.replaceState(null, '', '/user/password_reminder?key=short');
    const asked = vi.spyOn(globalThis, 'fetch');
    const failed = vi.fn();
    const hook = renderHook(() => useCodedFlow<I, C>(linkConfig(failed)));
    await vi.waitFor(() => expect(failed).toHaveBeenCalledTimes(1));
    expect(failed.mock.calls[0]![0]).toBeInstanceOf(WrongLink);
    expect(asked).not.toHaveBeenCalled();
    expect(window.location.search).toBe('');
    expect(hook.result.current.phase).toBe('input');
    asked.mockRestore();
  });
});
