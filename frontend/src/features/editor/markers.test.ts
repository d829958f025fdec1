import { describe, expect, it } from 'vitest';
import type { Uri } from 'monaco-editor/editor';
import type { Diagnostic } from '../../api/types';
import { MARKER_OWNER, diagnosticRange, toMarker, toMarkers, type SeverityEnum } from './markers';

// Monaco's MarkerSeverity values (Error = 8, Warning = 4), without loading Monaco in node.
// eslint-disable-next-line @typescript-eslint/no-unsafe-enum-assignment -- the literals are the enum's own values
const SEVERITY: SeverityEnum = { Error: 8, Warning: 4 };

const diag = (over: Partial<Diagnostic> = {}): Diagnostic => ({
  code: 'SQL202',
  severity: 'error',
  message: "Unknown column 'amout' in table 'orders'",
  start_line_number: 3,
  start_column: 10,
  end_line_number: 3,
  end_column: 15,
  snippet: '  SELECT amout FROM orders;',
  hint: null,
  notes: [],
  ...over,
});

describe('toMarker', () => {
  it('keeps the 1-based, end-exclusive span as it is', () => {
    expect(toMarker(diag(), SEVERITY)).toMatchObject({
      startLineNumber: 3,
      startColumn: 10,
      endLineNumber: 3,
      endColumn: 15,
    });
  });

  it('maps error to Error and warning to Warning', () => {
    expect(toMarker(diag(), SEVERITY).severity).toBe(8);
    expect(toMarker(diag({ severity: 'warning' }), SEVERITY).severity).toBe(4);
  });

  it('carries the code and names Weir as the source', () => {
    const m = toMarker(diag(), SEVERITY);
    expect(m.code).toBe('SQL202');
    expect(m.source).toBe(MARKER_OWNER);
  });

  it('appends the hint to the message', () => {
    expect(toMarker(diag({ hint: "did you mean 'amount'?" }), SEVERITY).message).toBe(
      "Unknown column 'amout' in table 'orders'\nHint: did you mean 'amount'?",
    );
    expect(toMarker(diag({ hint: null }), SEVERITY).message).toBe("Unknown column 'amout' in table 'orders'");
  });

  it('turns notes into related information when the model is known', () => {
    const resource = { toString: () => 'inmemory://model/1' } as unknown as Uri;
    const note = { message: 'previous declaration here', start_line_number: 1, start_column: 14, end_line_number: 1, end_column: 20 };
    const m = toMarker(diag({ notes: [note] }), SEVERITY, resource);
    expect(m.relatedInformation).toEqual([
      { resource, message: 'previous declaration here', startLineNumber: 1, startColumn: 14, endLineNumber: 1, endColumn: 20 },
    ]);
    expect(toMarker(diag({ notes: [note] }), SEVERITY).relatedInformation).toBeUndefined();
  });

  it('spans several lines when the diagnostic does', () => {
    expect(toMarker(diag({ start_line_number: 2, start_column: 1, end_line_number: 4, end_column: 3 }), SEVERITY)).toMatchObject({
      startLineNumber: 2,
      startColumn: 1,
      endLineNumber: 4,
      endColumn: 3,
    });
  });
});

describe('diagnosticRange', () => {
  it('repairs positions below 1 and an end before the start', () => {
    expect(diagnosticRange({ start_line_number: 0, start_column: 0, end_line_number: 0, end_column: 0 })).toEqual({
      startLineNumber: 1,
      startColumn: 1,
      endLineNumber: 1,
      endColumn: 1,
    });
    expect(diagnosticRange({ start_line_number: 5, start_column: 8, end_line_number: 5, end_column: 2 })).toEqual({
      startLineNumber: 5,
      startColumn: 8,
      endLineNumber: 5,
      endColumn: 8,
    });
    expect(diagnosticRange({ start_line_number: 5, start_column: 8, end_line_number: 4, end_column: 20 })).toMatchObject({
      endLineNumber: 5,
      endColumn: 8,
    });
  });
});

describe('toMarkers', () => {
  it('maps every diagnostic, in order', () => {
    const ms = toMarkers([diag({ code: 'SQL101' }), diag({ code: 'SQL301', severity: 'warning' })], SEVERITY);
    expect(ms.map((m) => [m.code, m.severity])).toEqual([
      ['SQL101', 8],
      ['SQL301', 4],
    ]);
  });

  it('uses one owner constant', () => {
    expect(MARKER_OWNER).toBe('weir');
  });
});
