import type { Row } from '../api/types';

export type ChangeKind = 'insert' | 'delete';

export interface NormalChange {
  kind: ChangeKind;
  row: Row;
}

function isRow(value: unknown): value is Row {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `{"insert": row}` and `{"delete": row}` as they are; any other object is a
 * bare row, which the contract defines as an insert. Returns null for values
 * that are not objects at all.
 */
export function normaliseChange(change: unknown): NormalChange | null {
  if (!isRow(change)) return null;
  const keys = Object.keys(change);
  if (keys.length === 1) {
    const only = keys[0];
    const inner = only === undefined ? undefined : change[only];
    if ((only === 'insert' || only === 'delete') && isRow(inner)) {
      return { kind: only, row: inner };
    }
  }
  return { kind: 'insert', row: change };
}
