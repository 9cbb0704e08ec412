// The spec's "alert": an accessible in-page dialog (window.alert is unreliable inside a
// cross-origin iframe and cannot be styled). `await alert(message)` resolves on OK. While it is
// open it holds focus (the ARIA modal dialog pattern): it is rendered at the end of <body> and
// everything beside it is `inert` (no focus, no click, hidden from assistive technology), and Tab
// and Shift+Tab cycle within it (else Tab would leave the frame for the parent page). Escape is
// OK: the alert only informs. It opens where the member is looking (the parent scrolls the frame
// to it) and, on close, gives focus back to what had it, or to the page's main region when that
// is gone. Not a native modal <dialog>: it would work, but it makes the frame's whole document
// inert, so axe no longer sees the page's h1 and reports the parent page as having none.
import { createContext, useCallback, useContext, useEffect, useLayoutEffect, useRef, useState, type KeyboardEventHandler, type ReactNode, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import messages from '../../messages/ja.json';
import { isFramed, showElement } from './frame';

type AlertFn = (message: string, options?: { title?: string }) => Promise<void>;
const AlertContext = createContext<AlertFn>(async () => undefined);

const FOCUSABLE = 'button:not([disabled]), a[href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Keeps Tab and Shift+Tab inside `container`: from its last control to its first and back. */
export function keepTabInside(container: HTMLElement, event: KeyboardEvent) {
  if (event.key !== 'Tab' || event.altKey || event.ctrlKey || event.metaKey) return;
  const controls = [...container.querySelectorAll<HTMLElement>(FOCUSABLE)];
  if (controls.length === 0) return;
  const first = controls[0]!;
  const last = controls[controls.length - 1]!;
  const active = document.activeElement;
  const inside = active instanceof Node && container.contains(active) && active !== container;
  if (!inside) {
    event.preventDefault();
    (event.shiftKey ? last : first).focus({ preventScroll: true });
  } else if (event.shiftKey && active === first) {
    event.preventDefault();
    last.focus({ preventScroll: true });
  } else if (!event.shiftKey && active === last) {
    event.preventDefault();
    first.focus({ preventScroll: true });
  }
}

/** The least distance of a dialog from the frame's top (as the stylesheet puts it). */
const DIALOG_TOP = 120;

/** Inside the parent's frame, the frame is as tall as the page, so a dialog at the frame's top
 *  made the parent jump there from the foot of a long form; the part of the frame it jumped to
 *  was not painted yet, and the frame showed white until it was (issue 35, point 9d). So a dialog
 *  opens where the member is: centred on the control that had focus (the button they pressed,
 *  the field they were in), which the parent is showing. Without one it stays at the top. */
function placeNearFocus(backdrop: HTMLElement, dialog: HTMLElement) {
  const active = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : lastFocused;
  if (!isFramed() || !active?.isConnected) return;
  const rect = active.getBoundingClientRect();
  const centred = Math.round(rect.top + rect.height / 2 - dialog.offsetHeight / 2);
  const lowest = Math.max(DIALOG_TOP, window.innerHeight - dialog.offsetHeight - DIALOG_TOP);
  backdrop.style.paddingTop = `${Math.max(DIALOG_TOP, Math.min(centred, lowest))}px`;
}

/** The control that last had focus: a button that went busy (disabled) while its request ran
 *  has lost it by the time the answer opens a dialog. */
let lastFocused: HTMLElement | null = null;
if (typeof document !== 'undefined') {
  document.addEventListener('focusin', (event) => event.target instanceof HTMLElement && (lastFocused = event.target), true);
}

/** A modal layer's machinery, for every dialog (the alert, the session warning): while `open` is
 *  set, before the first paint, everything beside `layer` at the end of <body> becomes inert and
 *  `initial` gets focus; the parent brings `box` into view; Tab stays inside `box`. Run again
 *  whenever `open` changes identity (a second alert after the first). */
export function useModalLayer(open: unknown, layer: RefObject<HTMLElement | null>, box: RefObject<HTMLElement | null>, initial: RefObject<HTMLElement | null>) {
  useLayoutEffect(() => {
    const dialog = box.current;
    const backdrop = layer.current;
    if (!open || !dialog || !backdrop) return;
    const madeInert = [...document.body.children].filter((el) => el !== backdrop && !el.hasAttribute('inert'));
    placeNearFocus(backdrop, dialog);
    madeInert.forEach((el) => el.setAttribute('inert', ''));
    initial.current?.focus({ preventScroll: true });
    showElement(dialog);
    return () => madeInert.forEach((el) => el.removeAttribute('inert'));
  }, [open, layer, box, initial]);
  // The frame may shrink under an open dialog (the screen behind it changed, e.g. to a shorter
  // one): the dialog stays inside the frame and in the member's view.
  useEffect(() => {
    if (!open || !isFramed()) return;
    const onResize = () => {
      const dialog = box.current;
      const backdrop = layer.current;
      if (!dialog || !backdrop) return;
      const top = parseFloat(backdrop.style.paddingTop);
      const lowest = Math.max(DIALOG_TOP, window.innerHeight - dialog.offsetHeight - DIALOG_TOP);
      if (top > lowest) backdrop.style.paddingTop = `${lowest}px`;
      showElement(dialog);
    };
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, [open, layer, box]);
  // Tab is kept inside from the document, since a click on the backdrop can leave focus on body.
  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => box.current && keepTabInside(box.current, event);
    document.addEventListener('keydown', onKeyDown, true);
    return () => document.removeEventListener('keydown', onKeyDown, true);
  }, [open, box]);
}

