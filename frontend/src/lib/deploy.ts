/**
 * Deploying a new program version: when the control plane refuses it because
 * the pipeline's state was computed for a different plan (409
 * `state_reset_required`, docs/api.md "Deploying a new version"), what the
 * page offers instead: the same deploy with `reset_state`, once confirmed.
 */
import { ApiError } from '../api/client';

export interface ResetOffer {
  /** The program version the deploy would move to. */
  version: number | null;
  /** What changed, as the server names it (e.g. "view v: query changed"). */
  changes: readonly string[];
  /** The server's whole explanation. */
  message: string;
}

/** The reset the page can offer for a failed deploy, or null when the failure is of another kind. */
export function resetOffer(err: unknown): ResetOffer | null {
  if (!(err instanceof ApiError) || err.code !== 'state_reset_required') return null;
  const details = typeof err.details === 'object' && err.details !== null ? (err.details as Record<string, unknown>) : {};
  const changes = Array.isArray(details.changes) ? details.changes.filter((c): c is string => typeof c === 'string') : [];
  const version = typeof details.version === 'number' ? details.version : null;
  return { version, changes, message: err.message };
}
