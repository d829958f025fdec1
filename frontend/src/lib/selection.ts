/** The dashboard's checkboxes and what a bulk action does to the pipelines they select. */
import type { PipelineAction, PipelineState } from '../api/types';
import { enabledActions } from './pipelineState';

/** The set with `name` added, or removed when it was there. */
export function toggled(selected: ReadonlySet<string>, name: string): Set<string> {
  const next = new Set(selected);
  if (next.has(name)) next.delete(name);
  else next.add(name);
  return next;
}

/** The selection without names that are no longer listed (a pipeline was deleted or is hidden). */
export function pruned(selected: ReadonlySet<string>, names: readonly string[]): Set<string> {
  const listed = new Set(names);
  return new Set([...selected].filter((n) => listed.has(n)));
}

export type HeaderCheck = 'none' | 'some' | 'all';

/** The select-all checkbox: empty, indeterminate, or checked. */
export function headerCheck(selected: ReadonlySet<string>, names: readonly string[]): HeaderCheck {
  const count = names.filter((n) => selected.has(n)).length;
  if (count === 0) return 'none';
  return count === names.length ? 'all' : 'some';
}

/** Clicking select-all: everything, unless everything is selected already. */
export function toggledAll(selected: ReadonlySet<string>, names: readonly string[]): Set<string> {
  return headerCheck(selected, names) === 'all' ? new Set() : new Set(names);
}

export interface BulkPlan {
  /** Selected pipelines whose state allows the action, in list order. */
  eligible: string[];
  /** Selected pipelines it does not apply to (e.g. pausing a stopped one). */
  skipped: string[];
}

/**
 * Which of the selected pipelines an action goes to. `keyOf` names a pipeline in
 * the selection (its name, or its team and name when names repeat across teams).
 */
export function bulkPlan<P extends { name: string; state: PipelineState }>(
  action: PipelineAction,
  pipelines: readonly P[],
  selected: ReadonlySet<string>,
  keyOf: (p: P) => string = (p) => p.name,
): BulkPlan {
  const plan: BulkPlan = { eligible: [], skipped: [] };
  for (const p of pipelines) {
    const key = keyOf(p);
    if (!selected.has(key)) continue;
    (enabledActions(p.state)[action] ? plan.eligible : plan.skipped).push(key);
  }
  return plan;
}

export interface BulkOutcome {
  name: string;
  error: string | null;
}

/** One line for the result of a bulk action, e.g. "paused 2 · skipped 1 · failed 1 (b: …)". */
export function bulkSummary(action: PipelineAction, outcomes: readonly BulkOutcome[], skipped: number): string {
  const done = outcomes.filter((o) => o.error === null).length;
  const failed = outcomes.filter((o) => o.error !== null);
  const verb: Record<PipelineAction, string> = { start: 'started', pause: 'paused', resume: 'resumed', stop: 'stopped' };
  const parts = [`${verb[action]} ${done}`];
  if (skipped > 0) parts.push(`skipped ${skipped}`);
  if (failed.length > 0) parts.push(`failed ${failed.length} (${failed.map((f) => `${f.name}: ${f.error ?? ''}`).join('; ')})`);
  return parts.join(' · ');
}
