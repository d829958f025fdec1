import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../api/types';
import { problemLocation, problemSummary, sortDiagnostics, visibleDiagnostics } from './problems';

const d = (code: string, line: number, col: number, severity: Diagnostic['severity'] = 'error'): Diagnostic => ({
  code,
  severity,
  message: code,
  start_line_number: line,
  start_column: col,
  end_line_number: line,
  end_column: col + 1,
  snippet: '',
  hint: null,
  notes: [],
});

describe('sortDiagnostics', () => {
  it('orders by line, then column, errors first at the same place', () => {
    const sorted = sortDiagnostics([d('c', 3, 1), d('w', 1, 5, 'warning'), d('a', 1, 5), d('b', 1, 2)]);
    expect(sorted.map((x) => x.code)).toEqual(['b', 'a', 'w', 'c']);
  });

  it('does not reorder its input', () => {
    const input = [d('b', 2, 1), d('a', 1, 1)];
    sortDiagnostics(input);
    expect(input.map((x) => x.code)).toEqual(['b', 'a']);
  });
});

describe('problemLocation and problemSummary', () => {
  it('formats line:col', () => {
    expect(problemLocation(d('x', 12, 7))).toBe('12:7');
  });

  it('counts errors and warnings', () => {
    expect(problemSummary([])).toBe('No problems');
    expect(problemSummary([d('a', 1, 1)])).toBe('1 error');
    expect(problemSummary([d('a', 1, 1), d('b', 1, 1), d('c', 1, 1, 'warning')])).toBe('2 errors, 1 warning');
    expect(problemSummary([d('c', 1, 1, 'warning'), d('c', 1, 1, 'warning')])).toBe('2 warnings');
  });
});

describe('visibleDiagnostics', () => {
  it('hides warnings only when asked', () => {
    const all = [d('a', 1, 1), d('w', 2, 1, 'warning')];
    expect(visibleDiagnostics(all, true)).toBe(all);
    expect(visibleDiagnostics(all, false).map((x) => x.code)).toEqual(['a']);
  });
});
