import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from '../../api/endpoints';
import { errorMessage, isAbortError } from '../../api/client';
import type { Catalog, Diagnostic } from '../../api/types';
import { createLatestGate } from '../../lib/latest';

export const VALIDATE_DEBOUNCE_MS = 250;

export interface Validation {
  diagnostics: Diagnostic[];
  catalog: Catalog | null;
  /** The plan JSON (docs/contracts.md); null when the text has errors. */
  plan: unknown;
  /** The text this answer is for. */
  checkedSql: string | null;
  pending: boolean;
  /** Why the last validation could not run (network, server), if it failed. */
  error: string | null;
}

const INITIAL: Validation = { diagnostics: [], catalog: null, plan: null, checkedSql: null, pending: false, error: null };

/**
 * Validates `sql` ~250 ms after it stops changing, or at once on `checkNow()`.
 * An in-flight request is aborted when a newer one starts, and any answer
 * that is not the newest request's is ignored, so a later keystroke's answer
 * always wins.
 */
export function useValidation(sql: string | null): Validation & { checkNow: () => void } {
  const [result, setResult] = useState<Validation>(INITIAL);
  const [gate] = useState(createLatestGate);
  const [nudge, setNudge] = useState(0);
  const immediate = useRef(false);
  const inFlight = useRef<AbortController | null>(null);

  useEffect(() => {
    if (sql === null) return;
    const delay = immediate.current ? 0 : VALIDATE_DEBOUNCE_MS;
    immediate.current = false;
    const timer = setTimeout(() => {
      inFlight.current?.abort();
      const controller = new AbortController();
      inFlight.current = controller;
      const ticket = gate.next();
      setResult((r) => ({ ...r, pending: true }));
      api.validate(sql, controller.signal).then(
        (answer) => {
          if (!gate.isCurrent(ticket)) return;
          setResult({
            diagnostics: answer.diagnostics,
            catalog: answer.catalog,
            plan: answer.plan ?? null,
            checkedSql: sql,
            pending: false,
            error: null,
          });
        },
        (err: unknown) => {
          if (!gate.isCurrent(ticket) || isAbortError(err)) return;
          setResult((r) => ({ ...r, pending: false, error: errorMessage(err) }));
        },
      );
    }, delay);
    return () => clearTimeout(timer);
  }, [sql, gate, nudge]);

  useEffect(
    () => () => {
      gate.invalidate();
      inFlight.current?.abort();
    },
    [gate],
  );

  const checkNow = useCallback(() => {
    immediate.current = true;
    setNudge((n) => n + 1);
  }, []);

  return { ...result, checkNow };
}
