import { useCallback, useMemo } from 'react';
import { api } from '../../api/endpoints';
import type { PipelineStats } from '../../api/types';
import { LineChart } from '../../components/LineChart';
import { PolledStatus } from '../../components/NotAvailable';
import { usePolled } from '../../hooks/usePolled';
import { extent } from '../../lib/chart';
import { formatCount, formatDuration, formatRate, formatTimeTick } from '../../lib/format';
import { toSeries } from '../../lib/metricsSeries';
import { refKey, type Ref } from '../../lib/refs';

interface Props {
  pipeline: Ref;
  active: boolean;
}

const SAMPLES = 300;
const TONES = ['series-1', 'series-2', 'series-3', 'series-4'];
const clock = (ms: number): string => new Date(ms).toISOString().slice(11, 19);

function Figure({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="figure" data-testid={testId}>
      <span className="figure-label">{label}</span>
      <span className="figure-value mono">{value}</span>
    </div>
  );
}

function StatsFigures({ stats }: { stats: PipelineStats }) {
  return (
    <div className="figures" data-testid="stats">
      <Figure label="step" value={formatCount(stats.last_step)} />
      <Figure label="input rows" value={formatCount(stats.input_rows_total)} />
      <Figure label="in / processed" value={`${formatRate(stats.input_rows_per_second)} / ${formatRate(stats.processed_rows_per_second)}`} />
      <Figure label="lag" value={`${formatCount(stats.lag_rows)} rows · ${formatDuration(stats.lag_ms)}`} />
      <Figure
        label="step p50 / p95"
        value={`${formatDuration(stats.step_duration_ms.p50)} / ${formatDuration(stats.step_duration_ms.p95)}`}
      />
      <Figure label="state rows" value={formatCount(stats.state_rows)} />
      <Figure label="late rows" value={formatCount(stats.late_rows_total)} />
      <Figure label="errors" value={formatCount(stats.errors)} />
    </div>
  );
}

/** The pipeline's figures now (GET stats) and over time (GET metrics), as small SVG charts. */
export function MetricsPanel({ pipeline, active }: Props) {
  const loadStats = useCallback((signal: AbortSignal) => api.stats(pipeline, signal), [pipeline]);
  const loadMetrics = useCallback((signal: AbortSignal) => api.metrics(pipeline, SAMPLES, signal), [pipeline]);
  const stats = usePolled(`stats:${refKey(pipeline)}`, loadStats, 2_000, active).state;
  const metrics = usePolled(`metrics:${refKey(pipeline)}`, loadMetrics, 2_000, active).state;
  const series = useMemo(() => (metrics.status === 'ok' ? toSeries(metrics.value) : null), [metrics]);
  const waterlinesAreTimes = series?.waterlines.some((w) => w.isTime) ?? false;
  const span = extent(series?.waterlines.flatMap((w) => w.values) ?? []);
  const waterlineSpan = span === null ? 0 : span[1] - span[0];

  return (
    <section className="stack" aria-label="Metrics" data-testid="metrics">
      <PolledStatus state={stats} what="Statistics" />
      {stats.status === 'ok' && <StatsFigures stats={stats.value} />}
      <PolledStatus state={metrics} what="Metrics" />
      {series && (
        <div className="charts">
          <LineChart
            title="Rows per second"
            testId="chart-rows"
            xs={series.xs}
            series={[
              { label: 'input', values: series.inputPerSecond, tone: 'series-1' },
              { label: 'processed', values: series.processedPerSecond, tone: 'series-2' },
            ]}
            formatY={formatRate}
            formatX={clock}
            minStep={0.1}
          />
          <LineChart
            title="Step duration"
            testId="chart-step"
            xs={series.xs}
            series={[{ label: 'step', values: series.stepMs, tone: 'series-3' }]}
            formatY={formatDuration}
            formatX={clock}
          />
          <LineChart
            title="State rows"
            testId="chart-state"
            xs={series.xs}
            series={[{ label: 'rows', values: series.stateRows, tone: 'series-4' }]}
            formatY={formatCount}
            formatX={clock}
            minStep={1}
          />
          <LineChart
            title="Waterlines"
            testId="chart-waterlines"
            xs={series.xs}
            series={series.waterlines.slice(0, TONES.length).map((w, i) => ({
              label: w.key,
              values: w.values,
              tone: TONES[i] ?? 'series-1',
            }))}
            formatY={(v) => (waterlinesAreTimes ? formatTimeTick(v, waterlineSpan) : formatCount(v))}
            formatX={clock}
            zeroBased={!waterlinesAreTimes}
          />
        </div>
      )}
    </section>
  );
}
