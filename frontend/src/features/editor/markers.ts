/**
 * Compiler diagnostics → Monaco markers.
 *
 * The compiler's spans are 1-based with an exclusive end, which is exactly
 * Monaco's convention, so positions carry over unchanged; only impossible
 * values are repaired. Every marker Weir sets uses one owner, so clearing them
 * never touches another producer's markers.
 */
import type { MarkerSeverity, Uri, editor } from 'monaco-editor/editor';
import type { Diagnostic, Severity } from '../../api/types';

export const MARKER_OWNER = 'weir';

/** `monaco.MarkerSeverity`, passed in so this module stays free of Monaco at run time. */
export interface SeverityEnum {
  Error: MarkerSeverity;
  Warning: MarkerSeverity;
}

export function markerSeverity(severity: Severity, enumValues: SeverityEnum): MarkerSeverity {
  return severity === 'error' ? enumValues.Error : enumValues.Warning;
}

interface Range {
  startLineNumber: number;
  startColumn: number;
  endLineNumber: number;
  endColumn: number;
}

/** The diagnostic's range, made valid: at least (1,1), and an end not before the start. */
export function diagnosticRange(d: {
  start_line_number: number;
  start_column: number;
  end_line_number: number;
  end_column: number;
}): Range {
  const startLineNumber = Math.max(1, Math.trunc(d.start_line_number) || 1);
  const startColumn = Math.max(1, Math.trunc(d.start_column) || 1);
  let endLineNumber = Math.max(1, Math.trunc(d.end_line_number) || 1);
  let endColumn = Math.max(1, Math.trunc(d.end_column) || 1);
  if (endLineNumber < startLineNumber || (endLineNumber === startLineNumber && endColumn < startColumn)) {
    endLineNumber = startLineNumber;
    endColumn = startColumn;
  }
  return { startLineNumber, startColumn, endLineNumber, endColumn };
}

export function markerMessage(d: Diagnostic): string {
  return d.hint ? `${d.message}\nHint: ${d.hint}` : d.message;
}

export function toMarker(d: Diagnostic, severities: SeverityEnum, resource?: Uri): editor.IMarkerData {
  const marker: editor.IMarkerData = {
    ...diagnosticRange(d),
    severity: markerSeverity(d.severity, severities),
    message: markerMessage(d),
    code: d.code,
    source: MARKER_OWNER,
  };
  if (resource && d.notes.length > 0) {
    marker.relatedInformation = d.notes.map((n) => ({ resource, message: n.message, ...diagnosticRange(n) }));
  }
  return marker;
}

export function toMarkers(diagnostics: readonly Diagnostic[], severities: SeverityEnum, resource?: Uri): editor.IMarkerData[] {
  return diagnostics.map((d) => toMarker(d, severities, resource));
}
