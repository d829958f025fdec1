/**
 * A dashboard row's figures: the pipeline's `summary` (from its latest metrics
 * sample) and a sparkline of its recent input rates.
 */
import type { MetricsSample, Pipeline } from '../../api/types';

export interface RowFigures {
  /** Processed rows per second now. */
  throughput: number;
  /** Recent input rows per second, oldest first (null: not fetched yet). */
  sparkline: number[] | null;
  lagRows: number;
  lateRows: number;
  errors: number;
}

/** `samples`: the pipeline's recent metrics samples, when fetched. */
export function rowFigures(pipeline: Pipeline, samples: readonly MetricsSample[] | null): RowFigures {
  const { summary } = pipeline;
  return {
    throughput: summary.processed_rows_per_second,
    sparkline: samples === null ? null : samples.map((s) => s.input_rows_per_second),
    lagRows: summary.lag_rows,
    lateRows: summary.late_rows,
    errors: summary.errors,
  };
}

/** Pipelines first by whether they need attention (failed), then by name. */
export function sortForDashboard<T extends { name: string; state: string }>(pipelines: readonly T[]): T[] {
  return [...pipelines].sort(
    (a, b) => Number(b.state === 'failed') - Number(a.state === 'failed') || a.name.localeCompare(b.name),
  );
}

/** Slugs as the API accepts them for names (letters, digits, - and _). */
export function isValidName(name: string): boolean {
  return /^[-\w]{1,100}$/.test(name);
}
