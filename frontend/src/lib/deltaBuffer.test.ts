import { describe, expect, it } from 'vitest';
import { DeltaBuffer } from './deltaBuffer';

describe('DeltaBuffer', () => {
  it('returns items newest first', () => {
    const b = new DeltaBuffer<number>(5);
    b.pushAll([1, 2, 3]);
    expect(b.newestFirst()).toEqual([3, 2, 1]);
    expect(b.size).toBe(3);
    expect(b.newest()).toBe(3);
  });

  it('keeps only the newest capacity items and counts the dropped ones', () => {
    const b = new DeltaBuffer<number>(3);
    b.pushAll([1, 2, 3, 4, 5]);
    expect(b.newestFirst()).toEqual([5, 4, 3]);
    expect(b.size).toBe(3);
    expect(b.dropped).toBe(2);
  });

  it('stays correct across many wrap-arounds', () => {
    const b = new DeltaBuffer<number>(4);
    for (let i = 0; i < 1003; i += 1) b.push(i);
    expect(b.newestFirst()).toEqual([1002, 1001, 1000, 999]);
    expect(b.dropped).toBe(999);
  });

  it('is empty at first and after clear', () => {
    const b = new DeltaBuffer<string>(2);
    expect(b.newestFirst()).toEqual([]);
    expect(b.newest()).toBeUndefined();
    b.pushAll(['a', 'b', 'c']);
    b.clear();
    expect(b.newestFirst()).toEqual([]);
    expect(b.size).toBe(0);
    expect(b.dropped).toBe(0);
    b.push('d');
    expect(b.newestFirst()).toEqual(['d']);
  });

  it('works with capacity one', () => {
    const b = new DeltaBuffer<number>(1);
    b.pushAll([1, 2]);
    expect(b.newestFirst()).toEqual([2]);
  });

  it('rejects a capacity that is not a positive integer', () => {
    expect(() => new DeltaBuffer(0)).toThrow(RangeError);
    expect(() => new DeltaBuffer(1.5)).toThrow(RangeError);
  });

  it('appends in constant time regardless of how much it has seen', () => {
    // Pushing a million items into a small ring must not degrade (no shifting).
    const b = new DeltaBuffer<number>(100);
    const start = performance.now();
    for (let i = 0; i < 1_000_000; i += 1) b.push(i);
    expect(performance.now() - start).toBeLessThan(2000);
    expect(b.newest()).toBe(999_999);
  });

  it('pushMany makes only the items it keeps and gives what pushing each would', () => {
    const made: number[] = [];
    const many = new DeltaBuffer<number>(3);
    many.push(-1);
    many.pushMany(7, (i) => {
      made.push(i);
      return i;
    });
    const each = new DeltaBuffer<number>(3);
    each.push(-1);
    for (let i = 0; i < 7; i += 1) each.push(i);
    expect(many.newestFirst()).toEqual(each.newestFirst());
    expect(many.dropped).toBe(each.dropped);
    expect(made).toEqual([4, 5, 6]);
  });

  it('pushMany of fewer items than the capacity keeps what was there', () => {
    const b = new DeltaBuffer<number>(4);
    b.pushAll([1, 2, 3]);
    b.pushMany(2, (i) => 10 + i);
    expect(b.newestFirst()).toEqual([11, 10, 3, 2]);
    expect(b.dropped).toBe(1);
  });
});
