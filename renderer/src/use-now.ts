import { useEffect, useState } from 'react';

/** The current time, re-read every `intervalMs` while `isTicking`, for countdowns and ages. */
export function useNow(intervalMs: number, isTicking = true): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!isTicking) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs, isTicking]);
  return now;
}
