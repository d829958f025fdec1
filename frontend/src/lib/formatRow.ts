import type { JsonValue, Row } from '../api/types';

export interface Cell {
  name: string;
  text: string;
  isNull: boolean;
}

/**
 * One value as plain text. SQL NULL reads as NULL, an empty string as '' so it
 * is not mistaken for a missing value; decimals and timestamps arrive as
 * strings and are shown verbatim.
 */
export function formatValue(value: JsonValue | undefined): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'string') return value === '' ? "''" : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/**
 * A row's cells, in the relation's column order when it is known, then any
 * columns the row has that the order does not name (in the row's own order).
 */
export function formatRow(row: Row, columnOrder: readonly string[] = []): Cell[] {
  const cells: Cell[] = [];
  const seen = new Set<string>();
  for (const name of columnOrder) {
    if (!Object.hasOwn(row, name) || seen.has(name)) continue;
    seen.add(name);
    const value = row[name];
    cells.push({ name, text: formatValue(value), isNull: value === null });
  }
  for (const [name, value] of Object.entries(row)) {
    if (seen.has(name)) continue;
    cells.push({ name, text: formatValue(value), isNull: value === null });
  }
  return cells;
}

/** The row on one line, e.g. `id=1, amount=12.50`. */
export function rowText(row: Row, columnOrder: readonly string[] = []): string {
  return formatRow(row, columnOrder)
    .map((c) => `${c.name}=${c.text}`)
    .join(', ');
}
