// The step every coded flow shares: a notice that the code was sent, the 5-box code form, a
// resend button locked by a visible countdown, and a button to start again. When it opens, focus
// moves to the first code box and the step is brought into the member's view.
import { useEffect, useRef, type ReactNode } from 'react';
import { showElement } from './frame';
import { SchemaForm, type FormModule } from '../engine/SchemaForm';
import { format } from '../shared/format';
import type { FieldErrors } from '../shared/validation/field-errors';

export interface CodeEntryProps<T extends object> {
  id: string;
  notice: ReactNode;
  form: FormModule;
  formData: Partial<T>;
  onChange: (data: Partial<T>) => void;
  onSubmit: (data: T) => void | Promise<void>;
  serverErrors?: FieldErrors;
  busy: boolean;
  /** Omitted where a flow has no resend (registration's STEP1). */
  resend?: { remaining: number; onResend: () => void; label: string; waitingLabel: string };
  redo: { label: string; onRedo: () => void };
}

export function CodeEntry<T extends object>({ id, notice, form, formData, onChange, onSubmit, serverErrors, busy, resend, redo }: CodeEntryProps<T>) {
  const noticeRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    document.getElementById(id)?.querySelector<HTMLElement>('input:not([readonly])')?.focus({ preventScroll: true });
    if (noticeRef.current) showElement(noticeRef.current);
  }, [id]);
  return (
    <>
      <p ref={noticeRef} className="notice notice--info" role="status">
        {notice}
      </p>
      <SchemaForm id={id} form={form} formData={formData} onChange={onChange} onSubmit={onSubmit} serverErrors={serverErrors} busy={busy} />
      <div className="actions actions--secondary">
        {resend && (
          <button type="button" className="button" disabled={resend.remaining > 0 || busy} onClick={resend.onResend}>
            {resend.remaining > 0 ? format(resend.waitingLabel, { seconds: resend.remaining }) : resend.label}
          </button>
        )}
        <button type="button" className="button button--ghost" onClick={redo.onRedo}>
          {redo.label}
        </button>
      </div>
    </>
  );
}
