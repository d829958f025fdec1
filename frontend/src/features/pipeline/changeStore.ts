/**
 * The change panel's data: per view, the newest changes in a bounded buffer.
 *
 * An external store (subscribe / getSnapshot) so websocket messages can land
 * outside React and components re-render from an immutable snapshot.
 */
import type { Row } from '../../api/types';
import type { ChangeKind, NormalChange } from '../../lib/changes';
import { DeltaBuffer } from '../../lib/deltaBuffer';
import type { ParsedDelta } from '../../lib/wsMessages';

export interface ChangeRow {
  /** Unique within the store, for React keys. */
  key: number;
  step: number;
  kind: ChangeKind;
  row: Row;
}

export interface ViewChanges {
  view: string;
  rows: readonly ChangeRow[];
  /** Changes pushed out of the buffer by newer ones. */
  dropped: number;
  lastStep: number;
}

export interface ChangeSnapshot {
  views: readonly ViewChanges[];
  /** The highest step seen on any view, or null before the first delta. */
  lastStep: number | null;
  /** Changes received since the store was made (cleared or not): a display paused at n has missed `received - n`. */
  received: number;
}

const EMPTY: ChangeSnapshot = { views: [], lastStep: null, received: 0 };

export class ChangeStore {
  private readonly buffers = new Map<string, DeltaBuffer<ChangeRow>>();
  private readonly lastStepByView = new Map<string, number>();
  private readonly listeners = new Set<() => void>();
  private nextKey = 0;
  private received = 0;
  private maxStep: number | null = null;
  private snapshot: ChangeSnapshot = EMPTY;
  private dirty = false;

  constructor(readonly capacityPerView: number) {}

  /**
   * Adds a delta. Each view gets one delta per step, so a delta for a step the
   * view already has is a replay (a reconnect's stored deltas overlapping the
   * live ones) and is ignored; returns whether it was added.
   */
  add(delta: ParsedDelta): boolean {
    const previous = this.lastStepByView.get(delta.view);
    if (previous !== undefined && delta.step <= previous) return false;
    let buffer = this.buffers.get(delta.view);
    if (!buffer) {
      buffer = new DeltaBuffer<ChangeRow>(this.capacityPerView);
      this.buffers.set(delta.view, buffer);
    }
    // Pushed last-to-first so that, read newest first, steps are newest first
    // while the changes of one step keep the server's order (a delete before
    // the insert that replaces it). Only the rows the buffer keeps are made.
    const { changes, step } = delta;
    const last = changes.length - 1;
    buffer.pushMany(changes.length, (i) => {
      const change = changes[last - i] as NormalChange;
      return { key: this.nextKey++, step, kind: change.kind, row: change.row };
    });
    this.received += delta.changes.length;
    this.lastStepByView.set(delta.view, delta.step);
    this.maxStep = this.maxStep === null ? delta.step : Math.max(this.maxStep, delta.step);
    this.dirty = true;
    for (const listener of this.listeners) listener();
    return true;
  }

  get lastStep(): number | null {
    return this.maxStep;
  }

  /**
   * Empties every view's buffer. The steps already seen stay remembered, so
   * a reconnect replaying them does not bring the cleared rows back.
   */
  clear(): void {
    for (const buffer of this.buffers.values()) buffer.clear();
    this.dirty = true;
    for (const listener of this.listeners) listener();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): ChangeSnapshot => {
    if (this.dirty) {
      this.dirty = false;
      this.snapshot = {
        lastStep: this.maxStep,
        received: this.received,
        views: [...this.buffers.entries()].map(([view, buffer]) => ({
          view,
          rows: buffer.newestFirst(),
          dropped: buffer.dropped,
          lastStep: this.lastStepByView.get(view) ?? 0,
        })),
      };
    }
    return this.snapshot;
  };
}

/**
 * The views to show, in catalog order first (so every view appears even
 * before it changes), then any others the stream mentioned.
 */
export function orderedViews(catalogViews: readonly string[], snapshot: ChangeSnapshot): ViewChanges[] {
  const byName = new Map(snapshot.views.map((v) => [v.view, v]));
  const out: ViewChanges[] = catalogViews.map(
    (view) => byName.get(view) ?? { view, rows: [], dropped: 0, lastStep: 0 },
  );
  const known = new Set(catalogViews);
  for (const v of snapshot.views) if (!known.has(v.view)) out.push(v);
  return out;
}
