// A press is a pointerdown and, on the same spot, a pointerup: the browser delivers the click to
// what is under both. Whatever moves the layout in between loses the click (the button jumps,
// the release lands beside it). A press changes the form at its very start: the field it leaves
// blurs (its error appears, a normaliser rewrites its value so its error goes), a keystroke still
// waiting for the form is committed (catch-up.ts) and re-validates. So what the member sees
// of errors (a field's messages, the summary) is held as it was when the press began, and is
// brought up to date once the press is released and its click delivered (one press, one submit).
// Keyboard use has no press: it updates at once.
//
// A tap is longer: the browser sends pointerdown and pointerup, and only then the mouse events it
// makes of the tap — mousedown (where the field being left blurs: its error appears), mouseup and
// click, each aimed at what is under the finger by then. So a touch's press lasts until its click
// (a walk at phone size lost the tap on registration's final button this way: the phone's error
// pushed the button 77 px down between mousedown and mouseup, and the click went to the section
// around it).
import { useEffect, useReducer, useRef } from 'react';

/** How long a tap may wait for its click before the press counts as over (no click: a scroll
 *  that did not cancel the pointer, a long press). */
export const TAP_CLICK_MS = 600;

let pressed = false;
let waiting: Array<() => void> = [];
let tapTimer: ReturnType<typeof setTimeout> | undefined;

function flush() {
  const run = waiting;
  waiting = [];
  run.forEach((fn) => fn());
}

function end() {
  clearTimeout(tapTimer);
  tapTimer = undefined;
  pressed = false;
}

function release(event: PointerEvent) {
  if (!pressed) return;
  if (event.type === 'pointerup' && event.pointerType !== 'mouse') {
    // A tap's click is still to come (see above): the press ends with it, or after TAP_CLICK_MS.
    clearTimeout(tapTimer);
    tapTimer = setTimeout(() => {
      end();
      flush();
    }, TAP_CLICK_MS);
    return;
  }
  end();
  // The click follows pointerup in the same task: flush once it has reached the window (after the
  // screen's own handlers); the timeout covers a press that ends in no click.
  window.setTimeout(flush, 0);
}

let installed = false;
function install() {
  if (installed || typeof document === 'undefined') return;
  installed = true;
  document.addEventListener(
    'pointerdown',
    () => {
      clearTimeout(tapTimer);
      pressed = true;
    },
    true,
  );
  document.addEventListener('pointerup', release, true);
  document.addEventListener('pointercancel', release, true);
  // After the screen's own handlers of the click (they run on React's root, before the window).
  window.addEventListener('click', () => {
    end();
    flush();
  });
}

/** True between a pointer's press and the delivery of its click (for a tap: until its click). */
export function isPressed(): boolean {
  install();
  return pressed;
}

/** Runs `fn` now, or — while a pointer is pressed — once it is released and its click is done. */
export function afterPointerRelease(fn: () => void) {
  install();
  if (pressed) waiting.push(fn);
  else fn();
}

/** Starts listening early, so the first press is known (called when a form mounts). */
export const watchPointer = install;

/**
 * `value` as the member should see it: the value itself, except while a pointer is pressed, when
 * it is the value shown when the press began; the component renders again with the new value
 * once the press is over. `key` says when two values look the same (a list of messages is a new
 * array on every render).
 */
export function useHeldWhilePressed<T>(value: T, key: (value: T) => string): T {
  const shown = useRef(value);
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const held = isPressed() && key(shown.current) !== key(value);
  // Only a render outside a press moves what is shown (a ref, not state: no extra render).
  if (!held) shown.current = value;
  useEffect(() => {
    if (held) afterPointerRelease(rerender);
  });
  return shown.current;
}
