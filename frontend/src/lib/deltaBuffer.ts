/**
 * A bounded buffer that keeps the newest `capacity` items.
 *
 * A ring: `push` writes one slot and moves the head, so appending is O(1) and
 * memory stays fixed however long a pipeline streams. Reading newest-first
 * copies at most `capacity` items, which is what a render needs anyway.
 *
 * >>> const b = new DeltaBuffer<number>(2); b.push(1); b.push(2); b.push(3);
 * >>> b.newestFirst()  // [3, 2]
 */
export class DeltaBuffer<T> {
  readonly capacity: number;
  private readonly slots: (T | undefined)[];
  /** Index the next push writes to. */
  private head = 0;
  private count = 0;
  private evicted = 0;

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError(`capacity must be a positive integer, got ${capacity}`);
    }
    this.capacity = capacity;
    this.slots = new Array<T | undefined>(capacity);
  }

  /** Number of items held (at most `capacity`). */
  get size(): number {
    return this.count;
  }

  /** Number of items pushed out by newer ones since creation or `clear()`. */
  get dropped(): number {
    return this.evicted;
  }

  push(item: T): void {
    this.slots[this.head] = item;
    this.head = (this.head + 1) % this.capacity;
    if (this.count < this.capacity) {
      this.count += 1;
    } else {
      this.evicted += 1;
    }
  }

  pushAll(items: Iterable<T>): void {
    for (const item of items) this.push(item);
  }

  /**
   * Pushes `count` items in order, the i-th made by `make(i)`. Only the last
   * `capacity` of them are made and written: the earlier ones would be pushed
   * out by them at once, so they are only counted as dropped. A step of 50,000
   * changes costs what 500 do.
   */
  pushMany(count: number, make: (i: number) => T): void {
    const skipped = Math.max(0, count - this.capacity);
    this.evicted += skipped;
    for (let i = skipped; i < count; i += 1) this.push(make(i));
  }

  /** The newest item, or undefined when empty. */
  newest(): T | undefined {
    if (this.count === 0) return undefined;
    return this.slots[(this.head - 1 + this.capacity) % this.capacity];
  }

  /** Items from newest to oldest. */
  newestFirst(): T[] {
    const out: T[] = [];
    for (let i = 1; i <= this.count; i += 1) {
      out.push(this.slots[(this.head - i + this.capacity) % this.capacity] as T);
    }
    return out;
  }

  clear(): void {
    this.slots.fill(undefined);
    this.head = 0;
    this.count = 0;
    this.evicted = 0;
  }
}
