// The session's warning and end, on every screen while this device holds a session (WCAG 2.2.1;
// docs/decisions/024 and 037). A member who presses keys or a pointer is active, though a key
// sends no request: the device extends the session quietly, as a request would have. Before the
// idle end (5 minutes, or a fifth of SESSION_SECONDS when shorter, at least 20 seconds) a modal
// dialog shows the time left (part of its description), a button that extends the session on
// the server and one that logs out; when the end is the absolute limit, nothing can extend it and the
// dialog says so. At the end, the same dialog says why the session ended (no activity, or the
// limit) and leads to login, which brings the member back here. The timer reads the cookies each
// second, so activity or an extension in another tab moves it too. The dialog machinery is the
// alert's (src/app/alert.tsx): focus held inside, the page inert, Escape where that is safe.
// Its title is an h1: with the page inert, the dialog is all a screen reader (and axe) can
// reach, and the page's own h1 is hidden with the rest.
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import messages from '../../messages/ja.json';
import { format } from '../shared/format';
import { endSession, sessionEnds } from '../api/session';
import { extendSession } from '../api/user-auth';
import { ModalFrame, returnFocusAfterDialog, useModalLayer } from './alert';
import { atLimit, quietExtensionDue, remainingText, sessionLimitText, slideStepMs, warningLeadMs } from './session-time';
import { paths } from './paths.generated';
import { useToLogin } from './login-state';
import { lastActivity } from './activity';

const text = messages.session;

type View = { phase: 'warning'; idleEnd: number; end: number } | { phase: 'ended'; reason: 'idle' | 'limit' };

export function SessionDialog() {
  const navigate = useNavigate();
  const goToLogin = useToLogin();
  const [view, setView] = useState<View | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  /** The absolute end whose warning the member closed: not shown again for it. */
  const dismissed = useRef(0);
  const returnFocus = useRef<Element | null>(null);
  const layer = useRef<HTMLDivElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const first = useRef<HTMLButtonElement>(null);
  /** A dialog is open: a key in it is not activity that extends (only its buttons and Escape do). */
  const dialogOpen = useRef(false);
  useEffect(() => {
    dialogOpen.current = view !== null;
  }, [view]);
  /** The last quiet extension asked for; one at a time, and a failed one is not retried at once. */
  const quietAsked = useRef(0);
  const quietBusy = useRef(false);

  useEffect(() => {
    /** Extends the session quietly when the member's activity calls for it; true when it asked. */
    const extendQuietly = (at: number, ends: { idleEnd: number; end: number }): boolean => {
      if (dialogOpen.current || quietBusy.current || at - quietAsked.current < slideStepMs()) return false;
      if (!quietExtensionDue({ now: at, lastActivity: lastActivity(), ...ends })) return false;
      quietAsked.current = at;
      quietBusy.current = true;
      // Its answer moves the timer (src/api/client.ts); a failure leaves the warning to come.
      extendSession()
        .catch(() => undefined)
        .finally(() => {
          quietBusy.current = false;
        });
      return true;
    };
    const tick = () => {
      const at = Date.now();
      setNow(at);
      const ends = sessionEnds();
      if (!ends) {
        // Logged out, or the server ended the session (the router takes the member to login).
        setView((current) => (current?.phase === 'ended' ? current : null));
        setBusy(false);
        return;
      }
      if (ends.idleEnd <= at) {
        endSession(); // drafts stay, to be restored after the next login
        setView({ phase: 'ended', reason: atLimit(ends.idleEnd, ends.end) ? 'limit' : 'idle' });
        return;
      }
      if (extendQuietly(at, ends)) return;
      const due = ends.idleEnd - at <= warningLeadMs() && !(atLimit(ends.idleEnd, ends.end) && dismissed.current === ends.end);
      setView((current) => {
        if (!due) return current?.phase === 'warning' ? null : current;
        if (current?.phase === 'warning' && current.idleEnd === ends.idleEnd && current.end === ends.end) return current;
        return { phase: 'warning', idleEnd: ends.idleEnd, end: ends.end };
      });
    };
    tick();
    const timer = window.setInterval(tick, 1000);
    return () => window.clearInterval(timer);
  }, []);

  const phase = view?.phase;
  // Opening: remember where focus was (before useModalLayer moves it); closing: give it back.
  const previousPhase = useRef<typeof phase>(undefined);
  useLayoutEffect(() => {
    const before = previousPhase.current;
    previousPhase.current = phase;
    if (phase && !before) returnFocus.current = document.activeElement;
    if (!phase && before) returnFocusAfterDialog(returnFocus.current);
  }, [phase]);
  useModalLayer(phase, layer, box, first);

  if (!view) return null;

  const close = () => {
    setView(null);
    setFailed(false);
  };
  const extend = async () => {
    if (busy) return;
    setBusy(true);
    setFailed(false);
    try {
      await extendSession(); // its answer moves the timer (src/api/client.ts)
      close();
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  };
  const logout = () => {
    close();
    navigate(paths.logout);
  };
  const toLogin = (reason: 'idle' | 'limit') => {
    close();
    goToLogin(reason);
  };
  const dismiss = () => {
    if (view.phase === 'warning') dismissed.current = view.end;
    close();
  };

  const limit = view.phase === 'warning' && atLimit(view.idleEnd, view.end);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || view.phase !== 'warning' || busy) return;
    // The member is here: Escape keeps the session going (or, at the limit, closes the notice).
    if (limit) dismiss();
    else void extend();
  };

  return (
    <ModalFrame
      layer={layer}
      box={box}
      labelledBy="session-dialog-title"
      describedBy={view.phase === 'warning' ? 'session-dialog-body session-dialog-remaining' : 'session-dialog-body'}
      onKeyDown={onKeyDown}
    >
      {view.phase === 'warning' ? (
        <>
          <h1 id="session-dialog-title" className="modal__title">
            {limit ? text.limitTitle : text.warningTitle}
          </h1>
          <p id="session-dialog-body" className="modal__message">
            {limit ? format(text.limitBody, { limit: sessionLimitText() }) : format(text.warningBody, { extend: text.extend })}
          </p>
          {/* role=timer: not read every second; the dialog's description reads it when it opens. */}
          <p id="session-dialog-remaining" className="modal__timer" role="timer">
            {format(text.remaining, { time: remainingText(view.idleEnd - now) })}
          </p>
          {failed && (
            <p className="notice notice--error" role="alert">
              {text.extendFailed}
            </p>
          )}
          <div className="actions">
            {limit ? (
              <button ref={first} type="button" className="button button--primary" onClick={dismiss}>
                {text.close}
              </button>
            ) : (
              <button ref={first} type="button" className="button button--primary" onClick={() => void extend()} aria-disabled={busy || undefined}>
                {busy ? text.extending : text.extend}
              </button>
            )}
            <button type="button" className="button" onClick={logout}>
              {text.logout}
            </button>
          </div>
        </>
      ) : (
        <>
          <h1 id="session-dialog-title" className="modal__title">
            {text.expiredTitle}
          </h1>
          <p id="session-dialog-body" className="modal__message">
            {view.reason === 'limit' ? format(text.expiredLimitBody, { limit: sessionLimitText() }) : text.expiredIdleBody}
          </p>
          <div className="actions">
            <button ref={first} type="button" className="button button--primary" onClick={() => toLogin(view.reason)}>
              {text.toLogin}
            </button>
          </div>
        </>
      )}
    </ModalFrame>
  );
}
