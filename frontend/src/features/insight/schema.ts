/**
 * What the schema panel says about relations and columns: where a column's
 * waterline comes from (spec: Feldera "Waterlines", SQLstream ROWTIME), and
 * a view's output behaviour.
 */
import type { Column, Relation } from '../../api/types';
import { formatInterval } from '../../lib/format';

export type WaterlineSource = 'lateness' | 'rowtime' | 'inferred';

export interface Waterline {
  source: WaterlineSource;
  /** e.g. "LATENESS 1 hour", "ROWTIME (stream clock)", "inferred" */
  text: string;
  /** A sentence for a tooltip. */
  why: string;
}

/** A constant expression from the catalog (a literal) as text: intervals in words. */
export function constantText(expr: unknown): string {
  if (typeof expr !== 'object' || expr === null) return String(expr);
  const e = expr as { kind?: unknown; value?: unknown; type?: unknown };
  if (e.kind === 'literal' && typeof e.value === 'number' && typeof e.type === 'string' && e.type.startsWith('INTERVAL')) {
    return formatInterval(e.value, e.type);
  }
  if (e.kind === 'literal') return typeof e.value === 'string' ? e.value : JSON.stringify(e.value);
  return JSON.stringify(expr);
}

/** Where the column's waterline comes from, or null when it has none. */
export function waterlineOf(relation: Relation, column: Column): Waterline | null {
  if (column.lateness !== null && column.lateness !== undefined) {
    const amount = constantText(column.lateness);
    return {
      source: 'lateness',
      text: `LATENESS ${amount}`,
      why: `Declared: rows more than ${amount} below the largest ${column.name} seen are late and dropped.`,
    };
  }
  if (relation.kind === 'stream' && column.name.toLowerCase() === 'rowtime') {
    return {
      source: 'rowtime',
      text: 'ROWTIME',
      why: "The stream's clock: rowtime never decreases, and older rows are refused as late.",
    };
  }
  if (column.waterline) {
    return {
      source: 'inferred',
      text: 'inferred',
      why: 'The compiler derived it from a monotone expression over an input waterline (e.g. FLOOR(ts TO HOUR), a window bound).',
    };
  }
  return null;
}

/** A WATERMARK on the column as text ("WATERMARK 5 seconds"), or null. */
export function watermarkOf(column: Column): string | null {
  return column.watermark === null || column.watermark === undefined ? null : `WATERMARK ${constantText(column.watermark)}`;
}

/** The short facts under a relation's name. */
export function relationFacts(relation: Relation): string[] {
  const facts: string[] = [];
  if (relation.kind === 'view') {
    if (relation.output_mode === 'append') facts.push('never retracts a row');
    if (relation.emit_final !== null) {
      const name = relation.columns[relation.emit_final]?.name ?? `#${relation.emit_final}`;
      facts.push(`emit_final on ${name}: rows appear once final`);
    }
    if (relation.local) facts.push('local: not published');
    if (relation.materialized) facts.push('materialized');
  } else {
    if (relation.kind === 'stream') facts.push('append-only, ordered by rowtime');
    else if (relation.append_only) facts.push('append-only');
    if (relation.primary_key.length > 0) facts.push(`primary key (${relation.primary_key.join(', ')})`);
  }
  return facts;
}
