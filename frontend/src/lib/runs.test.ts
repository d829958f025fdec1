import { describe, expect, it } from 'vitest';
import { RunTracker } from './runs';

describe('RunTracker', () => {
  it('takes the first run it hears of, and messages without a run', () => {
    const runs = new RunTracker();
    expect(runs.see(undefined)).toBe('take');
    expect(runs.run).toBeNull();
    expect(runs.see(3)).toBe('take');
    expect(runs.run).toBe(3);
  });

  it('resets once for a later run and drops the earlier run after it', () => {
    const runs = new RunTracker(1);
    expect(runs.see(1)).toBe('take');
    expect(runs.see(2)).toBe('reset');
    expect(runs.see(2)).toBe('take');
    expect(runs.see(1)).toBe('drop');
    expect(runs.run).toBe(2);
  });
});
