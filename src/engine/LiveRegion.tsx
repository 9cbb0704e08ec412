// The page's one polite live region for form errors. A field's messages are not live regions of
// their own (a refused submit of a long form raised a dozen alerts at once): after a refused
// submit the error summary takes focus and is read; when a member leaves a field in error, this
// region says which field and what it needs, once. The app renders it once (Layout).
import { useEffect, useState } from 'react';

let speak: ((text: string) => void) | undefined;

/** Says `text` politely through the page's live region (if one is rendered). */
export function announce(text: string) {
  speak?.(text);
}

export function LiveRegion() {
  const [text, setText] = useState('');
  useEffect(() => {
    let timer: number | undefined;
    speak = (next) => {
      // Emptied first, so the same words said again are still a change to announce.
      setText('');
      window.clearTimeout(timer);
      timer = window.setTimeout(() => setText(next), 50);
    };
    return () => {
      speak = undefined;
      window.clearTimeout(timer);
    };
  }, []);
  return (
    <div className="visually-hidden" role="status" aria-live="polite" aria-atomic="true" data-live-region="errors">
      {text}
    </div>
  );
}
