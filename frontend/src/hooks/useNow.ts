import { useEffect, useState } from 'react';

/** The time (ms since the epoch), refreshed every `intervalMs`, for "3 min ago" labels. */
export function useNow(intervalMs = 5_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(t);
  }, [intervalMs]);
  return now;
}
