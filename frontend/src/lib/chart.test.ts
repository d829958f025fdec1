import { describe, expect, it } from 'vitest';
import { extent, linePath, linearScale, niceTicks, sparklinePath } from './chart';

describe('linearScale', () => {
  it('maps the domain onto the range, inverted ranges included', () => {
    const s = linearScale([0, 10], [100, 0]);
    expect(s(0)).toBe(100);
    expect(s(5)).toBe(50);
    expect(s(10)).toBe(0);
  });

  it('puts everything in the middle of the range for an empty domain', () => {
    expect(linearScale([3, 3], [0, 40])(3)).toBe(20);
  });
});

describe('extent', () => {
  it('ignores missing and non-finite values', () => {
    expect(extent([3, null, 1, undefined, Number.NaN, 7])).toEqual([1, 7]);
    expect(extent([])).toBeNull();
  });
});

describe('niceTicks', () => {
  it('covers the data with round steps', () => {
    expect(niceTicks(0, 97, 4)).toEqual({ ticks: [0, 20, 40, 60, 80, 100], domain: [0, 100] });
    expect(niceTicks(0.1, 0.34, 3).ticks).toEqual([0.1, 0.2, 0.3, 0.4]);
  });

  it('widens a flat series so it has an axis', () => {
    const { domain } = niceTicks(0, 0);
    expect(domain[0]).toBe(0);
    expect(domain[1]).toBeGreaterThan(0);
    const flat = niceTicks(50, 50);
    expect(flat.domain[0]).toBeLessThan(50);
    expect(flat.domain[1]).toBeGreaterThan(50);
  });

  it('keeps counts on whole numbers', () => {
    expect(niceTicks(0, 0, 3, 1)).toEqual({ ticks: [0, 1], domain: [0, 1] });
    expect(niceTicks(0, 3, 4, 1).ticks).toEqual([0, 1, 2, 3]);
    expect(niceTicks(0, 97, 4, 1).ticks).toEqual([0, 20, 40, 60, 80, 100]);
  });

  it('keeps rates shown to a tenth on tenths', () => {
    expect(niceTicks(0, 0.17, 3, 0.1).ticks).toEqual([0, 0.1, 0.2]);
  });
});

describe('linePath', () => {
  const x = linearScale([0, 2], [0, 20]);
  const y = linearScale([0, 10], [10, 0]);

  it('draws through the points', () => {
    expect(linePath([{ x: 0, y: 0 }, { x: 1, y: 10 }, { x: 2, y: 5 }], x, y)).toBe('M0.0,10.0L10.0,0.0L20.0,5.0');
  });

  it('lifts the pen over a gap', () => {
    expect(linePath([{ x: 0, y: 0 }, { x: 1, y: null }, { x: 2, y: 5 }], x, y)).toBe('M0.0,10.0M20.0,5.0');
  });
});

describe('sparklinePath', () => {
  it('spans the box with a pixel of padding and starts the axis at zero', () => {
    const d = sparklinePath([0, 5, 10], 42, 12);
    expect(d).toBe('M1.0,11.0L21.0,6.0L41.0,1.0');
  });

  it('draws one sample as a flat dash and nothing for no samples', () => {
    expect(sparklinePath([4], 20, 10)).toMatch(/^M1\.0,1\.0L19\.0,1\.0$/);
    expect(sparklinePath([], 20, 10)).toBe('');
  });
});
