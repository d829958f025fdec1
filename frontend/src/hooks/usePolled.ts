import { useCallback, useEffect, useRef, useState } from 'react';
import { loadOptional, type Optional } from '../api/optional';

export type Polled<T> = { status: 'loading' } | Optional<T>;

/**
 * Loads `load` while `active`, again every `intervalMs` (once when null), and
 * on `refresh()`. A 404 is "unavailable" and stops the polling: the server
 * does not have the endpoint (or the object). `key` names what is loaded;
 * when it changes the old answer is dropped.
 */
export function usePolled<T>(
  key: string,
  load: (signal: AbortSignal) => Promise<T>,
  intervalMs: number | null,
  active = true,
): { state: Polled<T>; refresh: () => void } {
  const [result, setResult] = useState<{ key: string; state: Polled<T> }>({ key, state: { status: 'loading' } });
  const [tick, setTick] = useState(0);
  const loader = useRef(load);
  useEffect(() => {
    loader.current = load;
  }, [load]);

  const unavailable = result.key === key && result.state.status === 'unavailable';

  useEffect(() => {
    if (!active || unavailable) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = () => {
      loadOptional(() => loader.current(controller.signal)).then(
        (state) => {
          if (controller.signal.aborted) return;
          setResult({ key, state });
          if (intervalMs !== null && state.status !== 'unavailable') timer = setTimeout(run, intervalMs);
        },
        () => undefined, // aborted
      );
    };
    run();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [key, intervalMs, active, tick, unavailable]);

  const refresh = useCallback(() => setTick((t) => t + 1), []);
  return { state: result.key === key ? result.state : { status: 'loading' }, refresh };
}
