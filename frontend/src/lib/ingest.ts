/** The ingest box's logic: which relations take input, and reading what was typed. */
import type { Catalog, Change, Relation } from '../api/types';
import { parseCsv, unknownColumns, type IngestFormat } from './csv';

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

type Example = string | number | boolean | Example[] | { [field: string]: Example };

/**
 * A plausible value of a type: a list for an `ARRAY` (and the bytes of a `VARBINARY`), an object
 * for a `ROW(...)` (by field) or a `MAP<K, V>` (one key).
 */
function exampleValue(sqlType: string): Example {
  const t = sqlType.toUpperCase();
  if (t.endsWith(' ARRAY')) return [exampleValue(sqlType.slice(0, -' ARRAY'.length))];
  if (t.startsWith('ROW(') && t.endsWith(')')) {
    return Object.fromEntries(rowFields(sqlType).map(([name, type]) => [name, exampleValue(type)]));
  }
  if (t.startsWith('MAP<') && t.endsWith('>')) {
    const [keyType = '', valueType = ''] = topLevelParts(sqlType.slice('MAP<'.length, -1));
    const key = exampleValue(keyType.trim());
    return { [typeof key === 'object' ? JSON.stringify(key) : String(key)]: exampleValue(valueType.trim()) };
  }
  if (t === 'BOOLEAN') return true;
  if (['TINYINT', 'SMALLINT', 'INTEGER', 'BIGINT'].includes(t)) return 1;
  if (t === 'REAL' || t === 'DOUBLE') return 1.5;
  if (t.startsWith('DECIMAL')) return '1.00';
  if (t === 'DATE') return '2024-01-01';
  if (t === 'TIME') return '10:00:00';
  if (t === 'TIMESTAMP') return '2024-01-01 10:00:00';
  if (t === 'UUID') return '123e4567-e89b-12d3-a456-426655440000';
  if (t === 'VARBINARY') return [202, 254]; // bytes: the list of their numbers (x'CAFE')
  return 'text';
}

/** The (name, type) of each field of `ROW(a INTEGER NOT NULL, "b c" VARCHAR, ...)`. */
function rowFields(sqlType: string): [string, string][] {
  return topLevelParts(sqlType.slice(sqlType.indexOf('(') + 1, -1)).map((part) => {
    const text = part.trim();
    const match = text.startsWith('"') ? /^"((?:[^"]|"")*)"\s+(.*)$/.exec(text) : /^(\S+)\s+(.*)$/.exec(text);
    const name = (match?.[1] ?? text).replace(/""/g, '"');
    const type = (match?.[2] ?? '').replace(/ NOT NULL$/, '');
    return [name, type];
  });
}

/** A one-row example for a relation, used as the textarea's placeholder. */
export function exampleInput(relation: Relation | undefined): string {
  if (!relation || relation.columns.length === 0) return '[{"id": 1}]';
  const row: Record<string, Example> = {};
  for (const c of relation.columns) row[c.name] = exampleValue(c.type);
  return JSON.stringify([row]);
}

/** What the Send button will do with the text, or why it cannot. */
export type IngestRequest =
  | { ok: true; format: 'json'; changes: Change[]; summary: string }
  | { ok: true; format: 'csv'; csv: string; summary: string }
  | { ok: false; error: string };

const rowsWord = (n: number): string => `${n} row${n === 1 ? '' : 's'}`;

/**
 * Reads the box as JSON changes or as CSV (a header, then rows to insert),
 * checking what can be checked here: the JSON's shape, the CSV's shape and
 * its column names against the relation's. The server checks types.
 */
export function prepareIngest(text: string, format: IngestFormat, relation: Relation | undefined): IngestRequest {
  if (format === 'json') {
    const parsed = parseIngestInput(text);
    if (!parsed.ok) return parsed;
    const n = parsed.changes.length;
    return { ok: true, format: 'json', changes: parsed.changes, summary: `${n} change${n === 1 ? '' : 's'}` };
  }
  if (text.trim() === '') return { ok: false, error: 'Enter a CSV header line, then one line per row.' };
  const parsed = parseCsv(text);
  if (!parsed.ok) return parsed;
  if (parsed.table.rows.length === 0) return { ok: false, error: 'The CSV has a header but no rows.' };
  if (relation) {
    const unknown = unknownColumns(
      parsed.table.header,
      relation.columns.map((c) => c.name),
    );
    if (unknown.length > 0) {
      return { ok: false, error: `${relation.name} has no column ${unknown.map((u) => `'${u}'`).join(', ')}.` };
    }
  }
  return { ok: true, format: 'csv', csv: text, summary: `${rowsWord(parsed.table.rows.length)} to insert` };
}

/** A CSV example for a relation: its header and one row. */
export function exampleCsv(relation: Relation | undefined): string {
  if (!relation || relation.columns.length === 0) return 'id\n1';
  const values = relation.columns.map((c) => {
    const example = exampleValue(c.type);
    const v = typeof example === 'object' ? JSON.stringify(example) : String(example); // a list or object as JSON
    return /[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
  });
  return `${relation.columns.map((c) => c.name).join(',')}\n${values.join(',')}`;
}

/** `body` split at the commas outside brackets and quoted names. */
function topLevelParts(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '(' || ch === '<')) depth++;
    else if (!quoted && (ch === ')' || ch === '>')) depth--;
    else if (!quoted && depth === 0 && ch === ',') {
      parts.push(body.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(body.slice(start));
  return parts;
}
