import type { Diagnostic } from '../../api/types';
import { problemLocation, problemSummary, sortDiagnostics, visibleDiagnostics } from './problems';

interface Props {
  diagnostics: readonly Diagnostic[];
  pending: boolean;
  error: string | null;
  showWarnings: boolean;
  onShowWarnings: (show: boolean) => void;
  onSelect: (d: Diagnostic) => void;
}

export function ProblemsList({ diagnostics, pending, error, showWarnings, onShowWarnings, onSelect }: Props) {
  const sorted = sortDiagnostics(visibleDiagnostics(diagnostics, showWarnings));
  const warnings = diagnostics.filter((d) => d.severity === 'warning').length;
  return (
    <section className="problems" aria-label="Problems">
      <header className="problems-header">
        <span className="problems-title">Problems</span>
        <span className="muted" data-testid="problems-summary">
          {problemSummary(diagnostics)}
        </span>
        {pending && <span className="muted">checking…</span>}
        {error !== null && <span className="error-text">Could not check: {error}</span>}
        <span className="spacer" />
        <label className="toggle small">
          <input
            type="checkbox"
            data-testid="show-warnings"
            checked={showWarnings}
            onChange={(e) => onShowWarnings(e.target.checked)}
          />
          Warnings{warnings > 0 ? ` (${warnings})` : ''}
        </label>
      </header>
      <ul className="problems-list" data-testid="problems">
        {sorted.map((d, i) => (
          <li
            key={`${d.code}-${d.start_line_number}-${d.start_column}-${i}`}
            data-testid="problem"
            data-code={d.code}
            data-severity={d.severity}
          >
            <button type="button" className="problem" onClick={() => onSelect(d)}>
              <span className={`sev sev-${d.severity}`} aria-label={d.severity}>
                {d.severity === 'error' ? '●' : '▲'}
              </span>
              <span className="problem-code">{d.code}</span>
              <span className="problem-message">
                {d.message}
                {d.hint ? <span className="muted"> — {d.hint}</span> : null}
              </span>
              <span className="problem-loc">{problemLocation(d)}</span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
