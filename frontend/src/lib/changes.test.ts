import { describe, expect, it } from 'vitest';
import { normaliseChange } from './changes';

describe('normaliseChange', () => {
  it('reads an explicit insert', () => {
    expect(normaliseChange({ insert: { id: 1 } })).toEqual({ kind: 'insert', row: { id: 1 } });
  });

  it('reads an explicit delete', () => {
    expect(normaliseChange({ delete: { id: 1 } })).toEqual({ kind: 'delete', row: { id: 1 } });
  });

  it('treats a bare row as an insert', () => {
    expect(normaliseChange({ id: 1, amount: '2.50' })).toEqual({
      kind: 'insert',
      row: { id: 1, amount: '2.50' },
    });
  });

  it('treats a column that happens to be named insert as a bare row when its value is not a row', () => {
    expect(normaliseChange({ insert: 5 })).toEqual({ kind: 'insert', row: { insert: 5 } });
  });

  it('rejects values that are not objects', () => {
    expect(normaliseChange(null)).toBeNull();
    expect(normaliseChange([{ id: 1 }])).toBeNull();
    expect(normaliseChange('x')).toBeNull();
  });
});
