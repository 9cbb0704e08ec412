// The step every coded flow shares: a notice that the code was sent, the 5-box code form, a
// resend button locked by a visible countdown, and a button to start again. When it opens, focus
// moves to the first code box and the step is brought into the member's view.
import { useEffect, useRef } from 'react';
import messages from '../../messages/ja.json';
import { showElement } from './frame';
import { SchemaForm, type FormModule } from '../engine/SchemaForm';
import { LiveStatus } from '../engine/LiveStatus';
import { format } from '../shared/format';
import { codeLengthOf } from '../shared/validation/code-length';
import type { FieldErrors } from '../shared/validation/field-errors';

/** What the code step needs of a coded flow (what useCodedFlow answers). */
export interface CodeStepFlow<C extends object> {
  state: { code: Partial<C>; codeErrors?: FieldErrors; replaced?: boolean };
  busy: boolean;
  countdown: number;
  setCode: (code: Partial<C>) => void;
  verify: (code: C) => void | Promise<void>;
  resend: () => unknown;
  redo: () => void;
}

export interface CodeEntryProps<C extends object> {
  id: string;
  /** The notice's text ({email}, {length}) and the address the code went to; the code's length
   *  is the code form's own. */
  notice: { template: string; email: string };
  form: FormModule;
  flow: CodeStepFlow<C>;
  /** Omitted where a flow has no resend (registration's STEP1). */
  resend?: { label: string; waitingLabel: string };
  /** onRedo: where starting again does more than the flow's own redo. */
  redo: { label: string; onRedo?: () => void };
}

export function CodeEntry<C extends object>({ id, notice, form, flow, resend, redo }: CodeEntryProps<C>) {
  const { busy, countdown: remaining } = flow;
  const noticeRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    document.getElementById(id)?.querySelector<HTMLElement>('input:not([readonly])')?.focus({ preventScroll: true });
    if (noticeRef.current) showElement(noticeRef.current);
  }, [id]);
  return (
    <>
      {/* Said after focus has moved to the first box (LiveStatus), so both are heard. The
          replaced-code line is beside the screen's own notice (the spec's wording), not instead of it. */}
      <LiveStatus
        ref={noticeRef}
        className="notice notice--info"
        lines={[format(notice.template, { email: notice.email, length: codeLengthOf(form.schema) }), ...(flow.state.replaced ? [messages.codes.replaced] : [])]}
      />
      <SchemaForm id={id} form={form} formData={flow.state.code} onChange={flow.setCode} onSubmit={flow.verify} serverErrors={flow.state.codeErrors} busy={busy} />
      <div className="actions actions--secondary">
        {resend && (
          <button type="button" className="button" disabled={remaining > 0 || busy} onClick={() => void flow.resend()}>
            {remaining > 0 ? format(resend.waitingLabel, { seconds: remaining }) : resend.label}
          </button>
        )}
        <button type="button" className="button button--ghost" onClick={redo.onRedo ?? flow.redo}>
          {redo.label}
        </button>
      </div>
    </>
  );
}
