/**
 * A pipeline's error as the control plane stores it: a sentence, then often
 * the tail of the runner's log (a Python traceback of thirty lines). The
 * page shows the sentence and keeps the log folded, so the error does not
 * push the run controls and the ingest box off the screen.
 */
export interface ErrorParts {
  headline: string;
  /** The lines after the headline, or '' when there are none. */
  detail: string;
}

export function errorParts(text: string): ErrorParts {
  const trimmed = text.replace(/^\s+|\s+$/g, '');
  const newline = trimmed.indexOf('\n');
  if (newline < 0) return { headline: trimmed, detail: '' };
  return { headline: trimmed.slice(0, newline).trimEnd(), detail: trimmed.slice(newline + 1).replace(/^\n+/, '') };
}

/** How many lines `detail` has (for the fold's label). */
export function lineCount(detail: string): number {
  return detail === '' ? 0 : detail.split('\n').length;
}
