/** Where the pipeline websocket lives, and how long to wait before reconnecting. */

export interface LocationLike {
  protocol: string;
  host: string;
}

/**
 * Same origin as the page, `wss:` under https. `afterStep` asks the server to
 * replay stored deltas after that step, so a reconnect misses nothing.
 */
export function pipelineSocketUrl(location: LocationLike, pipeline: string, afterStep: number | null): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const base = `${scheme}//${location.host}/ws/pipelines/${encodeURIComponent(pipeline)}/`;
  return afterStep === null ? base : `${base}?after_step=${afterStep}`;
}

/** Exponential backoff from 0.5 s, capped at 10 s. `attempt` counts from 0. */
export function reconnectDelay(attempt: number): number {
  const base = 500 * 2 ** Math.max(0, Math.min(attempt, 10));
  return Math.min(base, 10_000);
}
