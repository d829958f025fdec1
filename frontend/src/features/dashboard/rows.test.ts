import { describe, expect, it } from 'vitest';
import type { MetricsSample, Pipeline } from '../../api/types';
import { isValidName, rowFigures, sortForDashboard } from './rows';

const pipeline = (over: Partial<Pipeline> = {}): Pipeline => ({
  name: 'p',
  team: 't',
  program: 'p',
  program_version: 1,
  desired_state: 'running',
  state: 'running',
  error: '',
  run: 1,
  last_step: 3,
  on_runner_failure: 'fail',
  runner_pid: null,
  config: { spark_master: 'local[2]', cores: 2, memory: '1g', trigger_interval_ms: 0, storage_dir: null, connectors: [] },
  summary: { input_rows_per_second: 0, processed_rows_per_second: 0, lag_rows: 0, late_rows: 0, errors: 0, last_step_duration_ms: null },
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  ...over,
});

const sample = (input: number, processed: number, lag: number): MetricsSample => ({
  time: '2026-01-01T00:00:00Z',
  step: 1,
  input_rows: 1,
  input_rows_per_second: input,
  processed_rows_per_second: processed,
  step_duration_ms: 1,
  state_rows: 1,
  late_rows: 0,
  lag_rows: lag,
  lag_ms: 1,
  waterlines: {},
  views: [],
});

describe('rowFigures', () => {
  it('takes the figures from the summary and the sparkline from the samples', () => {
    const p = pipeline({
      summary: { input_rows_per_second: 9, processed_rows_per_second: 8, lag_rows: 7, late_rows: 6, errors: 5, last_step_duration_ms: 4 },
    });
    expect(rowFigures(p, [sample(1, 2, 3), sample(4, 5, 6)])).toEqual({
      throughput: 8,
      sparkline: [1, 4],
      lagRows: 7,
      lateRows: 6,
      errors: 5,
    });
  });

  it('has no sparkline before the samples are fetched', () => {
    expect(rowFigures(pipeline(), null).sparkline).toBeNull();
  });
});

describe('sortForDashboard', () => {
  it('puts failed pipelines first, then by name', () => {
    const sorted = sortForDashboard([
      { name: 'b', state: 'running' },
      { name: 'c', state: 'failed' },
      { name: 'a', state: 'stopped' },
    ]);
    expect(sorted.map((p) => p.name)).toEqual(['c', 'a', 'b']);
  });
});

describe('isValidName', () => {
  it('accepts slugs only', () => {
    expect(isValidName('orders-2_b')).toBe(true);
    expect(isValidName('has space')).toBe(false);
    expect(isValidName('')).toBe(false);
  });
});
