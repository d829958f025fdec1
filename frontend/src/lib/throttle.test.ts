import { describe, expect, it } from 'vitest';
import { throttle, type Timers } from './throttle';

function fakeTimers() {
  let now = 0;
  let queue: { at: number; fn: () => void; id: number }[] = [];
  let nextId = 0;
  const timers: Timers = {
    now: () => now,
    setTimeout: (fn, ms) => {
      const id = nextId++;
      queue.push({ at: now + ms, fn, id });
      return id;
    },
    clearTimeout: (id) => {
      queue = queue.filter((t) => t.id !== id);
    },
  };
  const advance = (ms: number) => {
    now += ms;
    const due = queue.filter((t) => t.at <= now);
    queue = queue.filter((t) => t.at > now);
    for (const t of due) t.fn();
  };
  return { timers, advance };
}

describe('throttle', () => {
  it('calls at once, then once at the end of a burst', () => {
    const { timers, advance } = fakeTimers();
    let calls = 0;
    const t = throttle(() => (calls += 1), 100, timers);
    for (let i = 0; i < 1000; i += 1) t();
    expect(calls).toBe(1);
    advance(99);
    expect(calls).toBe(1);
    advance(1);
    expect(calls).toBe(2);
    advance(1000);
    expect(calls).toBe(2);
  });

  it('calls at once again after a quiet interval', () => {
    const { timers, advance } = fakeTimers();
    let calls = 0;
    const t = throttle(() => (calls += 1), 100, timers);
    t();
    advance(150);
    t();
    expect(calls).toBe(2);
  });

  it('cancel drops the trailing call', () => {
    const { timers, advance } = fakeTimers();
    let calls = 0;
    const t = throttle(() => (calls += 1), 100, timers);
    t();
    t();
    t.cancel();
    advance(200);
    expect(calls).toBe(1);
  });
});
