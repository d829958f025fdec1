import { useCallback, useEffect, useState } from 'react';
import { api } from '../../api/endpoints';
import { errorMessage } from '../../api/client';
import type { PipelineAction } from '../../api/types';
import { PolledStatus } from '../../components/NotAvailable';
import { Sparkline } from '../../components/Sparkline';
import { StateBadge } from '../../components/StateBadge';
import { useNow } from '../../hooks/useNow';
import { usePolled } from '../../hooks/usePolled';
import { errorParts } from '../../lib/errorText';
import { formatAgo, formatCount, formatRate } from '../../lib/format';
import { ACTIONS, enabledActions } from '../../lib/pipelineState';
import { linkRef } from '../../lib/refs';
import { pipelinePath, programPath } from '../../lib/routes';
import { bulkPlan, bulkSummary, headerCheck, pruned, toggled, toggledAll } from '../../lib/selection';
import { Link } from '../shell/router';
import { NewPipelineForm } from './NewPipelineForm';
import { rowFigures, sortForDashboard } from './rows';
import { useRowSamples } from './useRowSamples';

const LABEL: Record<PipelineAction, string> = { start: 'Start', pause: 'Pause', resume: 'Resume', stop: 'Stop' };

/** A pipeline's or program's key on this page: names repeat across teams. */
const keyOf = (p: { name: string; team: string }): string => `${p.team}/${p.name}`;

interface Props {
  /** The user's teams: with several, rows show their team and links carry it. */
  teams: readonly string[];
}

