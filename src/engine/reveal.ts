// Taking the member to an error. Inside the parent's iframe the frame is as tall as its content,
// so focusing a field scrolls nothing the member sees: the app shell provides a `reveal` that asks
// the parent to scroll. The engine only knows it gets a function.
import { createContext, useCallback, useContext } from 'react';

export type Reveal = (element: Element) => void;

export const RevealContext = createContext<Reveal>((element) => element.scrollIntoView({ block: 'center' }));

/** What counts as a shown error: a field's error block, or a form-level error line. */
const SHOWN_ERROR = '.field--error, .form-error';
const CONTROL = 'input:not([type="hidden"]):not([disabled]), select:not([disabled]), textarea:not([disabled])';

/** A function that, once the errors have rendered, focuses the first one under `root` (document
 *  order, which is the order the member reads) and brings it into view. */
export function useFocusFirstError(): (root?: ParentNode | null) => void {
  const reveal = useContext(RevealContext);
  return useCallback(
    (root) => {
      window.setTimeout(() => {
        const first = (root ?? document).querySelector(SHOWN_ERROR);
        if (!first) return;
        first.querySelector<HTMLElement>(CONTROL)?.focus({ preventScroll: true });
        reveal(first);
      }, 0);
    },
    [reveal],
  );
}

/** A function that focuses the field whose FieldTemplate carries `data-field="<fieldId>"` (its
 *  first control: a group's first radio or box, a code's first box) and brings it into view. */
export function useFocusField(): (fieldId: string) => void {
  const reveal = useContext(RevealContext);
  return useCallback(
    (fieldId) => {
      const field = document.querySelector(`[data-field="${fieldId}"]`);
      if (!field) return;
      field.querySelector<HTMLElement>(CONTROL)?.focus({ preventScroll: true });
      reveal(field);
    },
    [reveal],
  );
}
