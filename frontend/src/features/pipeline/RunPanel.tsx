import { useState } from 'react';
import type { Pipeline, PipelineAction } from '../../api/types';
import { ErrorReport } from '../../components/ErrorReport';
import { StateBadge } from '../../components/StateBadge';
import type { ResetOffer } from '../../lib/deploy';
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
  onDeploy: (resetState?: boolean) => void;
  /** A deploy refused for the pipeline's state, which a reset would allow. */
  resetOffer: ResetOffer | null;
  onDismissReset: () => void;
  onConfigSaved: (pipeline: Pipeline) => void;
}

function canDeploy(pipeline: Pipeline): boolean {
  return pipeline.state === 'stopped' || pipeline.state === 'failed';
}

interface OfferProps {
  offer: ResetOffer;
  busy: boolean;
  onReset: () => void;
  onKeep: () => void;
}

/** Why the deploy was refused, and the reset that would do it, asked twice. */
function ResetOfferNotice({ offer, busy, onReset, onKeep }: OfferProps) {
  const [asking, setAsking] = useState(false);
  const version = offer.version === null ? 'the new version' : `v${offer.version}`;
  return (
    <div className="reset-offer" data-testid="deploy-refused" role="alert">
      <p className="small">
        <strong>Not deployed.</strong> {version} changes what this pipeline&apos;s state was computed for:
      </p>
      {offer.changes.length > 0 ? (
        <ul className="small mono reset-changes" data-testid="deploy-changes">
          {offer.changes.map((c) => (
            <li key={c}>{c}</li>
          ))}
        </ul>
      ) : (
        <p className="small">{offer.message}</p>
      )}
      <div className="button-row">
        <button
          type="button"
          className="btn btn-small"
          aria-expanded={asking}
          data-testid="deploy-reset"
          disabled={busy}
          onClick={() => setAsking(!asking)}
        >
          Reset state and deploy…
        </button>
        <button type="button" className="btn btn-small" data-testid="deploy-reset-cancel" disabled={busy} onClick={onKeep}>
          Keep the state
        </button>
      </div>
      {asking && (
        <div className="reset-confirm" data-testid="deploy-reset-ask">
          <p className="small">
            Resetting clears the pipeline&apos;s steps, changes, metrics, late rows and state. The next start processes
            every input it has accepted again, with {version}.
          </p>
          <button type="button" className="btn btn-small btn-danger" data-testid="deploy-reset-confirm" disabled={busy} onClick={onReset}>
            {busy ? 'Deploying…' : `Reset state and deploy ${version}`}
          </button>
        </div>
      )}
    </div>
  );
}

export function RunPanel({
  pipeline,
  programVersion,
  busy,
  actionError,
  onAction,
  onDeploy,
  resetOffer,
  onDismissReset,
  onConfigSaved,
}: Props) {
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
          Runs <Link to={programPath(pipeline.program)}>{pipeline.program}</Link>{' '}
          <span data-testid="running-version">v{pipeline.program_version}</span>
          {` · step `}
          <span data-testid="last-step">{pipeline.last_step}</span>
          {config ? ` · ${config.spark_master}, ${config.cores} cores, ${config.memory}` : ''}
        </p>
      )}
      {pipeline && stale && (
        <p className="small notice" data-testid="stale-version">
          The program is at v{programVersion}.{' '}
          {canDeploy(pipeline) ? (
            <button type="button" className="btn btn-small" data-testid="deploy" disabled={busy !== null} onClick={() => onDeploy()}>
              {busy === 'deploy' ? 'Deploying…' : `Deploy v${programVersion}`}
            </button>
          ) : (
            'Stop the pipeline to deploy it.'
          )}
        </p>
      )}
      {pipeline && resetOffer && canDeploy(pipeline) && (
        <ResetOfferNotice
          key={`${resetOffer.version ?? ''}:${resetOffer.changes.join('|')}`}
          offer={resetOffer}
          busy={busy !== null}
          onReset={() => onDeploy(true)}
          onKeep={onDismissReset}
        />
      )}
      {state === 'failed' && pipeline?.error ? <ErrorReport text={pipeline.error} testId="pipeline-error" /> : null}
      {pipeline && config && (
        <ConfigForm pipeline={{ name: pipeline.name, team: pipeline.team }} config={config} editable={canDeploy(pipeline)} onSaved={onConfigSaved} />
      )}
      {actionError !== null && (
        <p className="error-text" data-testid="action-error" role="alert">
          {actionError}
        </p>
      )}
    </section>
  );
}
