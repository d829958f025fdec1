/** Catalog values for unit tests: a column or relation with defaults, overridden where a test cares. */
import type { Column, Relation } from '../api/types';

export const col = (name: string, type = 'BIGINT', over: Partial<Column> = {}): Column => ({
  name,
  type,
  nullable: false,
  lateness: null,
  watermark: null,
  waterline: false,
  ...over,
});

export const rel = (name: string, kind: Relation['kind'], columns: Column[] = [], over: Partial<Relation> = {}): Relation => ({
  name,
  kind,
  columns,
  primary_key: [],
  append_only: false,
  materialized: false,
  local: false,
  emit_final: null,
  output_mode: kind === 'view' ? 'update' : null,
  ...over,
});
