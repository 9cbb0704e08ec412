// The coded flows' state machine (login, registration STEP1, e-mail change, password reminder):
// the member gives what the code is sent for, the code is mailed, the member enters it, done.
//
//   input ──SEND──▶ sending ──SENT──▶ sent ──VERIFY──▶ verifying ──VERIFIED──▶ done
//     ▲               │                │ ▲                 │
//     └──SEND_FAILED──┘     RESEND ──▶ resending            └──VERIFY_FAILED──▶ sent
//     ◀────────────────── REDO (from sent or done) ──────────
//   sending ──NO_CODE_NEEDED──▶ done   (a device the server trusts logs in without a code)
//   input ──LINKED──▶ sent   (the mail's link opened: the address and a code filled in)
//
// Events a state does not expect are ignored, so a double click or a late answer cannot move
// the flow twice. Pure: the hook (use-coded-flow.ts) runs the effects.
import type { FieldErrors } from '../shared/validation/field-errors';

export type CodedPhase = 'input' | 'sending' | 'sent' | 'resending' | 'verifying' | 'done';

export interface CodedState<I, C> {
  phase: CodedPhase;
  input: Partial<I>;
  code: Partial<C>;
  inputErrors?: FieldErrors;
  codeErrors?: FieldErrors;
  /** The code on its way replaced one this flow had sent to the same address, which no longer works. */
  replaced?: boolean;
  /** The address and code came from the mail's link, not from typing (docs/decisions/015). */
  linked?: boolean;
}

export type CodedEvent<I, C> =
  | { type: 'EDIT_INPUT'; input: Partial<I> }
  | { type: 'EDIT_CODE'; code: Partial<C> }
  | { type: 'SEND' }
  | { type: 'RESEND' }
  | { type: 'SENT'; code?: Partial<C>; replaced?: boolean }
  /** The send was refused: field errors for the input form (or none when a dialog said it). */
  | { type: 'SEND_FAILED'; errors?: FieldErrors }
  /** The mail's link was opened: the input and the code it gave, as if typed (docs/decisions/015). */
  | { type: 'LINKED'; input: Partial<I>; code: Partial<C> }
  /** The server let the member through without a code (login on a trusted device). */
  | { type: 'NO_CODE_NEEDED' }
  | { type: 'VERIFY' }
  | { type: 'VERIFIED' }
  | { type: 'VERIFY_FAILED'; errors?: FieldErrors }
  /** Start again; `input` is what the input form keeps (e.g. the current e-mail address). */
  | { type: 'REDO'; input?: Partial<I> };

export function initialCodedState<I, C>(input: Partial<I> = {}): CodedState<I, C> {
  return { phase: 'input', input, code: {} };
}

/** The phases in which the code step is on the screen. */
export const showsCode = (phase: CodedPhase) => phase === 'sent' || phase === 'resending' || phase === 'verifying';
/** The phases in which a request is under way. */
export const isBusy = (phase: CodedPhase) => phase === 'sending' || phase === 'resending' || phase === 'verifying';

export function codedFlowReducer<I, C>(state: CodedState<I, C>, event: CodedEvent<I, C>): CodedState<I, C> {
  switch (event.type) {
    case 'EDIT_INPUT':
      return state.phase === 'input' ? { ...state, input: event.input } : state;
    case 'EDIT_CODE':
      return state.phase === 'sent' ? { ...state, code: event.code } : state;
    case 'SEND':
      return state.phase === 'input' ? { ...state, phase: 'sending', inputErrors: undefined } : state;
    case 'RESEND':
      return state.phase === 'sent' ? { ...state, phase: 'resending' } : state;
    case 'SENT':
      return state.phase === 'sending' || state.phase === 'resending'
        ? { ...state, phase: 'sent', code: event.code ?? {}, codeErrors: undefined, replaced: !!event.replaced, linked: false }
        : state;
    case 'SEND_FAILED':
      if (state.phase === 'sending') return { ...state, phase: 'input', inputErrors: event.errors };
      return state.phase === 'resending' ? { ...state, phase: 'sent' } : state;
    case 'LINKED':
      return state.phase === 'input' ? { ...state, phase: 'sent', input: event.input, code: event.code, inputErrors: undefined, codeErrors: undefined, linked: true } : state;
    case 'NO_CODE_NEEDED':
      return state.phase === 'sending' ? { ...state, phase: 'done' } : state;
    case 'VERIFY':
      return state.phase === 'sent' ? { ...state, phase: 'verifying', codeErrors: undefined } : state;
    case 'VERIFIED':
      return state.phase === 'verifying' ? { ...state, phase: 'done' } : state;
    case 'VERIFY_FAILED':
      return state.phase === 'verifying' ? { ...state, phase: 'sent', codeErrors: event.errors } : state;
    case 'REDO':
      return state.phase === 'sent' || state.phase === 'done' ? initialCodedState<I, C>(event.input) : state;
  }
}
