/** The ingest box's logic: which relations take input, and reading what was typed. */
import type { Catalog, Change, Column, Relation } from '../api/types';

/** Tables and streams, in catalog (program) order: the relations that accept input. */
export function ingestTargets(catalog: Catalog | null | undefined): Relation[] {
  return (catalog?.relations ?? []).filter((r) => r.kind === 'table' || r.kind === 'stream');
}

export type ParsedIngest = { ok: true; changes: Change[] } | { ok: false; error: string };

/**
 * Reads the textarea: a JSON array of rows (`{col: value}`) or changes
 * (`{"insert": row}` / `{"delete": row}`). Shape errors are reported here so
 * nothing obviously wrong is sent; column and type checks are the server's.
 */
export function parseIngestInput(text: string): ParsedIngest {
  if (text.trim() === '') return { ok: false, error: 'Enter a JSON array of rows or changes.' };
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    return { ok: false, error: `Not valid JSON: ${detail}` };
  }
  if (!Array.isArray(value)) {
    return { ok: false, error: 'Expected a JSON array, e.g. [{"id": 1}].' };
  }
  for (const [i, item] of value.entries()) {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      return { ok: false, error: `Item ${i + 1} is not an object.` };
    }
  }
  return { ok: true, changes: value as Change[] };
}

function exampleValue(column: Column): string | number | boolean {
  const t = column.type.toUpperCase();
  if (t === 'BOOLEAN') return true;
  if (['TINYINT', 'SMALLINT', 'INTEGER', 'BIGINT'].includes(t)) return 1;
  if (t === 'REAL' || t === 'DOUBLE') return 1.5;
  if (t.startsWith('DECIMAL')) return '1.00';
  if (t === 'DATE') return '2024-01-01';
  if (t === 'TIME') return '10:00:00';
  if (t === 'TIMESTAMP') return '2024-01-01 10:00:00';
  return 'text';
}

/** A one-row example for a relation, used as the textarea's placeholder. */
export function exampleInput(relation: Relation | undefined): string {
  if (!relation || relation.columns.length === 0) return '[{"id": 1}]';
  const row: Record<string, string | number | boolean> = {};
  for (const c of relation.columns) row[c.name] = exampleValue(c);
  return JSON.stringify([row]);
}
