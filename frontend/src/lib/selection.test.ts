import { describe, expect, it } from 'vitest';
import { bulkPlan, bulkSummary, headerCheck, pruned, toggled, toggledAll } from './selection';

describe('selection', () => {
  it('toggles one name', () => {
    const once = toggled(new Set(), 'a');
    expect([...once]).toEqual(['a']);
    expect([...toggled(once, 'a')]).toEqual([]);
  });

  it('drops names no longer listed', () => {
    expect([...pruned(new Set(['a', 'gone']), ['a', 'b'])]).toEqual(['a']);
  });

  it('shows the select-all box as none, some or all', () => {
    expect(headerCheck(new Set(), ['a', 'b'])).toBe('none');
    expect(headerCheck(new Set(['a']), ['a', 'b'])).toBe('some');
    expect(headerCheck(new Set(['a', 'b']), ['a', 'b'])).toBe('all');
    expect(headerCheck(new Set(), [])).toBe('none');
  });

  it('select-all selects everything, or clears when everything is selected', () => {
    expect([...toggledAll(new Set(['a']), ['a', 'b'])]).toEqual(['a', 'b']);
    expect([...toggledAll(new Set(['a', 'b']), ['a', 'b'])]).toEqual([]);
  });
});

describe('bulkPlan', () => {
  const pipelines = [
    { name: 'a', state: 'running' as const },
    { name: 'b', state: 'stopped' as const },
    { name: 'c', state: 'paused' as const },
    { name: 'd', state: 'running' as const },
  ];

  it('sends the action only where the state allows it, in list order', () => {
    expect(bulkPlan('pause', pipelines, new Set(['d', 'b', 'a']))).toEqual({ eligible: ['a', 'd'], skipped: ['b'] });
    expect(bulkPlan('stop', pipelines, new Set(['a', 'b', 'c']))).toEqual({ eligible: ['a', 'c'], skipped: ['b'] });
    expect(bulkPlan('start', pipelines, new Set(['b']))).toEqual({ eligible: ['b'], skipped: [] });
  });

  it('ignores unselected pipelines', () => {
    expect(bulkPlan('resume', pipelines, new Set())).toEqual({ eligible: [], skipped: [] });
  });

  it('tells pipelines of one name in two teams apart by their key', () => {
    const twins = [
      { name: 'orders', team: 'a', state: 'running' as const },
      { name: 'orders', team: 'b', state: 'running' as const },
    ];
    const key = (p: { name: string; team: string }) => `${p.team}/${p.name}`;
    expect(bulkPlan('pause', twins, new Set(['b/orders']), key)).toEqual({ eligible: ['b/orders'], skipped: [] });
  });
});

describe('bulkSummary', () => {
  it('counts what happened', () => {
    expect(bulkSummary('pause', [{ name: 'a', error: null }, { name: 'd', error: null }], 1)).toBe('paused 2 · skipped 1');
    expect(bulkSummary('start', [{ name: 'b', error: 'has errors' }], 0)).toBe('started 0 · failed 1 (b: has errors)');
  });
});
