// Text inputs hold their own draft of what is typed. An ordinary keystroke outside an IME
// composition shows in the draft at once (normalised as it will be kept), is judged there by the
// field's own validator (`judge`: its messages and the password checklist, through the field's
// template, live-field.ts), and is handed to the form once the member pauses or anything may read
// the form (catch-up.ts, ADR 028). While a composition is in progress (Japanese kana-to-kanji
// input) the half-typed kana are neither normalised, judged nor committed; the value is committed
// (normalised) on compositionend.
import { useCallback, useRef, useState, type ChangeEvent, type CompositionEvent } from 'react';
import { applyNormalisers } from '../shared/normalise';
import { commitLater, commitNow, dropWaiting } from './catch-up';
import { sameVerdict, useSetLiveVerdict, type LiveVerdict } from './live-field';

type TextElement = HTMLInputElement | HTMLTextAreaElement;

/** The messages a field's schema has for `value` (undefined: the field has no validator of its own). */
export type Judge = (value: unknown) => readonly string[] | undefined;

export function useImeSafeText(
  value: unknown,
  onChange: (value: unknown) => void,
  normalise: readonly string[] | undefined,
  emptyValue: unknown,
  judge?: Judge,
) {
  const composing = useRef(false);
  const owner = useRef({}).current;
  const [draft, setDraft] = useState<string | null>(null);
  // What the draft shows, for a commit to tell whether the member typed on since.
  const shown = useRef<string | null>(null);
  const show = useCallback((text: string | null) => {
    shown.current = text;
    setDraft(text);
  }, []);
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

  /** The value a text is kept as: an emptied field holds the widget's emptyValue. */
  const kept = useCallback((text: string) => (text === '' ? emptyValue : text), [emptyValue]);
  const commit = useCallback(
    (text: string) => {
      onChange(kept(text));
      // The field shows the form's value, and the form's messages, again, unless the member typed on since.
      if (shown.current === null || shown.current === text) {
        show(null);
        say(null);
      }
    },
    [onChange, kept, show, say],
  );

  return {
    value: draft ?? (value == null ? '' : String(value)),
    onChange: (event: ChangeEvent<TextElement>) => {
      const raw = event.target.value;
      if (composing.current || (event.nativeEvent as InputEvent).isComposing) return show(raw);
      const text = applyNormalisers(raw, normalise);
      show(text);
      const messages = judge?.(kept(text));
      if (messages) say({ empty: text === '', messages });
      commitLater(owner, () => commit(text));
    },
    onCompositionStart: (event: CompositionEvent<TextElement>) => {
      composing.current = true;
      dropWaiting(owner);
      show(event.currentTarget.value);
    },
    onCompositionEnd: (event: CompositionEvent<TextElement>) => {
      composing.current = false;
      dropWaiting(owner);
      shown.current = null;
      commit(applyNormalisers(event.currentTarget.value, normalise));
    },
    /** Commits a waiting keystroke now (before the field's blur acts on its value). */
    commitNow: () => commitNow(owner),
  };
}
