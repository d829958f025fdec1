import type { Pipeline, PipelineAction } from '../../api/types';
import { StateBadge } from '../../components/StateBadge';
import { ConfigForm } from './ConfigForm';
import { Link } from '../shell/router';
import { programPath } from '../../lib/routes';
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
  busy: PipelineAction | 'deploy' | null;
  actionError: string | null;
  onAction: (action: PipelineAction) => void;
  onDeploy: () => void;
  onConfigSaved: (pipeline: Pipeline) => void;
}

function canDeploy(pipeline: Pipeline): boolean {
  return pipeline.state === 'stopped' || pipeline.state === 'failed';
}

export function RunPanel({ pipeline, programVersion, busy, actionError, onAction, onDeploy, onConfigSaved }: Props) {
  const state = pipeline?.state ?? null;
  const enabled = enabledActions(state);
  const stale = pipeline !== null && programVersion !== null && programVersion !== pipeline.program_version;
  const config = pipeline?.config;
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
          Runs <Link to={programPath(pipeline.program)}>{pipeline.program}</Link> v{pipeline.program_version}
          {` · step `}
          <span data-testid="last-step">{pipeline.last_step}</span>
          {config ? ` · ${config.spark_master}, ${config.cores} cores, ${config.memory}` : ''}
        </p>
      )}
      {pipeline && stale && (
        <p className="small notice" data-testid="stale-version">
          The program is at v{programVersion}.{' '}
          {canDeploy(pipeline) ? (
            <button type="button" className="btn btn-small" data-testid="deploy" disabled={busy !== null} onClick={onDeploy}>
              {busy === 'deploy' ? 'Deploying…' : `Deploy v${programVersion}`}
            </button>
          ) : (
            'Stop the pipeline to deploy it.'
          )}
        </p>
      )}
      {state === 'failed' && pipeline?.error ? (
        <p className="error-text" data-testid="pipeline-error">
          {pipeline.error}
        </p>
      ) : null}
      {pipeline && config && (
        <ConfigForm pipeline={pipeline.name} config={config} editable={canDeploy(pipeline)} onSaved={onConfigSaved} />
      )}
      {actionError !== null && (
        <p className="error-text" data-testid="action-error" role="alert">
          {actionError}
        </p>
      )}
    </section>
  );
}
