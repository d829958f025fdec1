import type { Diagnostic } from '../../api/types';

/** Diagnostics in reading order (line, then column), errors before warnings at the same place. */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort(
    (a, b) =>
      a.start_line_number - b.start_line_number ||
      a.start_column - b.start_column ||
      (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1),
  );
}

export function problemLocation(d: Diagnostic): string {
  return `${d.start_line_number}:${d.start_column}`;
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** E.g. "2 errors, 1 warning", or "No problems". */
export function problemSummary(diagnostics: readonly Diagnostic[]): string {
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = diagnostics.length - errors;
  if (errors === 0 && warnings === 0) return 'No problems';
  const parts: string[] = [];
  if (errors > 0) parts.push(plural(errors, 'error'));
  if (warnings > 0) parts.push(plural(warnings, 'warning'));
  return parts.join(', ');
}

/** The diagnostics to show: every one, or the errors alone when warnings are hidden. */
export function visibleDiagnostics(diagnostics: readonly Diagnostic[], showWarnings: boolean): readonly Diagnostic[] {
  return showWarnings ? diagnostics : diagnostics.filter((d) => d.severity === 'error');
}
