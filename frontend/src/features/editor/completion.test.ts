import { describe, expect, it } from 'vitest';
import type { Catalog } from '../../api/types';
import { col, rel } from '../../testing/catalog';
import { aliasesIn, buildCompletions, qualifierBefore, quoteIdentifier, resolveQualifier } from './completion';

const catalog: Catalog = {
  relations: [
    rel('orders', 'table', [col('id'), col('customer', 'VARCHAR', { nullable: true }), col('amount', 'DECIMAL(10,2)')]),
    rel('customers', 'table', [col('id'), col('name', 'VARCHAR')]),
    rel('big', 'view', [col('id'), col('amount', 'DECIMAL(10,2)')]),
  ],
};

describe('qualifierBefore', () => {
  it('finds the name before a dot and a partial word', () => {
    expect(qualifierBefore('SELECT o.')).toBe('o');
    expect(qualifierBefore('SELECT o.am')).toBe('o');
    expect(qualifierBefore('SELECT "My T".x')).toBe('My T');
    expect(qualifierBefore('SELECT amount')).toBeNull();
    expect(qualifierBefore('SELECT 1.5')).toBeNull();
  });
});

describe('aliasesIn and resolveQualifier', () => {
  const sql = 'SELECT o.id FROM orders o JOIN customers AS c ON o.id = c.id WHERE true';

  it('reads FROM and JOIN aliases, not the keywords after a bare table', () => {
    expect([...aliasesIn(sql)]).toEqual([
      ['o', 'orders'],
      ['c', 'customers'],
    ]);
    expect([...aliasesIn('SELECT * FROM orders WHERE x')]).toEqual([]);
    expect([...aliasesIn("SELECT * FROM emp PIVOT (SUM(sal) FOR job IN ('A'))")]).toEqual([]);
    expect([...aliasesIn('SELECT * FROM dept CROSS APPLY (SELECT 1) t')]).toEqual([]);
  });

  it('resolves an alias, else a relation name (case-insensitively)', () => {
    expect(resolveQualifier('c', sql, catalog)?.name).toBe('customers');
    expect(resolveQualifier('ORDERS', sql, catalog)?.name).toBe('orders');
    expect(resolveQualifier('nope', sql, catalog)).toBeUndefined();
  });
});

describe('buildCompletions', () => {
  it('offers only the columns of the qualified relation after a dot', () => {
    const sql = 'SELECT c. FROM customers c';
    const entries = buildCompletions(catalog, sql, 'SELECT c.');
    expect(entries.map((e) => e.label)).toEqual(['id', 'name']);
    expect(entries[1]).toMatchObject({ kind: 'column', detail: 'customers.name VARCHAR NOT NULL' });
  });

  it('offers relations, each column name once, then keywords', () => {
    const entries = buildCompletions(catalog, '', 'SELECT ');
    const labels = entries.map((e) => e.label);
    expect(labels.slice(0, 3)).toEqual(['orders', 'customers', 'big']);
    expect(labels.filter((l) => l === 'id')).toHaveLength(1);
    expect(entries.find((e) => e.label === 'amount')?.detail).toBe('DECIMAL(10,2) · orders, big');
    expect(labels).toContain('LATENESS');
    expect(labels).toContain('SELECT');
    expect(entries.find((e) => e.label === 'big')?.kind).toBe('view');
  });

  it('sorts columns and relations before keywords', () => {
    const entries = buildCompletions(catalog, '', '');
    const rank = (label: string) => entries.find((e) => e.label === label)?.sortText ?? '';
    expect(rank('amount') < rank('SELECT')).toBe(true);
    expect(rank('orders') < rank('amount')).toBe(true);
  });

  it('still offers keywords before the first validation', () => {
    expect(buildCompletions(null, '', '').map((e) => e.label)).toContain('EMIT_FINAL');
  });
});

describe('quoteIdentifier', () => {
  it('quotes names that would not read back as themselves', () => {
    expect(quoteIdentifier('amount')).toBe('amount');
    expect(quoteIdentifier('Amount')).toBe('"Amount"');
    expect(quoteIdentifier('select')).toBe('"select"');
    expect(quoteIdentifier('a"b')).toBe('"a""b"');
  });
});
