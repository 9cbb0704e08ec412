import { useCallback, useEffect, useState } from 'react';

/** A visible resend lock: `start(30)` then `remaining` counts down to 0 once a second. */
export function useCountdown() {
  const [until, setUntil] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until <= now) return;
    const timer = window.setTimeout(() => setNow(Date.now()), Math.min(1000, until - now));
    return () => window.clearTimeout(timer);
  }, [until, now]);
  const start = useCallback((seconds: number) => {
    const t = Date.now();
    setNow(t);
    setUntil(t + seconds * 1000);
  }, []);
  const reset = useCallback(() => setUntil(0), []);
  return { remaining: Math.max(0, Math.ceil((until - now) / 1000)), start, reset };
}
