import { describe, expect, it } from 'vitest';
import { col, rel } from '../testing/catalog';
import { exampleCsv, exampleInput, ingestTargets, parseIngestInput, prepareIngest } from './ingest';

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
      col('id', 'BIGINT'),
      col('amount', 'DECIMAL(10,2)', { nullable: true }),
      col('ts', 'TIMESTAMP'),
      col('ok', 'BOOLEAN', { nullable: true }),
      col('note', 'VARCHAR', { nullable: true }),
    ]);
    expect(JSON.parse(exampleInput(r))).toEqual([
      { id: 1, amount: '1.00', ts: '2024-01-01 10:00:00', ok: true, note: 'text' },
    ]);
  });

  it('gives an ARRAY column a list and a ROW column an object of its fields', () => {
    const r = rel('orders', 'table', [
      col('tags', 'VARCHAR ARRAY'),
      col('customer', 'ROW(name VARCHAR NOT NULL, "the tier" INTEGER, at ROW(d DATE) ARRAY)'),
    ]);
    expect(JSON.parse(exampleInput(r))).toEqual([
      { tags: ['text'], customer: { name: 'text', 'the tier': 1, at: [{ d: '2024-01-01' }] } },
    ]);
    expect(exampleCsv(r)).toBe(
      'tags,customer\n"[""text""]","{""name"":""text"",""the tier"":1,""at"":[{""d"":""2024-01-01""}]}"',
    );
  });

  it('gives a UUID column a UUID', () => {
    const r = rel('t', 'table', [col('id', 'UUID')]);
    expect(JSON.parse(exampleInput(r))).toEqual([{ id: '123e4567-e89b-12d3-a456-426655440000' }]);
  });

  it('gives a VARBINARY column the list of its bytes', () => {
    const r = rel('t', 'table', [col('b', 'VARBINARY'), col('bs', 'VARBINARY ARRAY')]);
    expect(JSON.parse(exampleInput(r))).toEqual([{ b: [202, 254], bs: [[202, 254]] }]);
  });

  it('gives a MAP column an object of one key', () => {
    const r = rel('data', 'table', [col('zips', 'MAP<VARCHAR, INTEGER ARRAY>'), col('n', 'MAP<INTEGER, ROW(a DATE)>')]);
    expect(JSON.parse(exampleInput(r))).toEqual([{ zips: { text: [1] }, n: { '1': { a: '2024-01-01' } } }]);
  });

  it('falls back to a generic example', () => {
    expect(exampleInput(undefined)).toBe('[{"id": 1}]');
  });
});

describe('prepareIngest', () => {
  const orders = rel('orders', 'table', [col('id', 'BIGINT'), col('customer', 'VARCHAR', { nullable: true })]);

  it('sends JSON as changes', () => {
    expect(prepareIngest('[{"id": 1}, {"delete": {"id": 2}}]', 'json', orders)).toEqual({
      ok: true,
      format: 'json',
      changes: [{ id: 1 }, { delete: { id: 2 } }],
      summary: '2 changes',
    });
    expect(prepareIngest('{}', 'json', orders)).toMatchObject({ ok: false });
  });

  it('sends CSV as it is, once its shape and column names check out', () => {
    expect(prepareIngest('ID,customer\n1,ada\n2,bob\n', 'csv', orders)).toEqual({
      ok: true,
      format: 'csv',
      csv: 'ID,customer\n1,ada\n2,bob\n',
      summary: '2 rows to insert',
    });
    expect(prepareIngest('id,nope\n1,x', 'csv', orders)).toEqual({ ok: false, error: "orders has no column 'nope'." });
    expect(prepareIngest('id\n', 'csv', orders)).toEqual({ ok: false, error: 'The CSV has a header but no rows.' });
    expect(prepareIngest('  ', 'csv', orders)).toMatchObject({ ok: false });
    expect(prepareIngest('id,customer\n1', 'csv', orders)).toMatchObject({ ok: false, error: expect.stringContaining('Row 1') as unknown });
  });
});

describe('exampleCsv', () => {
  it('is a header and one row of example values', () => {
    expect(exampleCsv(rel('t', 'table', [col('id', 'BIGINT'), col('at', 'TIMESTAMP')]))).toBe(
      'id,at\n1,2024-01-01 10:00:00',
    );
  });
});
