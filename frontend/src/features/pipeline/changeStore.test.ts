import { describe, expect, it, vi } from 'vitest';
import type { ParsedDelta } from '../../lib/wsMessages';
import { ChangeStore, orderedViews } from './changeStore';

const delta = (step: number, view: string, ...changes: [('insert' | 'delete'), number][]): ParsedDelta => ({
  type: 'delta',
  step,
  view,
  changes: changes.map(([kind, id]) => ({ kind, row: { id } })),
});

const summary = (store: ChangeStore, view: string) =>
  store
    .getSnapshot()
    .views.find((v) => v.view === view)
    ?.rows.map((r) => `${r.step}${r.kind === 'insert' ? '+' : '-'}${JSON.stringify(r.row.id)}`);

describe('ChangeStore', () => {
  it('lists steps newest first and keeps the order of changes within a step', () => {
    const store = new ChangeStore(10);
    store.add(delta(1, 'v', ['insert', 1]));
    store.add(delta(2, 'v', ['delete', 1], ['insert', 2]));
    expect(summary(store, 'v')).toEqual(['2-1', '2+2', '1+1']);
  });

  it('keeps views apart and tracks the highest step', () => {
    const store = new ChangeStore(10);
    store.add(delta(4, 'a', ['insert', 1]));
    store.add(delta(3, 'b', ['insert', 2]));
    expect(summary(store, 'a')).toEqual(['4+1']);
    expect(summary(store, 'b')).toEqual(['3+2']);
    expect(store.lastStep).toBe(4);
    expect(store.getSnapshot().lastStep).toBe(4);
  });

  it('ignores a replayed step for a view, whether older or the same', () => {
    const store = new ChangeStore(10);
    store.add(delta(5, 'v', ['insert', 1]));
    expect(store.add(delta(4, 'v', ['insert', 9]))).toBe(false);
    expect(store.add(delta(5, 'v', ['insert', 1]))).toBe(false);
    expect(summary(store, 'v')).toEqual(['5+1']);
  });

  it('takes the same step for different views', () => {
    const store = new ChangeStore(10);
    expect(store.add(delta(5, 'a', ['insert', 1]))).toBe(true);
    expect(store.add(delta(5, 'b', ['insert', 1]))).toBe(true);
  });

  it('is bounded per view', () => {
    const store = new ChangeStore(3);
    for (let step = 1; step <= 10; step += 1) store.add(delta(step, 'v', ['insert', step]));
    expect(summary(store, 'v')).toEqual(['10+10', '9+9', '8+8']);
    expect(store.getSnapshot().views[0]?.dropped).toBe(7);
  });

  it('keeps the first changes of a step larger than the buffer, in order, and counts the rest', () => {
    const store = new ChangeStore(3);
    store.add(delta(1, 'v', ['insert', 1], ['insert', 2]));
    const big = Array.from({ length: 10 }, (_, i): ['insert', number] => ['insert', 100 + i]);
    store.add(delta(2, 'v', ['delete', 2], ...big));
    expect(summary(store, 'v')).toEqual(['2-2', '2+100', '2+101']);
    const v = store.getSnapshot().views[0];
    expect(v?.dropped).toBe(2 + 11 - 3);
    expect(store.getSnapshot().received).toBe(13);
  });

  it('returns the same snapshot until something changes, and notifies subscribers', () => {
    const store = new ChangeStore(3);
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    const first = store.getSnapshot();
    expect(store.getSnapshot()).toBe(first);
    store.add(delta(1, 'v', ['insert', 1]));
    expect(listener).toHaveBeenCalledTimes(1);
    const second = store.getSnapshot();
    expect(second).not.toBe(first);
    expect(store.getSnapshot()).toBe(second);
    unsubscribe();
    store.add(delta(2, 'v', ['insert', 2]));
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('gives every row a unique key', () => {
    const store = new ChangeStore(10);
    store.add(delta(1, 'a', ['insert', 1], ['insert', 1]));
    store.add(delta(1, 'b', ['insert', 1]));
    const keys = store.getSnapshot().views.flatMap((v) => v.rows.map((r) => r.key));
    expect(new Set(keys).size).toBe(3);
  });
});

describe('ChangeStore.clear and volume', () => {
  it('empties the buffers but remembers steps, so a replay does not refill them', () => {
    const store = new ChangeStore(10);
    store.add(delta(1, 'v', ['insert', 1]));
    store.add(delta(2, 'v', ['insert', 2]));
    const listener = vi.fn();
    store.subscribe(listener);
    store.clear();
    expect(listener).toHaveBeenCalledTimes(1);
    expect(summary(store, 'v')).toEqual([]);
    expect(store.add(delta(2, 'v', ['insert', 2]))).toBe(false);
    expect(store.add(delta(3, 'v', ['insert', 3]))).toBe(true);
    expect(summary(store, 'v')).toEqual(['3+3']);
  });

  it('counts every change received, cleared or pushed out', () => {
    const store = new ChangeStore(2);
    store.add(delta(1, 'v', ['insert', 1], ['insert', 2], ['insert', 3]));
    store.clear();
    store.add(delta(2, 'v', ['insert', 4]));
    expect(store.getSnapshot().received).toBe(4);
  });

  it('stays bounded under a flood: 100 000 changes keep only the newest per view', () => {
    const store = new ChangeStore(500);
    for (let step = 1; step <= 100; step += 1) {
      const changes = Array.from({ length: 1000 }, (_, i) => ['insert', step * 1000 + i] as ['insert', number]);
      store.add(delta(step, 'v', ...changes));
    }
    const v = store.getSnapshot().views[0];
    expect(v?.rows).toHaveLength(500);
    expect(v?.dropped).toBe(99_500);
    expect(v?.rows[0]?.step).toBe(100);
  });
});

describe('orderedViews', () => {
  it('shows catalog views first, even empty ones, then views only the stream named', () => {
    const store = new ChangeStore(5);
    store.add(delta(1, 'extra', ['insert', 1]));
    store.add(delta(1, 'second', ['insert', 2]));
    const views = orderedViews(['first', 'second'], store.getSnapshot());
    expect(views.map((v) => [v.view, v.rows.length])).toEqual([
      ['first', 0],
      ['second', 1],
      ['extra', 1],
    ]);
  });
});
