// Every test fails when something calls console.error (a React warning, a swallowed failure):
// what the project logs as an error is a defect the test should have caught. A test that
// means to provoke one calls `expectConsoleError()` first.
import { afterEach, beforeEach, vi } from 'vitest';

// jsdom has no layout, so no scrollIntoView: the engine's reveal calls it after an error shows.
if (typeof Element !== 'undefined' && !Element.prototype.scrollIntoView) Element.prototype.scrollIntoView = () => {};

let calls: unknown[][] = [];
let expected = false;

/** The current test provokes console.error on purpose. */
export function expectConsoleError() {
  expected = true;
}

beforeEach(() => {
  calls = [];
  expected = false;
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    calls.push(args);
  });
});

afterEach(() => {
  vi.mocked(console.error).mockRestore();
  if (calls.length && !expected) {
    const text = calls.map((args) => args.map((a) => (a instanceof Error ? a.stack : String(a))).join(' ')).join('\n');
    throw new Error(`console.error was called during the test:\n${text}`);
  }
});
