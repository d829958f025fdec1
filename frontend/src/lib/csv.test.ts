import { describe, expect, it } from 'vitest';
import { detectFormat, parseCsv, unknownColumns } from './csv';

describe('parseCsv', () => {
  it('reads a header and rows', () => {
    expect(parseCsv('id,customer\n1,ada\n2,bob\n')).toEqual({
      ok: true,
      table: { header: ['id', 'customer'], rows: [['1', 'ada'], ['2', 'bob']] },
    });
  });

  it('handles quotes, doubled quotes, commas and line breaks inside quotes, and CRLF', () => {
    const parsed = parseCsv('id,note\r\n1,"a, ""quoted""\nline"\r\n2,\r\n');
    expect(parsed).toEqual({
      ok: true,
      table: { header: ['id', 'note'], rows: [['1', 'a, "quoted"\nline'], ['2', '']] },
    });
  });

  it('skips blank lines and trims header names', () => {
    expect(parseCsv('\n id , name \n\n1,x\n\n')).toEqual({ ok: true, table: { header: ['id', 'name'], rows: [['1', 'x']] } });
  });

  it('reports the mistakes a paste most often has', () => {
    expect(parseCsv('')).toMatchObject({ ok: false, error: expect.stringContaining('header') as unknown });
    expect(parseCsv('id,name\n1\n')).toEqual({ ok: false, error: 'Row 1 has 1 field; the header has 2.' });
    expect(parseCsv('id,id\n1,2')).toEqual({ ok: false, error: "The header names 'id' twice." });
    expect(parseCsv('id,\n1,2')).toEqual({ ok: false, error: 'The header has an empty column name.' });
    expect(parseCsv('id\n"open')).toEqual({ ok: false, error: 'A quoted field is not closed.' });
  });

  it('accepts a header with no rows (nothing to send, but not wrong)', () => {
    expect(parseCsv('id,name')).toEqual({ ok: true, table: { header: ['id', 'name'], rows: [] } });
  });
});

describe('unknownColumns', () => {
  it('matches names without regard to case, as SQL folds them', () => {
    expect(unknownColumns(['ID', 'amount', 'nope'], ['id', 'amount'])).toEqual(['nope']);
  });
});

describe('detectFormat', () => {
  it('takes a leading [ or { as JSON', () => {
    expect(detectFormat('  [{"id": 1}]')).toBe('json');
    expect(detectFormat('{"id": 1}')).toBe('json');
    expect(detectFormat('id,name\n1,x')).toBe('csv');
    expect(detectFormat('')).toBe('json');
  });
});
