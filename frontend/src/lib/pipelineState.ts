/** What a pipeline's state allows, and how the page follows it as it moves. */
import type { Pipeline, PipelineAction, PipelineState } from '../api/types';

export const ACTIONS: readonly PipelineAction[] = ['start', 'pause', 'resume', 'stop'];

export type EnabledActions = Record<PipelineAction, boolean>;

/** The states the control plane accepts `stop` in (backend/pipelines/services.py ACTIONS). */
const STOPPABLE: ReadonlySet<PipelineState> = new Set(['starting', 'running', 'pausing', 'paused', 'resuming']);

/**
 * What the control plane accepts: start when stopped or failed, pause when
 * running, resume when paused, stop while a runner is (or is becoming) alive.
 * An unknown state (nothing loaded yet) allows nothing.
 */
export function enabledActions(state: PipelineState | null | undefined): EnabledActions {
  if (state == null) return { start: false, pause: false, resume: false, stop: false };
  return {
    start: state === 'stopped' || state === 'failed',
    pause: state === 'running',
    resume: state === 'paused',
    stop: STOPPABLE.has(state),
  };
}

const TRANSITIONAL: ReadonlySet<PipelineState> = new Set(['starting', 'pausing', 'resuming', 'stopping']);

export function isTransitional(state: PipelineState): boolean {
  return TRANSITIONAL.has(state);
}

/** The state each desired state comes to rest in. */
const RESTING: Record<string, PipelineState> = {
  running: 'running',
  paused: 'paused',
  stopped: 'stopped',
};

/**
 * True when the pipeline has stopped moving: not in a transitional state, and
 * either where it was asked to be or failed. Until then the page polls.
 */
export function isSettled(pipeline: Pick<Pipeline, 'state' | 'desired_state'>): boolean {
  if (isTransitional(pipeline.state)) return false;
  if (pipeline.state === 'failed') return true;
  const target = RESTING[pipeline.desired_state];
  return target === undefined || target === pipeline.state;
}

/** Poll quickly right after an action, then back off: 0.5 s, 1 s after 5 s, 5 s after a minute. */
export function pollDelay(elapsedMs: number): number {
  if (elapsedMs < 5_000) return 500;
  if (elapsedMs < 60_000) return 1_000;
  return 5_000;
}

export type StateTone = 'ok' | 'busy' | 'idle' | 'bad';

export function stateTone(state: PipelineState): StateTone {
  if (state === 'running') return 'ok';
  if (state === 'failed') return 'bad';
  if (isTransitional(state)) return 'busy';
  return 'idle';
}

/** The state an action aims for. */
export function actionTarget(action: PipelineAction): PipelineState {
  switch (action) {
    case 'start':
    case 'resume':
      return 'running';
    case 'pause':
      return 'paused';
    case 'stop':
      return 'stopped';
  }
}

/**
 * Whether the page should keep polling. After an action (`target` set) it
 * polls until the target or a failure is reached, whatever the server's
 * desired_state vocabulary; otherwise until the pipeline is settled.
 */
export function needsPolling(pipeline: Pick<Pipeline, 'state' | 'desired_state'>, target: PipelineState | null): boolean {
  if (isTransitional(pipeline.state)) return true;
  if (target !== null) return pipeline.state !== target && pipeline.state !== 'failed';
  return !isSettled(pipeline);
}
