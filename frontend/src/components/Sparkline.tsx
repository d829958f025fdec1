import { sparklinePath } from '../lib/chart';

interface Props {
  values: readonly number[];
  width?: number;
  height?: number;
  label: string;
}

/** A tiny line of recent values (e.g. rows per second), zero at the bottom. */
export function Sparkline({ values, width = 96, height = 24, label }: Props) {
  return (
    <svg className="sparkline" width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label}>
      <title>{label}</title>
      <path d={sparklinePath(values, width, height)} fill="none" stroke="currentColor" strokeWidth="1.5" />
    </svg>
  );
}
