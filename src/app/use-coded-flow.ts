// The coded-flow machine (coded-flow.ts) with its effects: each screen configures what sending
// and verifying do and how their failures map to field errors; the hook owns the phase, the
// busy flag, both error sets, the resend countdown, redo and the read-only input.
import { useCallback, useEffect, useMemo, useReducer, useRef } from 'react';
import type { UiSchema } from '@rjsf/utils';
import type { FieldErrors } from '../shared/validation/field-errors';
import { codedFlowReducer, initialCodedState, isBusy, showsCode, type CodedState } from './coded-flow';
import { useCountdown } from './use-countdown';
import { openCodeLink, type CodeLinkPurpose, type OpenedLink } from '../api/verification';

/** A link's key as the server makes them: 256 random bits in URL-safe base64. */
const LINK_KEY = /^[A-Za-z0-9_-]{43}$/;

/** The `key` a mailed link opened this page with, taken off the address so that a reload or the
 *  back button does not open the used link again. */
function takeLinkKey(): string | undefined {
  const url = new URL(window.location.href);
  const key = url.searchParams.get('key') ?? undefined;
  if (key === undefined) return undefined;
  url.searchParams.delete('key');
  window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
  return key;
}

export interface CodedFlowConfig<I, C> {
  /** Sends the code for `input`. Resolves 'no-code' when the server let the member through. */
  send: (input: I) => Promise<void | 'no-code'>;
  /** Checks the code (and whatever the code step carries). */
  verify: (input: Partial<I>, code: C) => Promise<void>;
  /** A refused send: the input form's field errors, or undefined after telling the member otherwise. */
  sendFailed: (failure: unknown) => Promise<FieldErrors | undefined> | FieldErrors | undefined;
  /** A refused code: the code form's field errors, or undefined after telling the member otherwise. */
  verifyFailed: (failure: unknown) => Promise<FieldErrors | undefined> | FieldErrors | undefined;
  /** The code form's data when the code step opens (e.g. the address the code went to). */
  codeFor?: (input: Partial<I>) => Partial<C>;
  /** What the input form keeps on redo (e.g. the current address, which is not the member's input). */
  keepOnRedo?: (input: Partial<I>) => Partial<I>;
  /** Seconds before the code may be sent again; no resend when omitted. */
  resendSeconds?: number;
  /** The input form's fields, made read-only while the code step is open. */
  inputFields: string[];
  initialInput?: Partial<I>;
  /** The input form's id: focus returns to its first field when the member starts again. */
  inputFormId: string;
  /** A flow whose mail carries a link beside the code: opened with `?key=`, the screen asks the
   *  server for the address and a code, and fills both in as if they had been typed. */
  link?: {
    purpose: CodeLinkPurpose;
    input: (email: string) => Partial<I>;
    code: (opened: OpenedLink) => Partial<C>;
    /** The link opened nothing (used, expired, another screen's): tell the member. */
    failed: (failure: unknown) => void;
  };
}

export function useCodedFlow<I extends object, C extends object>(config: CodedFlowConfig<I, C>) {
  const [state, dispatch] = useReducer(codedFlowReducer<I, C>, config.initialInput, (input) => initialCodedState<I, C>(input));
  const { remaining, start, reset } = useCountdown();
  // The latest state and config for the async effects, which outlive the render that began them.
  const latest = useRef({ state, config });
  latest.current = { state, config };
  // One request at a time: a second tap (or the last code digit's auto-submit and a tap on the
  // button) can land before the re-render that disables the button; the reducer ignores its
  // event, and this keeps its request from being sent at all.
  const inFlight = useRef(false);
  // The addresses this flow has had a code sent to: the server keeps one live code per flow and
  // address, so another code to one of them ends the earlier one (the member is told).
  const sentTo = useRef(new Set<string>());
  const once = useCallback(async (work: () => Promise<void>) => {
    if (inFlight.current) return;
    inFlight.current = true;
    try {
      await work();
    } finally {
      inFlight.current = false;
    }
  }, []);

  const sendWith = useCallback(
    (input: I, resend: boolean) =>
      once(async () => {
        const { config: c } = latest.current;
        dispatch({ type: resend ? 'RESEND' : 'SEND' });
        try {
          if ((await c.send(input)) === 'no-code') return dispatch({ type: 'NO_CODE_NEEDED' });
          const to = String((input as { email?: unknown }).email ?? '');
          dispatch({ type: 'SENT', code: c.codeFor?.(input), replaced: sentTo.current.has(to) });
          sentTo.current.add(to);
          if (c.resendSeconds) start(c.resendSeconds);
        } catch (failure) {
          dispatch({ type: 'SEND_FAILED', errors: await c.sendFailed(failure) });
        }
      }),
    [once, start],
  );

  const verify = useCallback(
    (code: C) =>
      once(async () => {
        const { config: c, state: s } = latest.current;
        dispatch({ type: 'VERIFY' });
        try {
          await c.verify(s.input, code);
          dispatch({ type: 'VERIFIED' });
        } catch (failure) {
          dispatch({ type: 'VERIFY_FAILED', errors: await c.verifyFailed(failure) });
        }
      }),
    [once],
  );

  const redo = useCallback(() => {
    const { config: c, state: s } = latest.current;
    dispatch({ type: 'REDO', input: c.keepOnRedo?.(s.input) });
    reset();
    // After the re-render that made the input form editable again.
    window.setTimeout(() => firstField(c.inputFormId)?.focus());
  }, [reset]);

  // A mailed link: once, on opening.
  useEffect(() => {
    const link = latest.current.config.link;
    const key = link ? takeLinkKey() : undefined;
    if (!link || key === undefined) return;
    void once(async () => {
      try {
        // A key cut short or mangled on its way (a mail client wrapping the line) is no link: the
        // member hears that, not the server's "malformed request".
        if (!LINK_KEY.test(key)) throw new WrongLink();
        const opened = await openCodeLink(key);
        if (opened.purpose !== link.purpose) throw new WrongLink();
        dispatch({ type: 'LINKED', input: link.input(opened.email), code: link.code(opened) });
      } catch (failure) {
        link.failed(failure);
      }
    });
  }, [once]);

  const readOnly = useReadOnly(config.inputFields, state);
  return {
    state,
    phase: state.phase,
    busy: isBusy(state.phase),
    codeOpen: showsCode(state.phase),
    /** UI overrides for the input form: read-only once the code is on its way. */
    inputOverrides: readOnly,
    setInput: (input: Partial<I>) => dispatch({ type: 'EDIT_INPUT', input }),
    setCode: (code: Partial<C>) => dispatch({ type: 'EDIT_CODE', code }),
    send: (input: I) => sendWith(input, false),
    resend: () => sendWith(latest.current.state.input as I, true),
    verify,
    redo,
    countdown: remaining,
  };
}

/** A link mailed for another screen's purpose. */
export class WrongLink extends Error {}

function useReadOnly(fields: string[], state: CodedState<unknown, unknown>): UiSchema | undefined {
  const locked = state.phase !== 'input' && state.phase !== 'sending';
  const key = fields.join(',');
  const overrides = useMemo<UiSchema>(() => Object.fromEntries(key.split(',').map((f) => [f, { 'ui:readonly': true }])), [key]);
  return locked ? overrides : undefined;
}

const firstField = (formId: string) =>
  document.getElementById(formId)?.querySelector<HTMLElement>('input:not([readonly]):not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([readonly])');
