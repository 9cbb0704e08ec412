// A form's draft for this tab's session (sessionStorage), so back/forward and reload lose
// nothing the member typed. Secrets never go in: the caller names the fields to leave out
// (passwords, codes), and no field whose name says password is ever kept. A draft outlives
// the session (a member logged out for inactivity finds it after logging in again) and goes at
// logout and withdrawal (src/api/session.ts). A warning guards leaving the page while the draft
// holds unsent input.
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { DRAFT_PREFIX as PREFIX } from '../api/session';

function read<T>(key: string): Partial<T> | undefined {
  try {
    const raw = sessionStorage.getItem(PREFIX + key);
    return raw ? (JSON.parse(raw) as Partial<T>) : undefined;
  } catch {
    return undefined; // storage off or a damaged draft: start empty
  }
}

function withoutSecrets(value: Record<string, unknown>, secrets: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !secrets.includes(key) && !/password/i.test(key))
      .map(([key, v]) => [key, v && typeof v === 'object' && !Array.isArray(v) ? withoutSecrets(v as Record<string, unknown>, secrets) : v]),
  );
}

export function useSessionDraft<T extends Record<string, unknown>>(key: string, secrets: readonly string[]) {
  const initial = useMemo(() => read<T>(key), [key]);
  const save = useCallback(
    (value: T) => {
      try {
        sessionStorage.setItem(PREFIX + key, JSON.stringify(withoutSecrets(value, secrets)));
      } catch {
        // Storage full or off: the form works on, only without a draft.
      }
    },
    [key, secrets],
  );
  const clear = useCallback(() => sessionStorage.removeItem(PREFIX + key), [key]);
  return { initial, save, clear };
}

/** Asks the browser to confirm leaving the page (reload, close, another site) while `active`. */
export function useLeaveWarning(active: boolean) {
  useEffect(() => {
    if (!active) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [active]);
}

/** What a member typed, compared as input: key order, and empty values ('' , [], undefined), aside. */
export function sameInput(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const filled = (value: Record<string, unknown>) =>
    JSON.stringify(
      Object.keys(value)
        .sort()
        .filter((key) => value[key] !== undefined && value[key] !== '' && !(Array.isArray(value[key]) && (value[key] as unknown[]).length === 0))
        .map((key) => [key, value[key]]),
    );
  return filled(a) === filled(b);
}

/** A form's draft that belongs to someone: the member's address (edit, a member's inquiry) or ''
 *  (a visitor's inquiry). It is kept while the input differs from what the form opened with, and
 *  offered back only to the same owner, so a draft never shows to another member in this tab.
 *  Edit and contact use it to bring back what was typed after a re-login (docs/decisions/024). */
export function useOwnedDraft<T extends Record<string, unknown>>(key: string, secrets: readonly string[]) {
  const { initial, save, clear } = useSessionDraft<{ owner: string; data: Partial<T> }>(key, secrets);
  /** The draft for `owner` when it holds more than `opened` (what the form opened with). */
  const restoreFor = useCallback(
    (owner: string, opened: Partial<T>): Partial<T> | undefined =>
      initial?.owner === owner && initial.data && typeof initial.data === 'object' && !sameInput(initial.data, opened) ? initial.data : undefined,
    [initial],
  );
  // Someone else's draft stays until this screen keeps one of its own (a member's inquiry draft
  // survives a visit to the contact form as a visitor).
  const kept = useRef(false);
  const keep = useCallback(
    (owner: string, data: Partial<T>, opened: Partial<T>) => {
      if (!sameInput(data, opened)) {
        kept.current = true;
        save({ owner, data });
      } else if (kept.current || initial?.owner === owner) clear();
    },
    [clear, save, initial],
  );
  return { restoreFor, keep, clear };
}
