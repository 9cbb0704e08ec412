// Parts every back-office screen uses: loading a page of the API, a pager, a failure notice,
// the confirmation dialog (a native modal <dialog>: the back office is never framed), drafts.
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import text from '../../messages/admin.ja.json';
import { format } from '../shared/format';
import { AdminFailure } from './api';
import type { FieldErrors } from '../shared/validation/field-errors';
import { useSession } from './session';
import { useSessionDraft } from '../app/use-session-draft';
import { DRAFT_PREFIX } from '../api/session';
import { LiveStatus } from '../engine/LiveStatus';

/** What a refused or failed call says, in Japanese. */
export const failureText = (failure: unknown) => (failure instanceof AdminFailure ? failure.message : text.errors.unknown);

/** A screen's actions, one at a time: busy while one runs; its refusal's field errors or message
 *  (`fallback` for what is not the API's answer), the success message it sets with setDone;
 *  `settled` runs after each (a confirmation closes). `clearErrors`: each run starts without the
 *  last one's field errors. */
export function useAction({ fallback = text.errors.unknown, clearErrors = false, settled }: { fallback?: string; clearErrors?: boolean; settled?: () => void } = {}) {
  const [errors, setErrors] = useState<FieldErrors>();
  const [failure, setFailure] = useState<string>();
  const [done, setDone] = useState<string>();
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setFailure(undefined);
    setDone(undefined);
    if (clearErrors) setErrors(undefined);
    try {
      await action();
    } catch (thrown) {
      if (thrown instanceof AdminFailure && thrown.fields) setErrors(thrown.fields);
      else setFailure(thrown instanceof AdminFailure ? failureText(thrown) : fallback);
    } finally {
      setBusy(false);
      settled?.();
    }
  };
  return { busy, errors, failure, done, setDone, run };
}

/** Loads with `load` whenever `key` changes; `reload()` loads again. */
export function useLoad<T>(load: () => Promise<T>, key: string) {
  const [state, setState] = useState<{ data?: T; error?: string; loading: boolean }>({ loading: true });
  const [round, setRound] = useState(0);
  const loader = useRef(load);
  loader.current = load;
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    loader
      .current()
      .then((data) => live && setState({ data, loading: false }))
      .catch((failure: unknown) => live && setState({ error: failureText(failure), loading: false }));
    return () => {
      live = false;
    };
  }, [key, round]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { ...state, reload };
}

export function Loading() {
  return (
    <LiveStatus className="loading" lines={[text.common.loading]} />
  );
}

export function Failure({ message }: { message?: string }) {
  if (!message) return null;
  return (
    <p className="notice notice--error" role="alert">
      {message}
    </p>
  );
}

export function Done({ message }: { message?: string }) {
  if (!message) return null;
  return (
    <LiveStatus className="notice notice--success" lines={[message]} />
  );
}

/** The pages of a list: its count, or when the API's count stopped at its bound (`bounded`)
 *  records.countBound, with a next page while the page is full (`more`). */
export function Pager({ page, size, total, bounded = false, more = false, onPage }: { page: number; size: number; total: number; bounded?: boolean; more?: boolean; onPage: (page: number) => void }) {
  const pages = Math.max(1, Math.ceil(total / size));
  const last = bounded ? !more : page >= pages;
  return (
    <nav className="pager" aria-label={text.common.pager}>
      <button type="button" className="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {text.common.previous}
      </button>
      <span aria-live="polite">{bounded ? format(text.records.pageOfBound, { page }) : format(text.common.pageOf, { page, pages, total })}</span>
      <button type="button" className="button" disabled={last} onClick={() => onPage(page + 1)}>
        {text.common.next}
      </button>
    </nav>
  );
}

/** The last element outside a dialog that had focus (kept from the first dialog on). */
let lastFocused: HTMLElement | null = null;
let keeping = false;
function keepLastFocused() {
  if (keeping) return;
  keeping = true;
  document.addEventListener('focusin', (event) => {
    if (event.target instanceof HTMLElement && !event.target.closest('dialog')) lastFocused = event.target;
  });
}

/** A native modal <dialog> shown while `open` (the browser holds focus inside and makes the page
 *  behind inert); give the returned ref to the <dialog>. Closed (by Escape, its back button or once done),
 *  focus goes back to what had it when the dialog opened (the button that opened it), where it
 *  is still on the page and usable; the dialog's content is gone by then, so the browser's own
 *  return would leave it on <body>. */
