import type { Pipeline, PipelineAction } from '../../api/types';
import { StateBadge } from '../../components/StateBadge';
import { ACTIONS, enabledActions } from '../../lib/pipelineState';

const LABELS: Record<PipelineAction, string> = {
  start: 'Start',
  pause: 'Pause',
  resume: 'Resume',
  stop: 'Stop',
};

interface Props {
  pipeline: Pipeline | null;
  programVersion: number | null;
  busy: PipelineAction | null;
  actionError: string | null;
  onAction: (action: PipelineAction) => void;
}

export function RunPanel({ pipeline, programVersion, busy, actionError, onAction }: Props) {
  const state = pipeline?.state ?? null;
  const enabled = enabledActions(state);
  const stale = pipeline !== null && programVersion !== null && programVersion !== pipeline.program_version;
  return (
    <section className="panel run-panel" aria-label="Run">
      <header className="panel-header">
        <h2>Pipeline {pipeline ? <span className="mono">{pipeline.name}</span> : null}</h2>
        <StateBadge state={state} testId="pipeline-state" />
      </header>
      <div className="button-row">
        {ACTIONS.map((action) => (
          <button
            key={action}
            type="button"
            className={`btn btn-${action}`}
            data-testid={action}
            disabled={!enabled[action] || busy !== null}
            onClick={() => onAction(action)}
          >
            {busy === action ? `${LABELS[action]}…` : LABELS[action]}
          </button>
        ))}
      </div>
      {pipeline && (
        <p className="muted small">
          Runs program version {pipeline.program_version}
          {stale ? ` (latest is ${programVersion}; restart to run it)` : ''}
          {` · step ${pipeline.last_step}`}
        </p>
      )}
      {state === 'failed' && pipeline?.error ? (
        <p className="error-text" data-testid="pipeline-error">
          {pipeline.error}
        </p>
      ) : null}
      {actionError !== null && (
        <p className="error-text" data-testid="action-error">
          {actionError}
        </p>
      )}
    </section>
  );
}
