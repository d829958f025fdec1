import { describe, expect, it } from 'vitest';
import { createLatestGate } from './latest';

describe('createLatestGate', () => {
  it('lets a later request win over an earlier one that answers last', async () => {
    const gate = createLatestGate();
    const applied: string[] = [];
    const request = (value: string, ms: number) => {
      const ticket = gate.next();
      return new Promise<void>((resolve) =>
        setTimeout(() => {
          if (gate.isCurrent(ticket)) applied.push(value);
          resolve();
        }, ms),
      );
    };
    await Promise.all([request('old', 30), request('new', 5)]);
    expect(applied).toEqual(['new']);
  });

  it('makes every ticket stale on invalidate', () => {
    const gate = createLatestGate();
    const t = gate.next();
    expect(gate.isCurrent(t)).toBe(true);
    gate.invalidate();
    expect(gate.isCurrent(t)).toBe(false);
  });
});