/** After a dialog closed and the screen reacted (it may navigate): focus back on `previous`, or on
 *  the main region when that is gone, unless something already has it. */
export function returnFocusAfterDialog(previous: Element | null) {
  window.setTimeout(() => {
    if (document.activeElement && document.activeElement !== document.body) return;
    const target = previous instanceof HTMLElement && previous.isConnected && previous !== document.body ? previous : document.querySelector<HTMLElement>('main');
    target?.focus({ preventScroll: true });
  });
}

/** Every dialog's markup: the backdrop at the end of <body> (`layer` for useModalLayer; a press on
 *  it keeps focus where it is) and the dialog (`box`; a press on its text keeps focus inside, the
 *  text stays selectable). */
export function ModalFrame(props: {
  layer: RefObject<HTMLDivElement | null>;
  box: RefObject<HTMLDivElement | null>;
  labelledBy: string;
  describedBy?: string;
  onKeyDown: KeyboardEventHandler<HTMLDivElement>;
  children: ReactNode;
}) {
  return createPortal(
    <div ref={props.layer} className="modal-backdrop" onMouseDown={(event) => event.target === event.currentTarget && event.preventDefault()}>
      <div
        ref={props.box}
        className="modal"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={props.labelledBy}
        aria-describedby={props.describedBy}
        tabIndex={-1}
        onKeyDown={props.onKeyDown}
      >
        {props.children}
      </div>
    </div>,
    document.body,
  );
}

export function AlertProvider({ children }: { children: ReactNode }) {
  const [current, setCurrent] = useState<{ message: string; title?: string; done: () => void } | null>(null);
  const okButton = useRef<HTMLButtonElement>(null);
  const dialog = useRef<HTMLDivElement>(null);
  const backdrop = useRef<HTMLDivElement>(null);
  const returnFocus = useRef<Element | null>(null);
  const alert = useCallback<AlertFn>(
    (message, options) =>
      new Promise<void>((resolve) => {
        returnFocus.current ??= document.activeElement;
        setCurrent({ message, title: options?.title, done: resolve });
      }),
    [],
  );
  useModalLayer(current, backdrop, dialog, okButton);
  const close = () => {
    const previous = returnFocus.current;
    returnFocus.current = null;
    current?.done();
    setCurrent(null);
    returnFocusAfterDialog(previous);
  };
  return (
    <AlertContext.Provider value={alert}>
      {children}
      {current && (
        // An information alert: Escape closes it as OK does.
        <ModalFrame layer={backdrop} box={dialog} labelledBy="alert-message" onKeyDown={(event) => event.key === 'Escape' && close()}>
          {current.title && <h2 className="modal__title">{current.title}</h2>}
          <p id="alert-message" className="modal__message">
            {current.message}
          </p>
          <button ref={okButton} type="button" className="button button--primary" onClick={close}>
            {messages.common.ok}
          </button>
        </ModalFrame>
      )}
    </AlertContext.Provider>
  );
}

export const useAlert = () => useContext(AlertContext);
