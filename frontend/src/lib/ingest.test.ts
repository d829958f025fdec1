import { describe, expect, it } from 'vitest';
import type { Column, Relation } from '../api/types';
import { exampleInput, ingestTargets, parseIngestInput } from './ingest';

const rel = (name: string, kind: Relation['kind'], columns: Relation['columns'] = []): Relation => ({
  name,
  kind,
  columns,
  primary_key: [],
  append_only: false,
  materialized: false,
  local: false,
  emit_final: null,
  output_mode: null,
});

const col = (name: string, type: string, nullable: boolean): Column => ({
  name,
  type,
  nullable,
  lateness: null,
  watermark: null,
  waterline: false,
});

describe('ingestTargets', () => {
  it('keeps tables and streams in program order and leaves views out', () => {
    const catalog = { relations: [rel('orders', 'table'), rel('big', 'view'), rel('clicks', 'stream')] };
    expect(ingestTargets(catalog).map((r) => r.name)).toEqual(['orders', 'clicks']);
  });

  it('is empty without a catalog', () => {
    expect(ingestTargets(null)).toEqual([]);
  });
});

describe('parseIngestInput', () => {
  it('accepts an array of rows and changes', () => {
    const parsed = parseIngestInput('[{"id": 1}, {"delete": {"id": 2}}]');
    expect(parsed).toEqual({ ok: true, changes: [{ id: 1 }, { delete: { id: 2 } }] });
  });

  it('rejects empty input, bad JSON, a non-array and non-object items', () => {
    expect(parseIngestInput('  ')).toMatchObject({ ok: false });
    expect(parseIngestInput('[{')).toMatchObject({ ok: false, error: expect.stringContaining('Not valid JSON') as unknown });
    expect(parseIngestInput('{"id": 1}')).toMatchObject({ ok: false, error: expect.stringContaining('array') as unknown });
    expect(parseIngestInput('[{"id": 1}, 3]')).toEqual({ ok: false, error: 'Item 2 is not an object.' });
  });

  it('accepts an empty array (the server decides whether that is useful)', () => {
    expect(parseIngestInput('[]')).toEqual({ ok: true, changes: [] });
  });
});

describe('exampleInput', () => {
  it('builds a row with a plausible value per column type', () => {
    const r = rel('orders', 'table', [
      col('id', 'BIGINT', false),
      col('amount', 'DECIMAL(10,2)', true),
      col('ts', 'TIMESTAMP', false),
      col('ok', 'BOOLEAN', true),
      col('note', 'VARCHAR', true),
    ]);
    expect(JSON.parse(exampleInput(r))).toEqual([
      { id: 1, amount: '1.00', ts: '2024-01-01 10:00:00', ok: true, note: 'text' },
    ]);
  });

  it('falls back to a generic example', () => {
    expect(exampleInput(undefined)).toBe('[{"id": 1}]');
  });
});
