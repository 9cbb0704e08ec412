// Text inputs hold their own draft while an IME composition is in progress, so neither the
// normalisers nor live validation see half-typed kana; the value is committed (normalised) on
// compositionend. An ordinary keystroke outside composition shows in the draft at once and is
// committed just after it has been painted (after-paint.ts), so a slow phone paints the key
// before the form re-validates.
import { useCallback, useRef, useState, type ChangeEvent, type CompositionEvent } from 'react';
import { applyNormalisers } from '../shared/normalise';
import { commitAfterPaint, commitNow, dropWaiting } from './after-paint';

type TextElement = HTMLInputElement | HTMLTextAreaElement;

export function useImeSafeText(
  value: unknown,
  onChange: (value: unknown) => void,
  normalise: readonly string[] | undefined,
  emptyValue: unknown,
) {
  const composing = useRef(false);
  const owner = useRef({}).current;
  const [draft, setDraft] = useState<string | null>(null);

  const commit = useCallback(
    (raw: string) => {
      const next = applyNormalisers(raw, normalise);
      onChange(next === '' ? emptyValue : next);
      // The field shows the form's (normalised) value again, unless the member typed on since.
      setDraft((shown) => (shown === raw ? null : shown));
    },
    [onChange, normalise, emptyValue],
  );

  return {
    value: draft ?? (value == null ? '' : String(value)),
    onChange: (event: ChangeEvent<TextElement>) => {
      const raw = event.target.value;
      setDraft(raw);
      if (composing.current || (event.nativeEvent as InputEvent).isComposing) return;
      commitAfterPaint(owner, () => commit(raw));
    },
    onCompositionStart: (event: CompositionEvent<TextElement>) => {
      composing.current = true;
      dropWaiting(owner);
      setDraft(event.currentTarget.value);
    },
    onCompositionEnd: (event: CompositionEvent<TextElement>) => {
      composing.current = false;
      dropWaiting(owner);
      setDraft(null);
      commit(event.currentTarget.value);
    },
    /** Commits a waiting keystroke now (before the field's blur acts on its value). */
    commitNow: () => commitNow(owner),
  };
}
