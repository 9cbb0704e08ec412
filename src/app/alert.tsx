// The spec's "alert": an accessible in-page dialog (window.alert is unreliable inside a
// cross-origin iframe and cannot be styled). `await alert(message)` resolves on OK. The dialog
// opens where the member is looking (the parent scrolls the frame to it) and, on close, gives
// focus back to what had it, or to the page's main region when that is gone.
import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import messages from '../../messages/ja.json';
import { showElement } from './frame';

type AlertFn = (message: string, options?: { title?: string }) => Promise<void>;
const AlertContext = createContext<AlertFn>(async () => undefined);

export function AlertProvider({ children }: { children: ReactNode }) {
  const [current, setCurrent] = useState<{ message: string; title?: string; done: () => void } | null>(null);
  const okButton = useRef<HTMLButtonElement>(null);
  const dialog = useRef<HTMLDivElement>(null);
  const returnFocus = useRef<Element | null>(null);
  const alert = useCallback<AlertFn>(
    (message, options) =>
      new Promise<void>((resolve) => {
        returnFocus.current ??= document.activeElement;
        setCurrent({ message, title: options?.title, done: resolve });
      }),
    [],
  );
  useEffect(() => {
    if (!current) return;
    okButton.current?.focus({ preventScroll: true });
    if (dialog.current) showElement(dialog.current);
  }, [current]);
  const close = () => {
    const previous = returnFocus.current;
    returnFocus.current = null;
    current?.done();
    setCurrent(null);
    // After the screen has reacted to OK (it may navigate), put focus somewhere deliberate.
    window.setTimeout(() => {
      if (document.activeElement && document.activeElement !== document.body) return;
      const target = previous instanceof HTMLElement && previous.isConnected && previous !== document.body ? previous : document.querySelector<HTMLElement>('main');
      target?.focus({ preventScroll: true });
    });
  };
  return (
    <AlertContext.Provider value={alert}>
      {children}
      {current && (
        <div className="modal-backdrop">
          <div ref={dialog} className="modal" role="alertdialog" aria-modal="true" aria-labelledby="alert-message" onKeyDown={(e) => e.key === 'Escape' && close()}>
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
