// What a key changes besides its own character waits for the key to be painted: the field's
// verdict on the typed text (its messages, the password checklist, aria-invalid) is worked out in
// a task queued from the next animation frame, so it runs just after that frame is painted and
// shows in the frame after (ADR 028). The member sees their character at once, and the verdict a
// frame later; keys typed faster than frames are judged once, as the last of them. A field's
// waiting verdict is dropped when its text is handed to the form (the form's own messages take
// over) or a composition starts.

const waiting = new Map<object, () => void>();
/** Set while a run is scheduled. */
let backstop: ReturnType<typeof setTimeout> | undefined;

function run() {
  clearTimeout(backstop);
  backstop = undefined;
  const jobs = [...waiting.values()];
  waiting.clear();
  jobs.forEach((job) => job());
}

/** After the coming paint (an animation frame may not come: a frame out of view), at the latest. */
export const AFTER_PAINT_BACKSTOP_MS = 100;

/** Runs `job` for `owner` once the key has been painted (replacing what `owner` had waiting). */
export function afterKeyPaint(owner: object, job: () => void) {
  waiting.set(owner, job);
  if (backstop !== undefined) return;
  // A frame's animation callbacks run before its paint; a task they queue runs after it.
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => setTimeout(run, 0));
  backstop = setTimeout(run, AFTER_PAINT_BACKSTOP_MS);
}

/** Drops what `owner` has waiting for the paint. */
export function dropAfterKeyPaint(owner: object) {
  waiting.delete(owner);
}

/** Runs what waits for the paint now. */
export function runAfterKeyPaint() {
  if (waiting.size > 0) run();
}
