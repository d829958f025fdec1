import { extent, linePath, linearScale, niceTicks } from '../lib/chart';
import { useElementWidth } from '../hooks/useElementWidth';

export interface Series {
  label: string;
  /** One value per x; null leaves a gap. */
  values: readonly (number | null)[];
  /** A CSS class giving the line its colour (`series-1` ... `series-4`). */
  tone: string;
}

interface Props {
  title: string;
  /** x positions (ms since the epoch), one per sample. */
  xs: readonly number[];
  series: readonly Series[];
  formatY: (v: number) => string;
  formatX: (ms: number) => string;
  height?: number;
  /** Start the y axis at zero (counts, rates); false for values far from it (times). */
  zeroBased?: boolean;
  /** The smallest step between ticks that formatY tells apart (1 for counts, 0.1 for rates). */
  minStep?: number;
  testId?: string;
}

const MARGIN = { top: 8, right: 12, bottom: 20, left: 64 };

/** A small time chart: nice y ticks, the first and last time on the x axis, a legend with the latest values. */
export function LineChart({ title, xs, series, formatY, formatX, height = 150, zeroBased = true, minStep = 0, testId }: Props) {
  const { ref, width } = useElementWidth<HTMLDivElement>(420);
  const values = series.flatMap((s) => s.values);
  const ext = extent(values) ?? [0, 1];
  const { ticks, domain } = niceTicks(zeroBased ? Math.min(0, ext[0]) : ext[0], ext[1], 3, minStep);
  const xExt = extent(xs) ?? [0, 1];
  const innerW = Math.max(10, width - MARGIN.left - MARGIN.right);
  const innerH = height - MARGIN.top - MARGIN.bottom;
  const x = linearScale(xExt, [MARGIN.left, MARGIN.left + innerW]);
  const y = linearScale(domain, [MARGIN.top + innerH, MARGIN.top]);
  const latest = (s: Series) => {
    for (let i = s.values.length - 1; i >= 0; i -= 1) {
      const v = s.values[i];
      if (v !== null && v !== undefined) return formatY(v);
    }
    return '—';
  };
  return (
    <figure className="chart" data-testid={testId}>
      <figcaption className="chart-head">
        <span className="chart-title">{title}</span>
        {series.map((s) => (
          <span key={s.label} className={`legend ${s.tone}`}>
            <span className="legend-swatch" aria-hidden="true" />
            {s.label} <span className="mono">{latest(s)}</span>
          </span>
        ))}
      </figcaption>
      <div ref={ref} className="chart-body">
        <svg width={width} height={height} role="img" aria-label={title}>
          {ticks.map((t) => (
            <g key={t} className="tick">
              <line x1={MARGIN.left} x2={MARGIN.left + innerW} y1={y(t)} y2={y(t)} />
              <text x={MARGIN.left - 6} y={y(t)} dy="0.32em" textAnchor="end">
                {formatY(t)}
              </text>
            </g>
          ))}
          {xs.length > 0 && (
            <g className="tick">
              <text x={MARGIN.left} y={height - 4} textAnchor="start">
                {formatX(xExt[0])}
              </text>
              <text x={MARGIN.left + innerW} y={height - 4} textAnchor="end">
                {formatX(xExt[1])}
              </text>
            </g>
          )}
          {series.map((s) => (
            <path
              key={s.label}
              className={`line ${s.tone}`}
              data-series={s.label}
              d={linePath(
                s.values.map((v, i) => ({ x: xs[i] ?? 0, y: v })),
                x,
                y,
              )}
            />
          ))}
          {xs.length === 0 && (
            <text x={MARGIN.left + innerW / 2} y={MARGIN.top + innerH / 2} textAnchor="middle" className="chart-empty">
              no samples yet
            </text>
          )}
        </svg>
      </div>
    </figure>
  );
}
