/**
 * A dashboard row's figures from what the server offers: the pipeline's
 * `summary` (the extended API) when present; otherwise what the existing
 * endpoints give (late row counts), and "not available" for the rest.
 */
import type { MetricsSample, PipelineWithExtras } from '../../api/pending';

export interface RowFigures {
  /** Processed rows per second now, or null when not known. */
  throughput: number | null;
  /** Recent input rows per second, oldest first (null: no metrics on this server). */
  sparkline: number[] | null;
  lagRows: number | null;
  lateRows: number | null;
  errors: number | null;
}

export interface RowSources {
  /** The recent metrics samples; null when the server has no metrics endpoint. */
  samples: readonly MetricsSample[] | null;
  /** GET late_rows counts per relation, when fetched. */
  lateCounts: Record<string, number> | null;
}

export function rowFigures(pipeline: PipelineWithExtras, sources: RowSources): RowFigures {
  const summary = pipeline.summary;
  const samples = sources.samples;
  const last = samples && samples.length > 0 ? samples[samples.length - 1] : undefined;
  const lateFromCounts =
    sources.lateCounts === null ? null : Object.values(sources.lateCounts).reduce((a, b) => a + b, 0);
  return {
    throughput: summary?.processed_rows_per_second ?? last?.processed_rows_per_second ?? null,
    sparkline: samples === null ? null : samples.map((s) => s.input_rows_per_second),
    lagRows: summary?.lag_rows ?? last?.lag_rows ?? null,
    lateRows: summary?.late_rows ?? lateFromCounts,
    errors: summary?.errors ?? null,
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
