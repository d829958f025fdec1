/**
 * Parsing the pipeline websocket's server → client messages.
 *
 * Everything off the wire is checked here once; the rest of the page works
 * with the parsed forms. Unknown message types and malformed messages give
 * null, so a newer server can add messages without breaking an older page.
 *
 * Steps are numbered from 1 in each run of a pipeline: a deploy with
 * reset_state starts the next run, and the server says so with a `reset`
 * message before the new run's deltas (docs/contracts.md). Deltas and states
 * carry their `run` (absent from servers before runs).
 */
import { PIPELINE_STATES, type PipelineState } from '../api/types';
import { normaliseChange, type NormalChange } from './changes';

export interface ParsedDelta {
  type: 'delta';
  run?: number;
  step: number;
  view: string;
  changes: NormalChange[];
}

export interface ParsedState {
  type: 'state';
  state: PipelineState;
  error: string | null;
  run?: number;
}

/** A new run began: what the page shows of the run before is void. */
export interface ParsedReset {
  type: 'reset';
  run: number;
}

export interface ParsedEvent {
  type: 'event';
  id: number;
  fromState: PipelineState;
  toState: PipelineState;
  actor: string;
  message: string;
  createdAt: string;
}

export type ParsedMessage = ParsedDelta | ParsedState | ParsedEvent | ParsedReset;

const isRun = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 1;

/** `{run}` when the message carries a valid one, `{}` when it has none; null when it is bad. */
function runOf(msg: Record<string, unknown>): { run?: number } | null {
  if (msg.run === undefined) return {};
  return isRun(msg.run) ? { run: msg.run } : null;
}

export function isPipelineState(value: unknown): value is PipelineState {
  return typeof value === 'string' && (PIPELINE_STATES as readonly string[]).includes(value);
}

export function parseServerMessage(data: unknown): ParsedMessage | null {
  let value: unknown = data;
  if (typeof data === 'string') {
    try {
      value = JSON.parse(data) as unknown;
    } catch {
      return null;
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const msg = value as Record<string, unknown>;

  if (msg.type === 'delta') {
    const { step, view, changes } = msg;
    if (typeof step !== 'number' || !Number.isSafeInteger(step) || step < 0) return null;
    if (typeof view !== 'string' || view === '') return null;
    if (!Array.isArray(changes)) return null;
    const run = runOf(msg);
    if (run === null) return null;
    const parsed: NormalChange[] = [];
    for (const change of changes) {
      const normal = normaliseChange(change);
      if (normal !== null) parsed.push(normal);
    }
    return { type: 'delta', ...run, step, view, changes: parsed };
  }

  if (msg.type === 'state') {
    if (!isPipelineState(msg.state)) return null;
    const run = runOf(msg);
    if (run === null) return null;
    const error = typeof msg.error === 'string' && msg.error !== '' ? msg.error : null;
    return { type: 'state', state: msg.state, error, ...run };
  }

  if (msg.type === 'reset') {
    return isRun(msg.run) ? { type: 'reset', run: msg.run } : null;
  }

  if (msg.type === 'event') {
    const { id, from_state, to_state, actor, message, created_at } = msg;
    if (typeof id !== 'number' || !Number.isSafeInteger(id)) return null;
    if (!isPipelineState(from_state) || !isPipelineState(to_state)) return null;
    if (typeof actor !== 'string' || typeof message !== 'string' || typeof created_at !== 'string') return null;
    return { type: 'event', id, fromState: from_state, toState: to_state, actor, message, createdAt: created_at };
  }

  return null;
}
