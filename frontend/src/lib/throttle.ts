/**
 * Calls `fn` at most once per `intervalMs`, trailing: a burst of calls gives
 * one call now and one at the end of the interval, so the last state is
 * always shown. The change viewer uses it so a pipeline publishing thousands
 * of rows a second re-renders a few times a second, not once per message.
 */
export interface Timers {
  now: () => number;
  setTimeout: (fn: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
}

const realTimers: Timers = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
};

export interface Throttled {
  (): void;
  /** Drops a pending trailing call. */
  cancel(): void;
}

export function throttle(fn: () => void, intervalMs: number, timers: Timers = realTimers): Throttled {
  let last = -Infinity;
  let pending: unknown = null;
  const fire = () => {
    pending = null;
    last = timers.now();
    fn();
  };
  const throttled = (() => {
    if (pending !== null) return;
    const wait = last + intervalMs - timers.now();
    if (wait <= 0) fire();
    else pending = timers.setTimeout(fire, wait);
  }) as Throttled;
  throttled.cancel = () => {
    if (pending !== null) timers.clearTimeout(pending);
    pending = null;
  };
  return throttled;
}
