import { useEffect, useRef, useState } from 'react';
import { api } from '../../api/endpoints';
import { errorMessage, isAbortError } from '../../api/client';
import type { Catalog, Diagnostic } from '../../api/types';
import { createLatestGate } from '../../lib/latest';

export const VALIDATE_DEBOUNCE_MS = 250;

export interface Validation {
  diagnostics: Diagnostic[];
  catalog: Catalog | null;
  pending: boolean;
  /** Why the last validation could not run (network, server), if it failed. */
  error: string | null;
}

const INITIAL: Validation = { diagnostics: [], catalog: null, pending: false, error: null };

/**
 * Validates `sql` ~250 ms after it stops changing. An in-flight request is
 * aborted when a newer one starts, and any answer that is not the newest
 * request's is ignored, so a later keystroke's answer always wins.
 */
export function useValidation(sql: string | null): Validation {
  const [result, setResult] = useState<Validation>(INITIAL);
  const [gate] = useState(createLatestGate);
  const inFlight = useRef<AbortController | null>(null);

  useEffect(() => {
    if (sql === null) return;
    const timer = setTimeout(() => {
      inFlight.current?.abort();
      const controller = new AbortController();
      inFlight.current = controller;
      const ticket = gate.next();
      setResult((r) => ({ ...r, pending: true }));
      api.validate(sql, controller.signal).then(
        (answer) => {
          if (!gate.isCurrent(ticket)) return;
          setResult({ diagnostics: answer.diagnostics, catalog: answer.catalog, pending: false, error: null });
        },
        (err: unknown) => {
          if (!gate.isCurrent(ticket) || isAbortError(err)) return;
          setResult((r) => ({ ...r, pending: false, error: errorMessage(err) }));
        },
      );
    }, VALIDATE_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [sql, gate]);

  useEffect(
    () => () => {
      gate.invalidate();
      inFlight.current?.abort();
    },
    [gate],
  );

  return result;
}
