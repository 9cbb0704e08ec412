// @vitest-environment jsdom
// The coded-flow hook sends one request at a time: a second tap before the re-render that
// disables the button (or a tap right after the last digit's auto-submit) sends nothing.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, renderHook } from '@testing-library/react';
import { useCodedFlow, type CodedFlowConfig } from '../../src/app/use-coded-flow';

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
});
