import { useCallback, useEffect } from 'react';
import { api } from '../../api/endpoints';
import { LoadStatus } from '../../components/LoadStatus';
import { PolledStatus } from '../../components/NotAvailable';
import { StateBadge } from '../../components/StateBadge';
import { useNow } from '../../hooks/useNow';
import { usePolled } from '../../hooks/usePolled';
import { formatAgo } from '../../lib/format';
import { linkRef, refLabel, type Ref } from '../../lib/refs';
import { pipelinePath, programPath, type ProgramTab } from '../../lib/routes';
import { useProgram } from '../editor/useProgram';
import { Link } from '../shell/router';
import { TeamChoice } from '../shell/TeamChoice';
import { ProgramWorkspace } from './ProgramWorkspace';

interface Props {
  /** The program the address names: its name, and its team when the address says. */
  target: Ref;
  tab: ProgramTab;
  /** The user's teams: links carry the team when there are several. */
  teams: readonly string[];
}

/** A program on its own: editor, schema, plan; the pipelines that run it and its saved versions. */
export function ProgramPage({ target, tab, teams }: Props) {
  const { name } = target;
  const { program, error, teams: toChoose, setProgram } = useProgram(target);
  // Once loaded, the program's own team says which it is.
  const team = program?.team ?? target.team;
  const loadPipelines = useCallback((signal: AbortSignal) => api.listPipelines(signal), []);
  const loadVersions = useCallback(() => api.programVersions({ name, team }), [name, team]);
  const pipelines = usePolled('pipelines', loadPipelines, 5_000).state;
  const versions = usePolled(`versions:${team ?? ''}/${name}:${program?.version ?? 0}`, loadVersions, null).state;
  const now = useNow();

  useEffect(() => {
    document.title = `${name}.sql — Weir`;
  }, [name]);

  if (toChoose !== null) {
    return (
      <main className="page">
        <TeamChoice what="program" name={name} teams={toChoose} hrefFor={(t) => programPath({ name, team: t }, tab)} />
      </main>
    );
  }

  const users =
    pipelines.status === 'ok' && program !== null
      ? pipelines.value.filter((p) => p.program === name && p.team === program.team)
      : [];

  return (
    <main className="workspace">
      <div className="main-column">
        {program ? (
          <ProgramWorkspace
            key={program.name}
            program={program}
            onSaved={setProgram}
            readOnlyReason={null}
            homePath={programPath(target)}
            tab={tab}
            hrefFor={(t) => programPath(target, t as ProgramTab)}
            tabsLabel={`Program ${name}`}
          />
        ) : (
          <LoadStatus what={`program “${refLabel(target)}”`} error={error} />
        )}
      </div>
      <aside className="side-column" aria-label="Program details">
        <section className="panel">
          <header className="panel-header">
            <h2>Pipelines</h2>
          </header>
          <PolledStatus state={pipelines} what="Pipelines" />
          {pipelines.status === 'ok' && users.length === 0 && (
            <p className="muted small">No pipeline runs this program. Create one from the dashboard.</p>
          )}
          <ul className="plain-list">
            {users.map((p) => (
              <li key={p.name} className="button-row">
                <Link to={pipelinePath(linkRef(p, teams))} className="mono">
                  {p.name}
                </Link>
                <StateBadge state={p.state} />
                <span className="muted small">v{p.program_version}</span>
              </li>
            ))}
          </ul>
          <p className="muted small">Saving makes a new version; a stopped pipeline moves to it with Deploy.</p>
        </section>
        <section className="panel">
          <header className="panel-header">
            <h2>Versions</h2>
          </header>
          <PolledStatus state={versions} what="Versions" />
          {versions.status === 'ok' && (
            <ol className="plain-list" reversed data-testid="versions">
              {[...versions.value].reverse().map((v) => (
                <li key={v.version} className="button-row">
                  <span className="mono">v{v.version}</span>
                  <span className={v.status === 'ok' ? 'ok-text small' : 'error-text small'}>
                    {v.status === 'ok' ? 'compiles' : `${v.diagnostics.filter((d) => d.severity === 'error').length} errors`}
                  </span>
                  <span className="muted small">
                    {formatAgo(v.created_at, now)} · {v.compile_ms.toFixed(1)} ms
                  </span>
                </li>
              ))}
            </ol>
          )}
        </section>
      </aside>
    </main>
  );
}
