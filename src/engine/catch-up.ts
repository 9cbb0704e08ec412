// A key a member types is shown at once and judged by its own field (the field's precompiled
// validator: its message, the password checklist; use-ime-safe-text.ts). Handing it to the form
// re-runs the whole form (rjsf derives its state, validates, re-renders, and the screen renders
// with the new data), which on a slow phone takes longer than a frame: done for every key, each
// key waited for it (ADR 017, ADR 028). So a text field hands its value to the form only when the
// member pauses (`CATCH_UP_MS` after the last key), keys typed without a pause being committed
// once, as the last of them.
//
// Nothing may act on data behind what was typed: before anything that could read the form (a press
// of any pointer, Enter, a submit, the tab being hidden, the page going away or asking to) every
// waiting commit is run synchronously, and a field runs its own before it blurs (`commitNow`).
import { flushSync } from 'react-dom';

/** How long the member pauses before the form catches up with what they typed. */
export const CATCH_UP_MS = 300;

const waiting = new Map<object, () => void>();
let timer: ReturnType<typeof setTimeout> | undefined;

function runWaiting() {
  const jobs = [...waiting.values()];
  waiting.clear();
  jobs.forEach((job) => job());
}

/** Runs every waiting commit now, and lets React render them before returning. */
export function commitWaiting() {
  clearTimeout(timer);
  timer = undefined;
  if (waiting.size === 0) return;
  flushSync(runWaiting);
}

let installed = false;
function install() {
  if (installed) return;
  installed = true;
  // Capture on the document runs before React's own listeners on its root.
  document.addEventListener('pointerdown', commitWaiting, true);
  document.addEventListener('keydown', (event) => event.key === 'Enter' && commitWaiting(), true);
  document.addEventListener('submit', commitWaiting, true);
  // A member who switches away or closes the tab right after a key keeps it (the draft is saved
  // from the form's data), and is warned about it (a capture listener on the window runs before
  // the page's own beforeunload listeners).
  document.addEventListener('visibilitychange', commitWaiting);
  window.addEventListener('pagehide', commitWaiting);
  window.addEventListener('beforeunload', commitWaiting, true);
}

/** Runs `commit` once the member pauses (replacing what `owner` had waiting), or sooner if something may read the form. */
export function commitLater(owner: object, commit: () => void) {
  install(); // listening from the first key on: before it, nothing waits to be read
  waiting.set(owner, commit);
  clearTimeout(timer);
  timer = setTimeout(commitWaiting, CATCH_UP_MS);
}

/** Runs what `owner` has waiting, now, and lets React render it before returning (e.g. at the
 *  start of its blur). Rendered on its own, not batched with what the blur then does: a blur that
 *  re-renders the form (the field now left) would hand rjsf the screen's data from before the key
 *  in the same update as the key, and rjsf can take that for data the screen replaced it with. */
export function commitNow(owner: object) {
  const commit = waiting.get(owner);
  if (!commit) return;
  waiting.delete(owner);
  flushSync(commit);
}

/** Drops what `owner` has waiting (a newer value is being committed in its place). */
export function dropWaiting(owner: object) {
  waiting.delete(owner);
}
