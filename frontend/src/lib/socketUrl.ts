/** Where the pipeline websocket lives, and how long to wait before reconnecting. */

export interface LocationLike {
  protocol: string;
  host: string;
}

export interface SocketOptions {
  /** The run `afterStep` counts in: of a run that is over, the server resets the client first. */
  run?: number | null;
  /** The pipeline's team, when several of the user's teams have a pipeline of its name. */
  team?: string | null;
}

/**
 * Same origin as the page, `wss:` under https. `afterStep` asks the server to
 * replay stored deltas after that step (of `run`), so a reconnect misses nothing.
 */
export function pipelineSocketUrl(
  location: LocationLike,
  pipeline: string,
  afterStep: number | null,
  { run = null, team = null }: SocketOptions = {},
): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const base = `${scheme}//${location.host}/ws/pipelines/${encodeURIComponent(pipeline)}/`;
  const params = new URLSearchParams();
  if (afterStep !== null) params.set('after_step', String(afterStep));
  if (afterStep !== null && run !== null) params.set('run', String(run));
  if (team !== null) params.set('team', team);
  const query = params.toString();
  return query === '' ? base : `${base}?${query}`;
}

/** Exponential backoff from 0.5 s, capped at 10 s. `attempt` counts from 0. */
export function reconnectDelay(attempt: number): number {
  const base = 500 * 2 ** Math.max(0, Math.min(attempt, 10));
  return Math.min(base, 10_000);
}
