import { useCallback, useEffect, useState } from 'react';
import { endSession, sessionRemainingMs } from '../api/session';

/** True once the session timer started at login has run out; the token is then removed. */
export function useSessionExpiry(): [boolean, () => void] {
  const [expired, setExpired] = useState(() => (sessionRemainingMs() ?? 1) <= 0);
  useEffect(() => {
    if (expired) {
      endSession();
      return;
    }
    const remaining = sessionRemainingMs();
    if (remaining === null) return;
    const timer = window.setTimeout(() => setExpired(true), Math.min(remaining, 2 ** 31 - 1));
    return () => window.clearTimeout(timer);
  }, [expired]);
  // Stable, so effects that list it run once rather than on every render.
  const expire = useCallback(() => setExpired(true), []);
  return [expired, expire];
}
