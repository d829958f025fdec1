/** Numbers, rates, durations and times as the dashboard and charts show them. */

const compact = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });
const grouped = new Intl.NumberFormat('en', { maximumFractionDigits: 0 });

/**
 * A count: exact with separators below 10 000, compact above (12.3K, 4.5M).
 *
 * >>> formatCount(1234)   // "1,234"
 * >>> formatCount(45_600) // "45.6K"
 */
export function formatCount(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '—';
  return Math.abs(n) < 10_000 ? grouped.format(n) : compact.format(n);
}

/** Rows per second: one decimal below 10, then counts (0.4/s, 12/s, 3.2K/s). */
export function formatRate(perSecond: number | null | undefined): string {
  if (perSecond === null || perSecond === undefined || !Number.isFinite(perSecond)) return '—';
  if (perSecond === 0) return '0/s';
  if (Math.abs(perSecond) < 10) return `${perSecond.toFixed(1)}/s`;
  return `${formatCount(Math.round(perSecond))}/s`;
}

/** A duration in milliseconds: 850 ms, 1.3 s, 2 min 5 s. */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—';
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1_000);
  return seconds === 0 ? `${minutes} min` : `${minutes} min ${seconds} s`;
}

/** How long ago `iso` was, relative to `now` (ms since the epoch): "just now", "5 s ago", "3 min ago", "2 h ago", "4 d ago". */
export function formatAgo(iso: string, now: number): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return iso;
  const s = Math.max(0, Math.round((now - then) / 1_000));
  if (s < 5) return 'just now';
  if (s < 60) return `${s} s ago`;
  if (s < 3_600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86_400) return `${Math.floor(s / 3_600)} h ago`;
  return `${Math.floor(s / 86_400)} d ago`;
}

/** An ISO time as `YYYY-MM-DD HH:MM:SS` in UTC (the same clock as the data's timestamps). */
export function formatTime(iso: string): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  return new Date(t).toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * A time axis label, as short as the axis' span allows: seconds within ten
 * minutes, minutes within a day, else the date (all UTC).
 */
export function formatTimeTick(ms: number, spanMs: number): string {
  const iso = new Date(ms).toISOString();
  if (spanMs < 10 * 60_000) return iso.slice(11, 19);
  if (spanMs < 86_400_000) return iso.slice(11, 16);
  return iso.slice(0, 10);
}

const MICROS: readonly [number, string][] = [
  [86_400_000_000, 'day'],
  [3_600_000_000, 'hour'],
  [60_000_000, 'minute'],
  [1_000_000, 'second'],
  [1_000, 'millisecond'],
  [1, 'microsecond'],
];

const plural = (n: number, unit: string): string => `${n} ${unit}${n === 1 ? '' : 's'}`;

/**
 * An interval literal's value as words. DAY TO SECOND values are
 * microseconds, YEAR TO MONTH values months (docs/contracts.md).
 *
 * >>> formatInterval(3_600_000_000, 'INTERVAL DAY TO SECOND') // "1 hour"
 * >>> formatInterval(14, 'INTERVAL YEAR TO MONTH')            // "1 year 2 months"
 */
export function formatInterval(value: number, type: string): string {
  if (type.toUpperCase().includes('MONTH')) {
    const years = Math.floor(value / 12);
    const months = value % 12;
    const parts = [years > 0 ? plural(years, 'year') : '', months > 0 || years === 0 ? plural(months, 'month') : ''];
    return parts.filter((p) => p !== '').join(' ');
  }
  if (value === 0) return '0 seconds';
  const parts: string[] = [];
  let rest = Math.abs(value);
  for (const [size, unit] of MICROS) {
    const n = Math.floor(rest / size);
    if (n > 0) {
      parts.push(plural(n, unit));
      rest -= n * size;
    }
  }
  return (value < 0 ? '-' : '') + parts.join(' ');
}
