import { describe, expect, it } from 'vitest';
import { formatRow, formatValue, rowText } from './formatRow';

describe('formatValue', () => {
  it('shows SQL NULL as NULL', () => {
    expect(formatValue(null)).toBe('NULL');
    expect(formatValue(undefined)).toBe('NULL');
  });

  it('shows strings verbatim, and the empty string visibly', () => {
    expect(formatValue('2020-01-01 10:00:00')).toBe('2020-01-01 10:00:00');
    expect(formatValue('12.50')).toBe('12.50');
    expect(formatValue('')).toBe("''");
  });

  it('shows numbers and booleans as JavaScript prints them', () => {
    expect(formatValue(42)).toBe('42');
    expect(formatValue(-0.5)).toBe('-0.5');
    expect(formatValue(true)).toBe('true');
  });

  it('shows nested values as JSON', () => {
    expect(formatValue({ a: 1 })).toBe('{"a":1}');
    expect(formatValue([1, 'x'])).toBe('[1,"x"]');
  });

  it('leaves markup as text for the caller to render as text', () => {
    expect(formatValue('<img src=x onerror=alert(1)>')).toBe('<img src=x onerror=alert(1)>');
  });
});

describe('formatRow', () => {
  it('orders cells by the given column order, then the rest in row order', () => {
    const cells = formatRow({ z: 1, amount: '9.99', id: 7 }, ['id', 'amount']);
    expect(cells.map((c) => c.name)).toEqual(['id', 'amount', 'z']);
    expect(cells.map((c) => c.text)).toEqual(['7', '9.99', '1']);
  });

  it('skips ordered columns the row does not have', () => {
    expect(formatRow({ id: 1 }, ['id', 'missing']).map((c) => c.name)).toEqual(['id']);
  });

  it('marks NULL cells', () => {
    const [cell] = formatRow({ note: null });
    expect(cell).toEqual({ name: 'note', text: 'NULL', isNull: true });
  });

  it('does not treat inherited properties as columns', () => {
    expect(formatRow({ id: 1 }, ['toString']).map((c) => c.name)).toEqual(['id']);
  });
});

describe('rowText', () => {
  it('joins name=value pairs', () => {
    expect(rowText({ id: 1, name: 'a' })).toBe('id=1, name=a');
  });
});
