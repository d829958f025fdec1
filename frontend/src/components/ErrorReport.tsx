import { errorParts, lineCount } from '../lib/errorText';

interface Props {
  text: string;
  testId?: string;
  className?: string;
  /** Announce it (an error now); false for one in a history. */
  alert?: boolean;
}

/** A pipeline's error: its sentence, with the runner's log folded under it (scrolling, not growing the page). */
export function ErrorReport({ text, testId, className = '', alert = true }: Props) {
  const { headline, detail } = errorParts(text);
  const lines = lineCount(detail);
  return (
    <div className={`error-report ${className}`} data-testid={testId} role={alert ? 'alert' : undefined}>
      <p className="error-text">{headline}</p>
      {lines > 0 && (
        <details className="error-log">
          <summary className="small">
            Runner log ({lines} line{lines === 1 ? '' : 's'})
          </summary>
          <pre className="error-text mono small">{detail}</pre>
        </details>
      )}
    </div>
  );
}
