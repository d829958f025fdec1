/**
 * The lines of a streamed answer (SELECT STREAM, egress) checked and kept:
 * the columns, an optional snapshot, then each step's changes, the newest
 * `capacity` changes held in a ring so a long tail stays small.
 */
import type { QueryColumn } from '../api/types';
import type { Row } from '../api/types';
import { normaliseChange, type ChangeKind } from './changes';
import { DeltaBuffer } from './deltaBuffer';

export type StreamEvent =
  | { type: 'columns'; columns: QueryColumn[] }
  | { type: 'snapshot'; step: number; rows: Row[] }
  | { type: 'changes'; step: number; changes: { kind: ChangeKind; row: Row }[] };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function isColumn(v: unknown): v is QueryColumn {
  return isObject(v) && typeof v.name === 'string' && typeof v.type === 'string';
}

/** One parsed line as an event, or null when it is none of the contract's shapes. */
export function parseStreamLine(value: unknown): StreamEvent | null {
  if (!isObject(value)) return null;
  if (Array.isArray(value.columns) && value.columns.every(isColumn)) return { type: 'columns', columns: value.columns };
  const step = value.step;
  if (typeof step !== 'number' || !Number.isSafeInteger(step)) return null;
  if (value.snapshot === true && Array.isArray(value.rows)) {
    return { type: 'snapshot', step, rows: value.rows.filter(isObject) as Row[] };
  }
  if (Array.isArray(value.changes)) {
    const changes = value.changes.map(normaliseChange).filter((c) => c !== null);
    return { type: 'changes', step, changes };
  }
  return null;
}

export interface TailRow {
  key: number;
  step: number;
  kind: ChangeKind | 'snapshot';
  row: Row;
}

/** What a live tail shows: the columns and the newest rows, newest first. */
export class QueryTail {
  columns: QueryColumn[] = [];
  lastStep: number | null = null;
  steps = 0;
  private readonly buffer: DeltaBuffer<TailRow>;
  private nextKey = 0;

  constructor(capacity: number) {
    this.buffer = new DeltaBuffer<TailRow>(capacity);
  }

  apply(event: StreamEvent): void {
    if (event.type === 'columns') {
      this.columns = event.columns;
      return;
    }
    this.lastStep = event.step;
    this.steps += 1;
    if (event.type === 'snapshot') {
      for (const row of event.rows) this.buffer.push({ key: this.nextKey++, step: event.step, kind: 'snapshot', row });
    } else {
      // Last to first, so that read newest first a step keeps the server's order.
      for (let i = event.changes.length - 1; i >= 0; i -= 1) {
        const c = event.changes[i];
        if (c) this.buffer.push({ key: this.nextKey++, step: event.step, kind: c.kind, row: c.row });
      }
    }
  }

  rows(): TailRow[] {
    return this.buffer.newestFirst();
  }

  get dropped(): number {
    return this.buffer.dropped;
  }
}

/** SELECT STREAM answers NDJSON; a plain SELECT answers one JSON object. */
export function isStreamed(contentType: string | null): boolean {
  return (contentType ?? '').toLowerCase().includes('ndjson');
}