export function useModalDialog(open: boolean) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  useEffect(keepLastFocused, []);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      // A button that runs a call before the dialog opens is disabled meanwhile, and focus leaves
      // it for <body>: then the last element that had focus is the opener.
      const active = document.activeElement;
      opener.current = active instanceof HTMLElement && active !== document.body ? active : lastFocused;
      dialog.showModal();
    }
    if (!open && dialog.open) {
      dialog.close();
      const back = opener.current;
      opener.current = null;
      if (back?.isConnected && !back.matches(':disabled')) back.focus();
    }
  }, [open]);
  return ref;
}

/** A modal confirmation: what will be done, shown in full, then confirm or go back. */
export function ConfirmDialog({ open, title, confirmLabel, busy, onConfirm, onCancel, children, danger }: { open: boolean; title: string; confirmLabel: string; busy?: boolean; danger?: boolean; onConfirm: () => void; onCancel: () => void; children: ReactNode }) {
  const ref = useModalDialog(open);
  return (
    <dialog
      ref={ref}
      className="admin-dialog"
      aria-labelledby="admin-dialog-title"
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onCancel();
      }}
    >
      {open && (
        <>
          <h2 id="admin-dialog-title">{title}</h2>
          {/* It may scroll (a long mail preview): reachable and scrollable from the keyboard. */}
          <div className="admin-dialog__body" tabIndex={0} role="region" aria-labelledby="admin-dialog-title">
            {children}
          </div>
          <div className="actions">
            <button type="button" className="button" onClick={onCancel} disabled={busy}>
              {text.common.back}
            </button>
            <button type="button" className={`button ${danger ? 'button--danger' : 'button--primary'}`} onClick={onConfirm} disabled={busy} aria-busy={busy}>
              {confirmLabel}
            </button>
          </div>
        </>
      )}
    </dialog>
  );
}

/** A mail as it will go out: addressee, subject, body. */
export function MailPreview({ mail }: { mail: { to?: string; subject: string; body: string } }) {
  return (
    <div className="mail-preview">
      {mail.to && (
        <p>
          <span className="mail-preview__label">{text.common.mailTo}</span>
          {mail.to}
        </p>
      )}
      <p>
        <span className="mail-preview__label">{text.common.mailSubject}</span>
        {mail.subject}
      </p>
      <pre className="mail-preview__body">{mail.body}</pre>
    </div>
  );
}

/** A form's input kept in this tab's sessionStorage until it is sent (passwords never), under
 *  the operator's id: offered back only to the operator who typed it. */
export function useDraft<T extends object>(key: string, empty: Partial<T> = {}) {
  const owner = useSession().operator?.id ?? '';
  const { initial, save, clear } = useSessionDraft<Record<string, unknown>>(`admin:${owner}:${key}`, NO_SECRETS);
  const [data, setData] = useState<Partial<T>>(() => ({ ...empty, ...((initial ?? {}) as Partial<T>) }));
  const change = useCallback(
    (next: Partial<T>) => {
      setData(next);
      save(next as Record<string, unknown>);
    },
    [save],
  );
  const reset = useCallback(() => {
    clear();
    setData(empty);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [clear]);
  return { data, change, reset };
}
const NO_SECRETS: readonly string[] = ['code'];

/** At logout: no draft of this operator stays in the tab for the next one. A session that ended
 *  by itself keeps them for the same operator, who logs in again and finds their input; when
 *  someone else logs in, the drafts of everyone but `keep` (the operator now logged in) go. */
export function clearDrafts(keep?: string) {
  const kept = keep ? `${DRAFT_PREFIX}admin:${keep}:` : undefined;
  try {
    for (const key of Object.keys(sessionStorage)) if (key.startsWith(`${DRAFT_PREFIX}admin:`) && !(kept && key.startsWith(kept))) sessionStorage.removeItem(key);
  } catch {
    // storage off: there is nothing to clear
  }
}

/** A definition list of label/value pairs. */
export function Facts({ rows }: { rows: Array<[string, ReactNode]> }) {
  return (
    <dl className="facts">
      {rows.map(([term, value], i) => (
        <div key={i} className="facts__row">
          <dt>{term}</dt>
          <dd>{value === '' || value === null || value === undefined ? text.common.none : value}</dd>
        </div>
      ))}
    </dl>
  );
}