/** Every pipeline with its state and figures, actions per row and in bulk; every program below. */
export function DashboardPage({ teams }: Props) {
  const loadPipelines = useCallback((signal: AbortSignal) => api.listPipelines(signal), []);
  const loadPrograms = useCallback(() => api.listPrograms(), []);
  const pipelinesPoll = usePolled('pipelines', loadPipelines, 2_000);
  const programsPoll = usePolled('programs', loadPrograms, 10_000);
  const list = pipelinesPoll.state.status === 'ok' ? sortForDashboard(pipelinesPoll.state.value) : [];
  const showTeams = teams.length > 1;
  const names = list.map(keyOf);
  const byKey = new Map(list.map((p) => [keyOf(p), p]));
  const label = (p: { name: string; team: string }): string => (showTeams ? `${p.name} (${p.team})` : p.name);
  const samples = useRowSamples(list.map((p) => ({ name: p.name, team: p.team })));
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [busy, setBusy] = useState<Set<string>>(new Set());
  const [outcome, setOutcome] = useState<string | null>(null);
  const now = useNow();
  const refreshPipelines = pipelinesPoll.refresh;

  useEffect(() => {
    document.title = 'Pipelines — Weir';
  }, []);

  const shownSelection = pruned(selected, names);
  const check = headerCheck(shownSelection, names);

  const run = (action: PipelineAction, targets: readonly string[], skipped: number) => {
    setBusy((b) => new Set([...b, ...targets]));
    setOutcome(null);
    const chosen = targets.flatMap((key) => byKey.get(key) ?? []);
    void Promise.all(
      chosen.map((p) =>
        api.pipelineAction({ name: p.name, team: p.team }, action).then(
          () => ({ name: label(p), error: null }),
          (err: unknown) => ({ name: label(p), error: errorMessage(err) }),
        ),
      ),
    ).then((outcomes) => {
      setBusy((b) => new Set([...b].filter((n) => !targets.includes(n))));
      setOutcome(bulkSummary(action, outcomes, skipped));
      refreshPipelines();
    });
  };

  const runBulk = (action: PipelineAction) => {
    const plan = bulkPlan(action, list, shownSelection, keyOf);
    run(action, plan.eligible, plan.skipped.length);
  };

  return (
    <main className="page" aria-label="Dashboard">
      <section className="page-section">
        <header className="page-head">
          <h1>Pipelines</h1>
          <span className="muted small">{list.length > 0 ? `${list.length} pipeline${list.length === 1 ? '' : 's'}` : ''}</span>
          <span className="spacer" />
          <NewPipelineForm programs={programsPoll.state.status === 'ok' ? programsPoll.state.value : []} teams={teams} />
        </header>
        <div className="bulk-bar" role="toolbar" aria-label="Bulk actions" data-testid="bulk-bar">
          <span className="small muted" data-testid="selected-count">
            {shownSelection.size} selected
          </span>
          {ACTIONS.map((action) => {
            const n = bulkPlan(action, list, shownSelection, keyOf).eligible.length;
            return (
              <button
                key={action}
                type="button"
                className="btn btn-small"
                disabled={n === 0}
                data-testid={`bulk-${action}`}
                onClick={() => runBulk(action)}
              >
                {LABEL[action]} selected{n > 0 ? ` (${n})` : ''}
              </button>
            );
          })}
          {outcome !== null && (
            <span className="small" role="status" data-testid="bulk-result">
              {outcome}
            </span>
          )}
        </div>
        <PolledStatus state={pipelinesPoll.state} what="Pipelines" />
        {pipelinesPoll.state.status === 'ok' && list.length === 0 && (
          <p className="muted">No pipelines yet. Create one from a program with “New pipeline”.</p>
        )}
        {list.length > 0 && (
          <div className="table-scroll">
            <table className="dash" data-testid="pipelines">
              <thead>
                <tr>
                  <th scope="col" className="check">
                    <input
                      type="checkbox"
                      aria-label="Select all pipelines"
                      data-testid="select-all"
                      checked={check === 'all'}
                      ref={(el) => {
                        if (el) el.indeterminate = check === 'some';
                      }}
                      onChange={() => setSelected(toggledAll(shownSelection, names))}
                    />
                  </th>
                  <th scope="col">pipeline</th>
                  <th scope="col">state</th>
                  <th scope="col">throughput</th>
                  <th scope="col" className="num">lag</th>
                  <th scope="col" className="num">late rows</th>
                  <th scope="col" className="num">errors</th>
                  <th scope="col" className="num">step</th>
                  <th scope="col">actions</th>
                </tr>
              </thead>
              <tbody>
                {list.map((p) => {
                  const key = keyOf(p);
                  const f = rowFigures(p, samples.get(key) ?? null);
                  const enabled = enabledActions(p.state);
                  const rowBusy = busy.has(key);
                  return (
                    <tr
                      key={key}
                      data-testid="pipeline-row"
                      data-name={p.name}
                      data-team={p.team}
                      className={p.state === 'failed' ? 'row-bad' : undefined}
                    >
                      <td className="check">
                        <input
                          type="checkbox"
                          aria-label={`Select ${label(p)}`}
                          data-testid="select"
                          checked={shownSelection.has(key)}
                          onChange={() => setSelected(toggled(shownSelection, key))}
                        />
                      </td>
                      <td>
                        <Link to={pipelinePath(linkRef(p, teams))} className="strong mono" data-testid="pipeline-link">
                          {p.name}
                        </Link>
                        <div className="muted small">
                          {showTeams && <span data-testid="row-team">team {p.team} · </span>}
                          <Link to={programPath(linkRef({ name: p.program, team: p.team }, teams))} className="muted">
                            {p.program}
                          </Link>{' '}
                          v{p.program_version} · {formatAgo(p.updated_at, now)}
                        </div>
                      </td>
                      <td>
                        <StateBadge state={p.state} testId="row-state" />
                        {p.state === 'failed' && p.error && (
                          <div className="error-text small clamp" title={p.error} data-testid="row-error">
                            {errorParts(p.error).headline}
                          </div>
                        )}
                      </td>
                      <td className="spark-cell" data-testid="row-throughput">
                        {f.sparkline !== null ? (
                          <>
                            <Sparkline values={f.sparkline} label={`${label(p)}: input rows per second`} />
                            <span className="mono small">{formatRate(f.throughput)}</span>
                          </>
                        ) : (
                          <span className="muted small" title="loading">
                            …
                          </span>
                        )}
                      </td>
                      <td className="num mono" data-testid="row-lag">
                        {formatCount(f.lagRows)}
                      </td>
                      <td className="num mono" data-testid="row-late">
                        {formatCount(f.lateRows)}
                      </td>
                      <td className="num mono" data-testid="row-errors">
                        {formatCount(f.errors)}
                      </td>
                      <td className="num mono" data-testid="row-step">
                        {p.last_step}
                      </td>
                      <td>
                        <div className="button-row nowrap row-actions">
                          {ACTIONS.map((action) => (
                            <button
                              key={action}
                              type="button"
                              className="btn btn-small"
                              disabled={!enabled[action] || rowBusy}
                              onClick={() => run(action, [key], 0)}
                              aria-label={`${LABEL[action]} ${label(p)}`}
                              data-testid={`row-${action}`}
                            >
                              {LABEL[action]}
                            </button>
                          ))}
                        </div>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <section className="page-section">
        <header className="page-head">
          <h1>Programs</h1>
        </header>
        <PolledStatus state={programsPoll.state} what="Programs" />
        {programsPoll.state.status === 'ok' && (
          <table className="dash" data-testid="programs">
            <thead>
              <tr>
                <th scope="col">program</th>
                <th scope="col">version</th>
                <th scope="col">status</th>
                <th scope="col">pipelines</th>
                <th scope="col">saved</th>
              </tr>
            </thead>
            <tbody>
              {programsPoll.state.value.map((prog) => {
                const users = list.filter((p) => p.program === prog.name && p.team === prog.team);
                return (
                  <tr key={keyOf(prog)} data-testid="program-row" data-name={prog.name} data-team={prog.team}>
                    <td>
                      <Link to={programPath(linkRef(prog, teams))} className="strong mono">
                        {prog.name}
                      </Link>
                      {showTeams && <div className="muted small">team {prog.team}</div>}
                    </td>
                    <td className="mono">v{prog.version}</td>
                    <td>
                      {prog.status === 'ok' ? (
                        <span className="ok-text">compiles</span>
                      ) : (
                        <span className="error-text">{prog.diagnostics.filter((d) => d.severity === 'error').length} errors</span>
                      )}
                    </td>
                    <td className="small">
                      {users.length === 0
                        ? '—'
                        : users.map((u, i) => (
                            <span key={u.name}>
                              {i > 0 ? ', ' : ''}
                              <Link to={pipelinePath(linkRef(u, teams))} className="mono">
                                {u.name}
                              </Link>
                            </span>
                          ))}
                    </td>
                    <td className="muted small">{formatAgo(prog.updated_at, now)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </section>
    </main>
  );
}
