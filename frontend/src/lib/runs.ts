/**
 * A pipeline's steps are numbered from 1 in each of its runs (a deploy with
 * reset_state starts the next run). A follower of its messages keeps the run it
 * is in: a message of a later run starts it over, one of an earlier run is stale.
 */
export type RunVerdict = 'take' | 'reset' | 'drop';

export class RunTracker {
  constructor(private current: number | null = null) {}

  /** The run the follower is in (null until a message or the page said). */
  get run(): number | null {
    return this.current;
  }

  /**
   * A message of run `next` arrived: `take` it (the same run, or the first run
   * heard of, or a message without a run), `reset` (a later run: what was shown
   * is void; the message is then taken), or `drop` it (an earlier run).
   */
  see(next: number | undefined): RunVerdict {
    if (next === undefined) return 'take';
    if (this.current === null || next === this.current) {
      this.current = next;
      return 'take';
    }
    if (next < this.current) return 'drop';
    this.current = next;
    return 'reset';
  }
}
