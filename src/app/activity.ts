// When the member last did something on the page: a key (IME and dictation included, through
// `input`) or a press. A key sends no request, so the server cannot know of it; the session
// timer (SessionDialog) reads this once a second and extends the session quietly when it
// calls for it (docs/decisions/037). The listeners only note the time: nothing else runs on a
// key's way to its paint. Installed while the device holds a session (router.tsx), from the
// main bundle, so a key typed before the session dialog's chunk has loaded counts too.

const EVENTS = ['keydown', 'input', 'pointerdown'] as const;
const OPTIONS = { capture: true, passive: true };

let last = 0;
const note = () => {
  last = Date.now();
};

/** The time (Date.now()) of the member's last key or press while watched; 0 before any. */
export const lastActivity = () => last;

/** Starts noting the member's keys and presses, afresh; the returned function stops it. */
export function watchActivity(): () => void {
  last = 0;
  EVENTS.forEach((type) => document.addEventListener(type, note, OPTIONS));
  return () => EVENTS.forEach((type) => document.removeEventListener(type, note, OPTIONS));
}
