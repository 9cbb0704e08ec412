// A key a member types is painted first; what it changes in the form comes just after. Committing
// a text field's value re-runs the whole form (rjsf derives its state, validates, re-renders),
// which on a slow phone takes longer than a frame; done inside the key's own event, the typed
// character would wait for all of it (ADR 017). So a text field shows what was typed at once
// (its own draft) and hands the commit to `commitAfterPaint`, which runs it once the browser has
// painted that frame.
//
// Nothing may act on data that is a frame behind: before anything that could read the form
// (a press of any pointer, Enter, a submit, the page going away) every waiting commit is run
// synchronously, and a field runs its own before it blurs (`commitNow`).
import { flushSync } from 'react-dom';

const waiting = new Map<object, () => void>();
let scheduled = false;

function runWaiting() {
  const jobs = [...waiting.values()];
  waiting.clear();
  jobs.forEach((job) => job());
}

/** Runs every waiting commit now, and lets React render them before returning. */
export function commitWaiting() {
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
  // rAF does not fire in a hidden tab: a member who switches away right after a key keeps it.
  document.addEventListener('visibilitychange', commitWaiting);
  window.addEventListener('pagehide', commitWaiting);
}

/** Runs `commit` after the next paint (replacing what `owner` had waiting), or sooner if something may read the form. */
export function commitAfterPaint(owner: object, commit: () => void) {
  install(); // listening from the first key on: before it, nothing waits to be read
  waiting.set(owner, commit);
  if (scheduled) return;
  scheduled = true;
  // The frame's callbacks run just before it paints; a task queued from them runs after.
  // Rendered there and then (flushSync), so no later event meets a half-done update.
  requestAnimationFrame(() =>
    setTimeout(() => {
      scheduled = false;
      commitWaiting();
    }, 0),
  );
}

/** Runs what `owner` has waiting, now, in the caller's own update (e.g. before its blur). */
export function commitNow(owner: object) {
  const commit = waiting.get(owner);
  if (!commit) return;
  waiting.delete(owner);
  commit();
}

/** Drops what `owner` has waiting (a newer value is being committed in its place). */
export function dropWaiting(owner: object) {
  waiting.delete(owner);
}
