import { describe, expect, it } from 'vitest';
import { formatAgo, formatCount, formatDuration, formatInterval, formatRate, formatTime, formatTimeTick } from './format';

describe('formatCount', () => {
  it('is exact below 10 000 and compact above', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(1234)).toBe('1,234');
    expect(formatCount(45_600)).toBe('45.6K');
    expect(formatCount(3_200_000)).toBe('3.2M');
  });

  it('shows a dash for a missing value', () => {
    expect(formatCount(null)).toBe('—');
    expect(formatCount(undefined)).toBe('—');
    expect(formatCount(Number.NaN)).toBe('—');
  });
});

describe('formatRate', () => {
  it('keeps one decimal for small rates', () => {
    expect(formatRate(0)).toBe('0/s');
    expect(formatRate(0.44)).toBe('0.4/s');
    expect(formatRate(12.4)).toBe('12/s');
    expect(formatRate(3_210)).toBe('3,210/s');
    expect(formatRate(32_100)).toBe('32.1K/s');
    expect(formatRate(null)).toBe('—');
  });
});

describe('formatDuration', () => {
  it('picks the unit', () => {
    expect(formatDuration(849.6)).toBe('850 ms');
    expect(formatDuration(1_340)).toBe('1.3 s');
    expect(formatDuration(42_000)).toBe('42 s');
    expect(formatDuration(120_000)).toBe('2 min');
    expect(formatDuration(125_000)).toBe('2 min 5 s');
    expect(formatDuration(null)).toBe('—');
  });
});

describe('formatAgo', () => {
  const now = Date.parse('2026-01-01T12:00:00Z');
  it('counts back from now', () => {
    expect(formatAgo('2026-01-01T11:59:58Z', now)).toBe('just now');
    expect(formatAgo('2026-01-01T11:59:30Z', now)).toBe('30 s ago');
    expect(formatAgo('2026-01-01T11:57:00Z', now)).toBe('3 min ago');
    expect(formatAgo('2026-01-01T09:00:00Z', now)).toBe('3 h ago');
    expect(formatAgo('2025-12-29T12:00:00Z', now)).toBe('3 d ago');
    expect(formatAgo('not a time', now)).toBe('not a time');
  });
});

describe('formatTime', () => {
  it('shows UTC without the T and the zone', () => {
    expect(formatTime('2026-01-01T10:00:05.123Z')).toBe('2026-01-01 10:00:05');
    expect(formatTime('nope')).toBe('nope');
  });
});

describe('formatInterval', () => {
  it('reads microseconds for DAY TO SECOND', () => {
    expect(formatInterval(3_600_000_000, 'INTERVAL DAY TO SECOND')).toBe('1 hour');
    expect(formatInterval(90_000_000, 'INTERVAL DAY TO SECOND')).toBe('1 minute 30 seconds');
    expect(formatInterval(2 * 86_400_000_000, 'INTERVAL DAY TO SECOND')).toBe('2 days');
    expect(formatInterval(0, 'INTERVAL DAY TO SECOND')).toBe('0 seconds');
  });

  it('reads months for YEAR TO MONTH', () => {
    expect(formatInterval(14, 'INTERVAL YEAR TO MONTH')).toBe('1 year 2 months');
    expect(formatInterval(12, 'INTERVAL YEAR TO MONTH')).toBe('1 year');
    expect(formatInterval(3, 'INTERVAL YEAR TO MONTH')).toBe('3 months');
  });
});

describe('formatTimeTick', () => {
  const t = Date.UTC(2026, 0, 1, 10, 5, 30);
  it('is as short as the span allows', () => {
    expect(formatTimeTick(t, 60_000)).toBe('10:05:30');
    expect(formatTimeTick(t, 3_600_000)).toBe('10:05');
    expect(formatTimeTick(t, 3 * 86_400_000)).toBe('2026-01-01');
  });
});
