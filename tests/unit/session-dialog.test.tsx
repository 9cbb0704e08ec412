// @vitest-environment jsdom
// The session warning on a 60-second session (docs/decisions/037): it comes 20 s before the end
// (WCAG 2.2.1's least, not a fifth of the session), the time left is part of the dialog's
// description, and a member who types (a key sends no request) is extended quietly, as a
// request would have, so "no activity" is only ever said to a member who did nothing.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import messages from '../../messages/ja.json';
import { format } from '../../src/shared/format';
import { endSession, keepSessionTimes, sessionEnds, startSession } from '../../src/api/session';
import { SessionDialog } from '../../src/app/SessionDialog';
import { watchActivity } from '../../src/app/activity';

const SESSION_SECONDS = 60;
const { extendSession } = vi.hoisted(() => ({
  extendSession: vi.fn(async () => {
    // What the API client does with the extend call's answer (src/api/client.ts).
    keepSessionTimes(60, 43200);
    return { expires_in: 60, ends_in: 43200 };
  }),
}));
vi.mock('../../src/api/user-auth', () => ({ extendSession }));

const text = messages.session;

beforeAll(() => {
  const meta = document.createElement('meta');
  meta.name = 'member-site-settings';
  meta.content = JSON.stringify({ sessionSeconds: SESSION_SECONDS, sessionMaxSeconds: 43200 });
  document.head.append(meta);
});
let unwatch: () => void = () => undefined;
beforeEach(() => {
  unwatch = watchActivity(); // as the router does while a session is held
  vi.useFakeTimers({ now: new Date('2026-11-29T10:00:00Z'), toFake: ['Date', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'] });
  extendSession.mockClear();
  startSession('token', SESSION_SECONDS, 43200);
});
afterEach(() => {
  unwatch();
  cleanup();
  endSession();
  vi.useRealTimers();
});
afterAll(() => document.querySelector('meta[name="member-site-settings"]')?.remove());

const show = () =>
  render(
    <MemoryRouter>
      <main>
        <input aria-label="detail" />
      </main>
      <SessionDialog />
    </MemoryRouter>,
  );

/** Moves the clock on by `ms`, a second's tick at a time, letting React render each. */
async function pass(ms: number) {
  for (let done = 0; done < ms; done += 1000) await act(async () => vi.advanceTimersByTimeAsync(Math.min(1000, ms - done)));
}

/** The dialog's accessible description: the texts its aria-describedby names, in order. */
const description = (dialog: HTMLElement) =>
  (dialog.getAttribute('aria-describedby') ?? '')
    .split(/\s+/)
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');

describe('the session warning on a 60-second session', () => {
  it('comes 20 s before the end, not a fifth of the session (12 s), and its description says the time left', async () => {
    show();
    await pass(39_000);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    await pass(1000);
    const dialog = screen.getByRole('alertdialog', { name: text.warningTitle });
    expect(description(dialog)).toContain(format(text.warningBody, { extend: text.extend }));
    expect(description(dialog)).toContain(format(text.remaining, { time: format(text.seconds, { seconds: 20 }) }));
    expect(extendSession).not.toHaveBeenCalled();
  });

  it('typing extends the session quietly once it would move the end a slide step (6 s); the member who then stops is warned 20 s before the new end', async () => {
    show();
    const field = screen.getByRole('textbox', { name: 'detail' });
    await pass(3000);
    fireEvent.keyDown(field, { key: 'a' });
    await pass(2000);
    // 3 s of gain: less than the server's own write step, so no call (as a request would not write).
    expect(extendSession).not.toHaveBeenCalled();
    await pass(5000);
    fireEvent.input(field, { target: { value: 'ab' } });
    await pass(1000);
    expect(extendSession).toHaveBeenCalledTimes(1);
    const extendedAt = Date.now();
    expect(sessionEnds()!.idleEnd).toBeGreaterThan(extendedAt + 58_000);

    // No warning at the old end's lead (40 s after the start), nor up to 20 s before the new end.
    await pass(38_000);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    await pass(2000);
    const dialog = screen.getByRole('alertdialog', { name: text.warningTitle });
    // Keys in the open warning are not activity that extends: only its buttons and Escape do.
    fireEvent.keyDown(dialog, { key: 'Tab' });
    await pass(8000);
    expect(extendSession).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('alertdialog', { name: text.warningTitle })).toBeTruthy();
  });

  it('a key long ago (the warning already due by it) does not extend: the warning asks', async () => {
    show();
    await pass(8000);
    // 8 s after the last request: enough to extend at the next tick, were it soon.
    fireEvent.pointerDown(screen.getByRole('textbox', { name: 'detail' }));
    // The tick is stopped while the page sleeps (a phone's locked screen): the next one, 41 s on,
    // when that press is 41 s old and the warning due by it too.
    vi.setSystemTime(Date.now() + 40_000);
    await pass(1000);
    expect(extendSession).not.toHaveBeenCalled();
    expect(screen.getByRole('alertdialog', { name: text.warningTitle })).toBeTruthy();
  });
});
