// A form's draft for this tab's session (sessionStorage), so back/forward and reload lose
// nothing the member typed. Secrets never go in: the caller names the fields to leave out
// (passwords, codes). A warning guards leaving the page while the draft holds unsent input.
import { useCallback, useEffect, useMemo } from 'react';

const PREFIX = 'member-site:draft:';

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
      .filter(([key]) => !secrets.includes(key))
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
