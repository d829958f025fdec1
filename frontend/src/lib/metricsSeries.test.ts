import { describe, expect, it } from 'vitest';
import type { MetricsSample } from '../api/types';
import { pumpActions, toSeries, waterlineValue } from './metricsSeries';

const sample = (time: string, over: Partial<MetricsSample> = {}): MetricsSample => ({
  time,
  step: 1,
  input_rows: 10,
  input_rows_per_second: 5,
  processed_rows_per_second: 4,
  step_duration_ms: 200,
  state_rows: 100,
  late_rows: 0,
  lag_rows: 1,
  lag_ms: 10,
  waterlines: {},
  views: [],
  ...over,
});

describe('waterlineValue', () => {
  it('reads timestamps as UTC and numbers as they are', () => {
    expect(waterlineValue('2026-01-01 10:00:00')).toEqual({ value: Date.UTC(2026, 0, 1, 10), isTime: true });
    expect(waterlineValue('2026-01-01T10:00:00Z')).toEqual({ value: Date.UTC(2026, 0, 1, 10), isTime: true });
    expect(waterlineValue(42)).toEqual({ value: 42, isTime: false });
    expect(waterlineValue(null)).toEqual({ value: null, isTime: false });
    expect(waterlineValue('soon')).toEqual({ value: null, isTime: true });
  });
});

describe('toSeries', () => {
  it('aligns every measure on the sample times and keeps gaps as null', () => {
    const s = toSeries([
      sample('2026-11-23T10:00:00Z', { waterlines: { 'orders.placed_at': '2026-01-01 10:00:00' } }),
      sample('2026-11-23T10:00:02Z', { input_rows_per_second: 7, waterlines: { 'c.n': '3' } }),
      sample('not a time'),
    ]);
    expect(s.xs).toEqual([Date.UTC(2026, 10, 23, 10), Date.UTC(2026, 10, 23, 10, 0, 2)]);
    expect(s.inputPerSecond).toEqual([5, 7]);
    expect(s.waterlines).toEqual([
      { key: 'c.n', values: [null, 3], isTime: false },
      { key: 'orders.placed_at', values: [Date.UTC(2026, 0, 1, 10), null], isTime: true },
    ]);
  });
});

describe('pumpActions', () => {
  it('follows the pump state', () => {
    expect(pumpActions('stopped')).toEqual({ start: true, pause: false, resume: false, stop: false });
    expect(pumpActions('running')).toEqual({ start: false, pause: true, resume: false, stop: true });
    expect(pumpActions('paused')).toEqual({ start: false, pause: false, resume: true, stop: true });
  });
});
