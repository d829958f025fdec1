/**
 * Scales, ticks and SVG paths for the small charts (sparklines, metric
 * charts). Plain arithmetic: no chart library.
 */

export interface Scale {
  (value: number): number;
  domain: readonly [number, number];
  range: readonly [number, number];
}

/** Maps [d0, d1] linearly onto [r0, r1]; a zero-width domain maps to the middle of the range. */
export function linearScale(domain: readonly [number, number], range: readonly [number, number]): Scale {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  const span = d1 - d0;
  const scale = ((v: number) => (span === 0 ? (r0 + r1) / 2 : r0 + ((v - d0) / span) * (r1 - r0))) as Scale;
  scale.domain = domain;
  scale.range = range;
  return scale;
}

/** [min, max] of the finite values, or null when there are none. */
export function extent(values: Iterable<number | null | undefined>): [number, number] | null {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    if (v === null || v === undefined || !Number.isFinite(v)) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return lo === Infinity ? null : [lo, hi];
}

function niceStep(span: number, count: number): number {
  const raw = span / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  const f = raw / power;
  // The thresholds sit between the nice steps geometrically (√2, √10, √50).
  const nice = f >= 7.07 ? 10 : f >= 3.16 ? 5 : f >= 1.41 ? 2 : 1;
  return nice * power;
}

/**
 * Round tick values covering [lo, hi] (about `count` of them), and the domain
 * they span, so an axis starts and ends on a tick. Ticks are at least
 * `minStep` apart: 1 for counts, which have no half rows.
 *
 * >>> niceTicks(0, 97, 4) // { ticks: [0, 20, 40, 60, 80, 100], domain: [0, 100] }
 */
export function niceTicks(lo: number, hi: number, count = 4, minStep = 0): { ticks: number[]; domain: [number, number] } {
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return { ticks: [0, 1], domain: [0, 1] };
  if (hi < lo) [lo, hi] = [hi, lo];
  if (hi === lo) {
    const pad = lo === 0 ? 1 : Math.abs(lo) * 0.1;
    lo -= pad;
    hi += pad;
    if (lo < 0 && lo + pad >= 0) lo = 0;
  }
  const step = Math.max(niceStep(hi - lo, count), minStep);
  const start = Math.floor(lo / step) * step;
  const end = Math.ceil(hi / step) * step;
  const ticks: number[] = [];
  // Rounded so 0.1 + 0.2 style drift does not show up in labels.
  for (let v = start; v <= end + step / 2; v += step) ticks.push(Number(v.toPrecision(12)));
  return { ticks, domain: [start, end] };
}

export interface Point {
  x: number;
  y: number | null;
}

/**
 * An SVG path through the points; a null y breaks the line, so a gap in the
 * data shows as a gap, not as a slope.
 */
export function linePath(points: readonly Point[], x: Scale, y: Scale): string {
  let d = '';
  let pen = false;
  for (const p of points) {
    if (p.y === null || !Number.isFinite(p.y)) {
      pen = false;
      continue;
    }
    d += `${pen ? 'L' : 'M'}${x(p.x).toFixed(1)},${y(p.y).toFixed(1)}`;
    pen = true;
  }
  return d;
}

/**
 * A sparkline of `values` (equally spaced) in a width × height box, with a
 * pixel of padding so the stroke is not clipped. Flat series sit in the middle.
 */
export function sparklinePath(values: readonly number[], width: number, height: number): string {
  if (values.length === 0) return '';
  const ext = extent(values) ?? [0, 0];
  const lo = Math.min(0, ext[0]);
  const x = linearScale([0, Math.max(1, values.length - 1)], [1, width - 1]);
  const y = linearScale([lo, ext[1]], [height - 1, 1]);
  const points = values.map((v, i) => ({ x: values.length === 1 ? 0 : i, y: v }));
  const path = linePath(points, x, y);
  // One sample: a flat dash across the box rather than an invisible dot.
  return values.length === 1 ? `${path}L${(width - 1).toFixed(1)},${y(values[0] ?? 0).toFixed(1)}` : path;
}
