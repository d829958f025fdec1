/**
 * Lets only the newest of several overlapping requests take effect.
 *
 * Each request takes a ticket; when its answer arrives it applies the answer
 * only if its ticket is still the newest. A slow answer to an old keystroke
 * can then never overwrite the answer to a later one.
 */
export interface LatestGate {
  /** Takes a ticket for a new request; every older ticket is now stale. */
  next(): number;
  isCurrent(ticket: number): boolean;
  /** Makes every ticket stale (e.g. on unmount). */
  invalidate(): void;
}

export function createLatestGate(): LatestGate {
  let current = 0;
  return {
    next: () => {
      current += 1;
      return current;
    },
    isCurrent: (ticket) => ticket === current,
    invalidate: () => {
      current += 1;
    },
  };
}
