import { describe, expect, it } from 'vitest';
import { QueryTail, isStreamed, parseStreamLine } from './queryStream';

describe('parseStreamLine', () => {
  it('reads the three shapes of the contract', () => {
    expect(parseStreamLine({ columns: [{ name: 'id', type: 'BIGINT' }] })).toEqual({
      type: 'columns',
      columns: [{ name: 'id', type: 'BIGINT' }],
    });
    expect(parseStreamLine({ snapshot: true, step: 3, rows: [{ id: 1 }, 'junk'] })).toEqual({
      type: 'snapshot',
      step: 3,
      rows: [{ id: 1 }],
    });
    expect(parseStreamLine({ step: 4, changes: [{ insert: { id: 2 } }, { delete: { id: 1 } }, { id: 3 }] })).toEqual({
      type: 'changes',
      step: 4,
      changes: [
        { kind: 'insert', row: { id: 2 } },
        { kind: 'delete', row: { id: 1 } },
        { kind: 'insert', row: { id: 3 } },
      ],
    });
  });

  it('refuses anything else', () => {
    expect(parseStreamLine(null)).toBeNull();
    expect(parseStreamLine([1])).toBeNull();
    expect(parseStreamLine({ step: 'x', changes: [] })).toBeNull();
    expect(parseStreamLine({ step: 1 })).toBeNull();
    expect(parseStreamLine({ columns: [{ name: 1 }] })).toBeNull();
  });
});

describe('QueryTail', () => {
  it('keeps the newest rows, newest step first, a step in server order', () => {
    const tail = new QueryTail(3);
    tail.apply({ type: 'columns', columns: [{ name: 'id', type: 'BIGINT' }] });
    tail.apply({ type: 'snapshot', step: 1, rows: [{ id: 1 }] });
    tail.apply({ type: 'changes', step: 2, changes: [{ kind: 'delete', row: { id: 1 } }, { kind: 'insert', row: { id: 2 } }] });
    expect(tail.rows().map((r) => `${r.step}${r.kind}${JSON.stringify(r.row.id)}`)).toEqual(['2delete1', '2insert2', '1snapshot1']);
    tail.apply({ type: 'changes', step: 3, changes: [{ kind: 'insert', row: { id: 3 } }] });
    expect(tail.rows()).toHaveLength(3);
    expect(tail.dropped).toBe(1);
    expect(tail.lastStep).toBe(3);
    expect(tail.steps).toBe(3);
    expect(tail.columns.map((c) => c.name)).toEqual(['id']);
  });
});

describe('isStreamed', () => {
  it('is true for NDJSON only', () => {
    expect(isStreamed('application/x-ndjson')).toBe(true);
    expect(isStreamed('application/json')).toBe(false);
    expect(isStreamed(null)).toBe(false);
  });
});
