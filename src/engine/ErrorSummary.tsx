// The error summary of a refused submit (the GOV.UK pattern): at the top of the form, a heading
// that says how many fields are in error and a link to each. It takes focus on each refused
// submit, so it is what a screen reader reads next: a named group whose name is the heading and
// whose description is the list, so the heading, the count and every field are heard on focus
// (named by its heading alone, only the heading was). It is brought into view (inside the
// parent's frame focus alone scrolls nothing). A link focuses its field and brings it into view. The fields keep their own
// messages beside them. It follows the errors as the member fixes them, except while a pointer is
// pressed (after-pointer.ts), and goes once none is left.
import { useContext, useEffect, useId, useRef, useSyncExternalStore, type MouseEvent } from 'react';
import messages from '../../messages/ja.json';
import { format } from '../shared/format';
import { useHeldWhilePressed } from './after-pointer';
import type { SummaryItem } from './error-summary-items';
import { RevealContext, useFocusField } from './reveal';

const keyOf = (items: SummaryItem[]) => items.map((item) => `${item.fieldId}:${item.text}`).join('\n');

export interface ErrorSummaryProps {
  items: SummaryItem[];
  /** Counts the refused submits: the summary takes focus once for each. */
  attempt: number;
  /** True once per attempt (kept by the form when the summary unmounts with its errors). */
  takeFocus?: (attempt: number) => boolean;
}

export function ErrorSummary({ items: live, attempt, takeFocus }: ErrorSummaryProps) {
  const items = useHeldWhilePressed(live, keyOf);
  const box = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const listId = useId();
  const reveal = useContext(RevealContext);
  const focusField = useFocusField();
  const focused = useRef(0);
  const shown = attempt > 0 && items.length > 0;
  // Only a new attempt moves focus: not an error fixed or made since.
  useEffect(() => {
    if (!shown || !box.current) return;
    const take = takeFocus ?? ((n: number) => (focused.current < n ? ((focused.current = n), true) : false));
    if (!take(attempt)) return;
    box.current.focus({ preventScroll: true });
    reveal(box.current);
  }, [attempt, shown, takeFocus, reveal]);
  if (!shown) return null;
  const follow = (event: MouseEvent, fieldId: string) => {
    event.preventDefault();
    focusField(fieldId);
  };
  return (
    <div ref={box} className="error-summary" role="group" tabIndex={-1} aria-labelledby={titleId} aria-describedby={listId}>
      <h2 className="error-summary__title" id={titleId}>
        {format(messages.form.errorSummary, { count: items.length })}
      </h2>
      <ul className="error-summary__list" id={listId}>
        {items.map((item) => (
          <li key={item.fieldId}>
            <a href={`#${item.fieldId}`} onClick={(event) => follow(event, item.fieldId)}>
              {item.text}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The items a form's error list (ErrorSummaryTemplate, mounted by rjsf only while there are
 *  errors) hands to the summary the form keeps mounted beside it (SummarySlot). */
export interface SummaryStore {
  publish(items: SummaryItem[]): void;
  subscribe(listener: () => void): () => void;
  get(): SummaryItem[];
}

export function createSummaryStore(): SummaryStore {
  let items: SummaryItem[] = [];
  const listeners = new Set<() => void>();
  return {
    publish(next) {
      if (keyOf(next) === keyOf(items)) return;
      items = next;
      listeners.forEach((listener) => listener());
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    get: () => items,
  };
}

/** A form's error summary, always mounted, so a press that clears the last error does not move
 *  the form under the pointer before its click lands (the summary is held until then). */
export function SummarySlot({ store, ...props }: Omit<ErrorSummaryProps, 'items'> & { store: SummaryStore }) {
  const items = useSyncExternalStore(store.subscribe, store.get, store.get);
  return <ErrorSummary items={items} {...props} />;
}
