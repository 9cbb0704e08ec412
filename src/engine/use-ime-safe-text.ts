// Text inputs hold what is typed themselves: the browser's own input keeps each key, and React
// renders nothing for it (an uncontrolled input, ADR 028). An ordinary keystroke outside an IME
// composition is normalised as it will be kept (written back into the input only when that changes
// it, the caret kept where it was), is judged by the field's own validator once the key is painted
// (`judge`: its messages and the password checklist, through the field's template, live-field.ts,
// which re-renders only when the verdict changes; after-key-paint.ts), and is handed to the form
// once the member pauses or anything may read the form (catch-up.ts). While a composition is in
// progress (Japanese kana-to-kanji input) the half-typed kana are neither normalised, judged nor
// committed; the value is committed (normalised) on compositionend. Whenever nothing typed is
// waiting for the form, the input shows the form's value (a value the form sets itself, e.g. an
// address filled from a postal code or a rewrite on leaving).
//
// Each key is heard by the input's own `input` listener, which keeps the event from React: React's
// change handling would otherwise "restore" the input after every key (it sets the input's name
// and type again), which makes the browser recompute the input's style before the key can paint.
import { useCallback, useLayoutEffect, useRef, type CompositionEvent, type FocusEvent } from 'react';
import type { RJSFSchema } from '@rjsf/utils';
import { applyNormalisers, inputNormalisers } from '../shared/normalise';
import { afterKeyPaint, dropAfterKeyPaint } from './after-key-paint';
import { commitLater, commitNow, dropWaiting } from './catch-up';
import { sameVerdict, useSetLiveVerdict, type LiveVerdict } from './live-field';

type TextElement = HTMLInputElement | HTMLTextAreaElement;

/** The messages a field's schema has for `value` (undefined: the field has no validator of its own). */
export type Judge = (value: unknown) => readonly string[] | undefined;

/** Writes `text` into the input, keeping the caret where it was relative to the end of the text
 *  (a normaliser rewrites or drops characters before the caret, not after it). */
function write(element: TextElement, text: string) {
  // An e-mail input has no selection to keep (its selectionEnd is null; setting one throws).
  const caretKept = element.ownerDocument.activeElement === element && element.selectionEnd !== null;
  const fromEnd = caretKept ? element.value.length - element.selectionEnd! : 0;
  element.value = text;
  if (caretKept) {
    const caret = Math.max(0, text.length - fromEnd);
    element.setSelectionRange(caret, caret);
  }
}

/** The text a form value shows as. */
export const textOf = (value: unknown) => (value == null ? '' : String(value));

/**
 * The props of a text input or textarea: spread them on the element. `onShow` hears the text the
 * input shows while the form does not have it yet (null: the form's value), for a widget that
 * derives something from each key (a character count).
 */
export function useImeSafeText<E extends TextElement = HTMLInputElement>(
  value: unknown,
  onChange: (value: unknown) => void,
  normalise: readonly string[] | undefined,
  emptyValue: unknown,
  judge?: Judge,
  onShow?: (text: string | null) => void,
) {
  const element = useRef<E | null>(null);
  const composing = useRef(false);
  const owner = useRef({}).current;
  // What the input shows that the form does not have yet (null: the form's value).
  const shown = useRef<string | null>(null);
  const show = useCallback(
    (text: string | null) => {
      shown.current = text;
      onShow?.(text);
    },
    [onShow],
  );
  const setLive = useSetLiveVerdict();
  const said = useRef<LiveVerdict | null>(null);
  const say = useCallback(
    (verdict: LiveVerdict | null) => {
      if (sameVerdict(said.current, verdict)) return;
      said.current = verdict;
      setLive(verdict);
    },
    [setLive],
  );

  /** A key typed (or text pasted, dropped or filled in): the input's own listener, kept from React. */
  const onInput = useRef<(event: InputEvent) => void>(() => {});
  const ref = useCallback((input: E | null) => {
    element.current = input;
    if (!input) return;
    const listener = (event: Event) => {
      event.stopPropagation();
      onInput.current(event as InputEvent);
    };
    input.addEventListener('input', listener);
    return () => {
      input.removeEventListener('input', listener);
      element.current = null;
    };
  }, []);

  const formText = textOf(value);
  const initial = useRef(formText).current;
  // The form's value is on screen whenever nothing typed waits for the form.
  useLayoutEffect(() => {
    const input = element.current;
    if (input && shown.current === null && !composing.current && input.value !== formText) write(input, formText);
  });

  /** The input's text as it will be kept (the live normalisers), written back if that changes it. */
  const normaliseIn = (input: E) => {
    const text = applyNormalisers(input.value, normalise);
    if (text !== input.value) write(input, text);
    return text;
  };

  /** The value a text is kept as: an emptied field holds the widget's emptyValue. */
  const kept = useCallback((text: string) => (text === '' ? emptyValue : text), [emptyValue]);
  const commit = useCallback(
    (text: string) => {
      dropAfterKeyPaint(owner);
      onChange(kept(text));
      // The field shows the form's value, and the form's messages, again, unless the member typed on since.
      if (shown.current === null || shown.current === text) {
        show(null);
        say(null);
      }
    },
    [owner, onChange, kept, show, say],
  );

  useLayoutEffect(() => {
    onInput.current = (event) => {
      const input = event.target as E;
      if (composing.current || event.isComposing) return show(input.value);
      const text = normaliseIn(input);
      show(text);
      if (judge)
        afterKeyPaint(owner, () => {
          if (shown.current !== text) return; // typed on, or handed to the form, since
          const messages = judge(kept(text));
          if (messages) say({ empty: text === '', messages });
        });
      commitLater(owner, () => commit(text));
    };
  });

  return {
    ref,
    defaultValue: initial,
    onCompositionStart: (event: CompositionEvent<E>) => {
      composing.current = true;
      dropWaiting(owner);
      dropAfterKeyPaint(owner);
      show(event.currentTarget.value);
    },
    onCompositionEnd: (event: CompositionEvent<E>) => {
      composing.current = false;
      dropWaiting(owner);
      const text = normaliseIn(event.currentTarget);
      shown.current = null;
      commit(text);
    },
    /** Commits a waiting keystroke now (before the field's blur acts on its value). */
    commitNow: () => commitNow(owner),
  };
}

/** A text input's leaving and entering, for the input and the textarea alike: on leaving, what was
 *  typed goes to the form at once and the rewrites that would get in the way while typing (a
 *  date, a country code, trimming) are made; entering is told to the form as it is. */
export function leaveAndEnter(
  field: { id: string; schema: RJSFSchema; emptyValue: unknown; onChange: (value: unknown) => void; onBlur: (id: string, value: unknown) => void; onFocus: (id: string, value: unknown) => void },
  commit: () => void,
) {
  return {
    onBlur: (event: FocusEvent<TextElement>) => {
      commit();
      const raw = event.target.value;
      const next = applyNormalisers(raw, inputNormalisers(field.schema));
      if (next !== raw) field.onChange(next === '' ? field.emptyValue : next);
      field.onBlur(field.id, next);
    },
    onFocus: (event: FocusEvent<TextElement>) => field.onFocus(field.id, event.target.value),
  };
}
