// Errors appear when the member leaves a field. With a mouse, leaving happens on the press of the
// next click, and an error line appearing then moves what is under the pointer: the release lands
// elsewhere and the click is lost (a radio below stays unticked). So what the blur would show
// waits until the press is released and its click delivered.
let pressed = false;
let waiting: Array<() => void> = [];

function flush() {
  const run = waiting;
  waiting = [];
  run.forEach((fn) => fn());
}

function release() {
  if (!pressed) return;
  pressed = false;
  // The click follows pointerup in the same task: flush once it has reached the window (after the
  // screen's own handlers); the timeout covers a press that ends in no click.
  window.setTimeout(flush, 0);
}

let installed = false;
function install() {
  if (installed || typeof document === 'undefined') return;
  installed = true;
  document.addEventListener('pointerdown', () => (pressed = true), true);
  document.addEventListener('pointerup', release, true);
  document.addEventListener('pointercancel', release, true);
  window.addEventListener('click', flush);
}

/** Runs `fn` now, or — while a pointer is pressed — once it is released and its click is done. */
export function afterPointerRelease(fn: () => void) {
  install();
  if (pressed) waiting.push(fn);
  else fn();
}

/** Starts listening early, so the first press is known (called when a form mounts). */
export const watchPointer = install;
