// The coded-flow machine on its own: every transition, and every event a state must ignore.
import { describe, expect, it } from 'vitest';
import { codedFlowReducer, initialCodedState, isBusy, showsCode, type CodedEvent, type CodedPhase, type CodedState } from '../../src/app/coded-flow';

type I = { email: string };
type C = { code: string };
const at = (phase: CodedPhase, extra: Partial<CodedState<I, C>> = {}): CodedState<I, C> => ({ ...initialCodedState<I, C>({ email: 'a@example.com' }), phase, ...extra });
const run = (state: CodedState<I, C>, ...events: CodedEvent<I, C>[]) => events.reduce(codedFlowReducer<I, C>, state);

const ALL_EVENTS: CodedEvent<I, C>[] = [
  { type: 'EDIT_INPUT', input: { email: 'b@example.com' } },
  { type: 'EDIT_CODE', code: { code: '12345' } },
  { type: 'SEND' },
  { type: 'RESEND' },
  { type: 'SENT' },
  { type: 'SEND_FAILED', errors: { email: ['x'] } },
  { type: 'NO_CODE_NEEDED' },
  { type: 'VERIFY' },
  { type: 'VERIFIED' },
  { type: 'VERIFY_FAILED', errors: { code: ['y'] } },
  { type: 'REDO' },
  { type: 'LINKED', input: { email: 'c@example.com' }, code: { code: '54321' } },
];

/** Which events each phase answers, and the phase it goes to. */
const TABLE: Record<CodedPhase, Partial<Record<CodedEvent<I, C>['type'], CodedPhase>>> = {
  input: { EDIT_INPUT: 'input', SEND: 'sending', LINKED: 'sent' },
  sending: { SENT: 'sent', SEND_FAILED: 'input', NO_CODE_NEEDED: 'done' },
  sent: { EDIT_CODE: 'sent', RESEND: 'resending', VERIFY: 'verifying', REDO: 'input' },
  resending: { SENT: 'sent', SEND_FAILED: 'sent' },
  verifying: { VERIFIED: 'done', VERIFY_FAILED: 'sent' },
  done: { REDO: 'input' },
};

describe('coded-flow machine', () => {
  for (const [phase, answers] of Object.entries(TABLE) as [CodedPhase, (typeof TABLE)[CodedPhase]][]) {
    for (const event of ALL_EVENTS) {
      const next = answers[event.type];
      it(`${phase} + ${event.type} → ${next ?? 'ignored'}`, () => {
        const before = at(phase);
        const after = codedFlowReducer(before, event);
        if (next) expect(after.phase).toBe(next);
        else expect(after).toBe(before);
      });
    }
  }

  it('the happy path: input → sending → sent → verifying → done', () => {
    const phases: CodedPhase[] = [];
    let state = initialCodedState<I, C>();
    for (const event of [{ type: 'EDIT_INPUT', input: { email: 'a@example.com' } }, { type: 'SEND' }, { type: 'SENT' }, { type: 'EDIT_CODE', code: { code: '12345' } }, { type: 'VERIFY' }, { type: 'VERIFIED' }] as CodedEvent<I, C>[]) {
      state = codedFlowReducer(state, event);
      phases.push(state.phase);
    }
    expect(phases).toEqual(['input', 'sending', 'sent', 'sent', 'verifying', 'done']);
    expect(state.input).toEqual({ email: 'a@example.com' });
    expect(state.code).toEqual({ code: '12345' });
  });

  it('a refused send keeps the input and shows its field errors; the next send clears them', () => {
    const refused = run(at('input'), { type: 'SEND' }, { type: 'SEND_FAILED', errors: { email: ['taken'] } });
    expect(refused).toMatchObject({ phase: 'input', input: { email: 'a@example.com' }, inputErrors: { email: ['taken'] } });
    expect(run(refused, { type: 'SEND' }).inputErrors).toBeUndefined();
  });

  it('a wrong code returns to the code step with its error, which the next try clears', () => {
    const wrong = run(at('sent', { code: { code: '11111' } }), { type: 'VERIFY' }, { type: 'VERIFY_FAILED', errors: { code: ['invalid'] } });
    expect(wrong).toMatchObject({ phase: 'sent', code: { code: '11111' }, codeErrors: { code: ['invalid'] } });
    expect(run(wrong, { type: 'VERIFY' }).codeErrors).toBeUndefined();
  });

  it('a new code empties the code boxes and its errors; a failed resend keeps the code step as it was', () => {
    const state = at('sent', { code: { code: '11111' }, codeErrors: { code: ['invalid'] } });
    expect(run(state, { type: 'RESEND' }, { type: 'SENT' })).toMatchObject({ phase: 'sent', code: {}, codeErrors: undefined });
    expect(run(state, { type: 'RESEND' }, { type: 'SEND_FAILED' })).toMatchObject({ phase: 'sent', code: { code: '11111' } });
  });

  it('the mail\'s link fills the address and the code in, and says so; a code sent later is typed again', () => {
    const linked = run(at('input'), { type: 'LINKED', input: { email: 'c@example.com' }, code: { code: '54321' } });
    expect(linked).toMatchObject({ phase: 'sent', input: { email: 'c@example.com' }, code: { code: '54321' }, linked: true });
    expect(run(linked, { type: 'RESEND' }, { type: 'SENT' }).linked).toBe(false);
  });

  it('the code step can open with data (the address the code went to)', () => {
    expect(run(at('sending'), { type: 'SENT', code: { code: '' } }).code).toEqual({ code: '' });
  });

  it('redo starts again with only what the screen keeps', () => {
    expect(run(at('sent'), { type: 'REDO' })).toEqual(initialCodedState());
    expect(run(at('done'), { type: 'REDO', input: { email: 'kept@example.com' } })).toEqual(initialCodedState({ email: 'kept@example.com' }));
  });

  it('busy while a request is under way; the code step shows from sent to verifying', () => {
    const phases: CodedPhase[] = ['input', 'sending', 'sent', 'resending', 'verifying', 'done'];
    expect(phases.filter(isBusy)).toEqual(['sending', 'resending', 'verifying']);
    expect(phases.filter(showsCode)).toEqual(['sent', 'resending', 'verifying']);
  });
});
