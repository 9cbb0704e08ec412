// The spec's "alert": an accessible in-page dialog (window.alert is unreliable inside a
// cross-origin iframe and cannot be styled). `await alert(message)` resolves on OK.
import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import messages from '../../messages/ja.json';

type AlertFn = (message: string, options?: { title?: string }) => Promise<void>;
const AlertContext = createContext<AlertFn>(async () => undefined);

export function AlertProvider({ children }: { children: ReactNode }) {
  const [current, setCurrent] = useState<{ message: string; title?: string; done: () => void } | null>(null);
  const okButton = useRef<HTMLButtonElement>(null);
  const alert = useCallback<AlertFn>(
    (message, options) => new Promise<void>((resolve) => setCurrent({ message, title: options?.title, done: resolve })),
    [],
  );
  useEffect(() => {
    if (current) okButton.current?.focus();
  }, [current]);
  const close = () => {
    current?.done();
    setCurrent(null);
  };
  return (
    <AlertContext.Provider value={alert}>
      {children}
      {current && (
        <div className="modal-backdrop">
          <div className="modal" role="alertdialog" aria-modal="true" aria-labelledby="alert-message" onKeyDown={(e) => e.key === 'Escape' && close()}>
            {current.title && <h2 className="modal__title">{current.title}</h2>}
            <p id="alert-message" className="modal__message">
              {current.message}
            </p>
            <button ref={okButton} type="button" className="button button--primary" onClick={close}>
              {messages.common.ok}
            </button>
          </div>
        </div>
      )}
    </AlertContext.Provider>
  );
}

export const useAlert = () => useContext(AlertContext);
