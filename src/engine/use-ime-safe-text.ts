// Text inputs hold their own draft while an IME composition is in progress, so neither the
// normalisers nor live validation see half-typed kana; the value is committed (normalised) on
// compositionend, and on every ordinary keystroke outside composition.
import { useCallback, useRef, useState, type ChangeEvent, type CompositionEvent } from 'react';
import { applyNormalisers } from '../shared/normalise';

type TextElement = HTMLInputElement | HTMLTextAreaElement;

export function useImeSafeText(
  value: unknown,
  onChange: (value: unknown) => void,
  normalise: readonly string[] | undefined,
  emptyValue: unknown,
) {
  const composing = useRef(false);
  const [draft, setDraft] = useState<string | null>(null);

  const commit = useCallback(
    (raw: string) => {
      const next = applyNormalisers(raw, normalise);
      onChange(next === '' ? emptyValue : next);
    },
    [onChange, normalise, emptyValue],
  );

  return {
    value: draft ?? (value == null ? '' : String(value)),
    onChange: (event: ChangeEvent<TextElement>) => {
      if (composing.current || (event.nativeEvent as InputEvent).isComposing) {
        setDraft(event.target.value);
        return;
      }
      commit(event.target.value);
    },
    onCompositionStart: (event: CompositionEvent<TextElement>) => {
      composing.current = true;
      setDraft(event.currentTarget.value);
    },
    onCompositionEnd: (event: CompositionEvent<TextElement>) => {
      composing.current = false;
      setDraft(null);
      commit(event.currentTarget.value);
    },
  };
}
