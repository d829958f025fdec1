/**
 * Reading pasted CSV (RFC 4180: quoted fields, "" for a quote, commas and
 * line breaks inside quotes) so the ingest box can say what it will send
 * before it sends it. The server parses the same text again and types the
 * values; this is only for the preview and early mistakes.
 */

export interface CsvTable {
  header: string[];
  rows: string[][];
}

export type CsvResult = { ok: true; table: CsvTable } | { ok: false; error: string };

/** Splits CSV text into records of fields. */
function records(text: string): { records: string[][]; unterminated: boolean } {
  const out: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  while (i < text.length) {
    const c = text.charAt(i);
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else {
        field += c;
      }
      i += 1;
      continue;
    }
    if (c === '"' && field === '') {
      quoted = true;
    } else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      record.push(field);
      out.push(record);
      record = [];
      field = '';
      if (c === '\r' && text[i + 1] === '\n') i += 1;
    } else {
      field += c;
    }
    i += 1;
  }
  if (field !== '' || record.length > 0) {
    record.push(field);
    out.push(record);
  }
  return { records: out, unterminated: quoted };
}

const isBlank = (record: readonly string[]): boolean => record.length === 1 && record[0]?.trim() === '';

/** A header line and rows, each row as long as the header. */
export function parseCsv(text: string): CsvResult {
  const { records: all, unterminated } = records(text);
  if (unterminated) return { ok: false, error: 'A quoted field is not closed.' };
  const lines = all.filter((r) => !isBlank(r));
  const [header, ...rows] = lines;
  if (header === undefined) return { ok: false, error: 'Enter a header line, then one line per row.' };
  const names = header.map((h) => h.trim());
  if (names.some((n) => n === '')) return { ok: false, error: 'The header has an empty column name.' };
  const dupe = names.find((n, i) => names.indexOf(n) !== i);
  if (dupe !== undefined) return { ok: false, error: `The header names '${dupe}' twice.` };
  for (const [i, row] of rows.entries()) {
    if (row.length !== names.length) {
      return {
        ok: false,
        error: `Row ${i + 1} has ${row.length} field${row.length === 1 ? '' : 's'}; the header has ${names.length}.`,
      };
    }
  }
  return { ok: true, table: { header: names, rows } };
}

/**
 * Header names the relation does not have (SQL folds unquoted names to lower
 * case, so the match ignores case as the server's does).
 */
export function unknownColumns(header: readonly string[], columns: readonly string[]): string[] {
  const known = new Set(columns.map((c) => c.toLowerCase()));
  return header.filter((h) => !known.has(h.toLowerCase()));
}

export type IngestFormat = 'json' | 'csv';

/** JSON when the text starts like JSON (an array or an object) or is empty (the API's own format), CSV otherwise. */
export function detectFormat(text: string): IngestFormat {
  const first = text.trimStart()[0];
  return first === undefined || first === '[' || first === '{' ? 'json' : 'csv';
}
