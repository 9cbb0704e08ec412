// The session's warning in the back office (WCAG 2.2.1, as the member site's: docs/decisions/024
// and 030). Every answer says how long the session has left (src/admin/api.ts); before the idle
// end (5 minutes, or a fifth of the idle length when shorter) a modal dialog shows the time left
// and a button that extends the session (any call slides it: GET /v1/admin/session) beside
// logging out. When the idle end is the absolute end, nothing can extend it and the dialog says
// so. At the end the operator goes to the login page, told why, and comes back to where they
// were with what they had typed (drafts).
import { useEffect, useState, useSyncExternalStore } from 'react';
import text from '../../messages/admin.ja.json';
import { format } from '../shared/format';
import { atLimit, remainingText, warningLeadMs } from '../app/session-time';
import { adminCall, currentSessionTimes, onSessionTimes, sessionRanOut } from './api';
import { useModalDialog } from './ui';

export function SessionWarning({ onLogout }: { onLogout: () => void }) {
  const times = useSyncExternalStore(onSessionTimes, currentSessionTimes, currentSessionTimes);
  const [now, setNow] = useState(() => Date.now());
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  /** The absolute end whose warning the operator closed: not shown again for it. */
  const [dismissed, setDismissed] = useState(0);

  useEffect(() => {
    if (!times) return;
    const tick = () => {
      const at = Date.now();
      setNow(at);
      if (times.idleEnd <= at) sessionRanOut();
    };
    tick();
    const timer = window.setInterval(tick, 1000);
    return () => window.clearInterval(timer);
  }, [times]);

  const limit = !!times && atLimit(times.idleEnd, times.end);
  const due = !!times && times.idleEnd > now && times.idleEnd - now <= warningLeadMs((times.idleEnd - times.at) / 1000) && !(limit && dismissed === times.end);
  const ref = useModalDialog(due);

  const extend = async () => {
    setBusy(true);
    setFailed(false);
    try {
      await adminCall('get', '/session');
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  };
  return (
    <dialog
      ref={ref}
      className="admin-dialog"
      aria-labelledby="session-warning-title"
      aria-describedby="session-warning-body"
      onCancel={(event) => {
        // Escape closes only what closing cannot harm: the notice of the absolute limit.
        event.preventDefault();
        if (limit && times) setDismissed(times.end);
      }}
    >
      {due && times && (
        <>
          <h2 id="session-warning-title">{limit ? text.session.limitTitle : text.session.warningTitle}</h2>
          <div id="session-warning-body">
            <p>{limit ? text.session.limitBody : format(text.session.warningBody, { extend: text.session.extend })}</p>
            <p role="timer" aria-live="off">
              {format(text.session.remaining, { time: remainingText(times.idleEnd - now) })}
            </p>
            <p>{text.session.kept}</p>
          </div>
          {failed && (
            <p className="notice notice--error" role="alert">
              {text.session.extendFailed}
            </p>
          )}
          <div className="actions">
            {limit ? (
              <button type="button" className="button button--primary" onClick={() => setDismissed(times.end)}>
                {text.session.close}
              </button>
            ) : (
              <button type="button" className="button button--primary" onClick={() => void extend()} disabled={busy} aria-busy={busy}>
                {text.session.extend}
              </button>
            )}
            <button type="button" className="button" onClick={onLogout} disabled={busy}>
              {text.common.logout}
            </button>
          </div>
        </>
      )}
    </dialog>
  );
}
