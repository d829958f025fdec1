/** Metrics samples (oldest first) as chart series: one array per measure, aligned on time. */
import type { MetricsSample, PumpAction, PumpState } from '../api/types';

export interface MetricsSeries {
  /** Sample times, ms since the epoch. */
  xs: number[];
  inputPerSecond: (number | null)[];
  processedPerSecond: (number | null)[];
  stepMs: (number | null)[];
  stateRows: (number | null)[];
  lagRows: (number | null)[];
  /** Per "relation.column": the waterline over time (ms since the epoch for timestamps, else the number). */
  waterlines: { key: string; values: (number | null)[]; isTime: boolean }[];
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * A waterline value as a number: timestamps ("2026-01-01 10:00:00", read as
 * UTC like every timestamp in Weir's data) become ms since the epoch.
 */
export function waterlineValue(v: unknown): { value: number | null; isTime: boolean } {
  if (typeof v === 'number') return { value: Number.isFinite(v) ? v : null, isTime: false };
  if (typeof v !== 'string') return { value: null, isTime: false };
  // The API gives every waterline as text: a number column's is a number's text.
  if (/^-?\d+(\.\d+)?$/.test(v.trim())) return { value: Number(v), isTime: false };
  const t = Date.parse(`${v.trim().replace(' ', 'T')}${/[zZ]|[+-]\d\d:?\d\d$/.test(v) ? '' : 'Z'}`);
  return { value: Number.isNaN(t) ? null : t, isTime: true };
}

export function toSeries(samples: readonly MetricsSample[]): MetricsSeries {
  const usable = samples.filter((s) => !Number.isNaN(Date.parse(s.time)));
  const keys = [...new Set(usable.flatMap((s) => Object.keys(s.waterlines)))].sort();
  return {
    xs: usable.map((s) => Date.parse(s.time)),
    inputPerSecond: usable.map((s) => num(s.input_rows_per_second)),
    processedPerSecond: usable.map((s) => num(s.processed_rows_per_second)),
    stepMs: usable.map((s) => num(s.step_duration_ms)),
    stateRows: usable.map((s) => num(s.state_rows)),
    lagRows: usable.map((s) => num(s.lag_rows)),
    waterlines: keys.map((key) => {
      const parsed = usable.map((s) => waterlineValue(s.waterlines[key]));
      return { key, values: parsed.map((p) => p.value), isTime: parsed.some((p) => p.isTime) };
    }),
  };
}

/** Which pump actions its state allows: start a stopped pump, pause a running one, resume a paused one, stop either. */
export function pumpActions(state: PumpState): Record<PumpAction, boolean> {
  return {
    start: state === 'stopped',
    pause: state === 'running',
    resume: state === 'paused',
    stop: state === 'running' || state === 'paused',
  };
}
