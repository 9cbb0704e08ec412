// @vitest-environment jsdom
// A status is said as it appears (issue 35, point 4): its region goes in with no words a screen
// reader would read (they keep their place, hidden), and the words follow SAY_AFTER_MS later, so
// the region exists before its text changes and a focus move in the same render is read first.
import { afterEach, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { LiveStatus, SAY_AFTER_MS } from '../../src/engine/LiveStatus';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

/** The words of an element a screen reader would read: not those under aria-hidden. */
const spoken = (el: Element) => {
  const copy = el.cloneNode(true) as Element;
  copy.querySelectorAll('[aria-hidden="true"]').forEach((hidden) => hidden.remove());
  return copy.textContent;
};

it('goes in without words to read, and says them SAY_AFTER_MS later; a change is said the same way', () => {
  vi.useFakeTimers();
  const { rerender } = render(<LiveStatus className="notice" lines={['sent']} />);
  const region = screen.getByRole('status');
  expect(spoken(region)).toBe('');
  expect(region.textContent).toBe('sent'); // its place is kept
  act(() => vi.advanceTimersByTime(SAY_AFTER_MS));
  expect(spoken(region)).toBe('sent');
  rerender(<LiveStatus className="notice" lines={['sent', 'again']} />);
  expect(screen.getByRole('status')).toBe(region);
  expect(spoken(region)).toBe('');
  act(() => vi.advanceTimersByTime(SAY_AFTER_MS));
  expect(spoken(region)).toBe('sentagain');
});
