import { Suspense, lazy, useEffect, useMemo, useState } from 'react';
import { StateBadge } from './components/StateBadge';
import { useProgram } from './features/editor/useProgram';
import { ChangePanel } from './features/pipeline/ChangePanel';
import { ChangeStore } from './features/pipeline/changeStore';
import { IngestBox } from './features/pipeline/IngestBox';
import { RunPanel } from './features/pipeline/RunPanel';
import { usePipeline } from './features/pipeline/usePipeline';
import { usePipelineSocket } from './features/pipeline/usePipelineSocket';
import { pipelineFromSearch } from './lib/query';
import type { ParsedDelta, ParsedState } from './lib/wsMessages';
import type { User } from './api/types';

// Monaco is most of the bundle: load it in its own chunk so the run, ingest and
// change panels work while the editor is still arriving.
const EditorPane = lazy(() => import('./features/editor/EditorPane').then((m) => ({ default: m.EditorPane })));

/** How many changes each view keeps on screen. */
const CHANGES_PER_VIEW = 500;
/** How many past steps a freshly opened page shows. */
const HISTORY_STEPS = 50;

interface Props {
  user: User;
  onSignOut: () => Promise<void>;
}

export function App({ user, onSignOut }: Props) {
  const [name] = useState(() => pipelineFromSearch(window.location.search));
  const control = usePipeline(name);
  const { applyState, noteStep } = control;
  const { program, error: programError, setProgram } = useProgram(control.pipeline?.program ?? null);
  const [store] = useState(() => new ChangeStore(CHANGES_PER_VIEW));

  const handlers = useMemo(
    () => ({
      onDelta: (delta: ParsedDelta) => {
        store.add(delta);
        noteStep(delta.step);
      },
      onState: (s: ParsedState) => applyState(s.state, s.error),
    }),
    [store, applyState, noteStep],
  );
  const loadedStep = control.pipeline?.last_step ?? null;
  const socket = usePipelineSocket(
    name,
    handlers,
    loadedStep === null ? null : Math.max(0, loadedStep - HISTORY_STEPS),
  );

  useEffect(() => {
    document.title = program ? `${program.name} — Weir` : 'Weir';
  }, [program]);

  const catalog = program?.catalog ?? null;
  const views = (catalog?.relations ?? []).filter((r) => r.kind === 'view');
  const loadError = control.loadError ?? programError;

  return (
    <div className="app">
      <header className="app-header">
        <span className="logo">Weir</span>
        <span className="program-name" data-testid="program-name">
          {program?.name ?? control.pipeline?.program ?? ''}
        </span>
        <span className="spacer" />
        <span className="muted small">
          pipeline <span className="mono">{name}</span>
        </span>
        <StateBadge state={control.pipeline?.state ?? null} testId="header-state" />
        <span className="muted small" data-testid="user-name">
          {user.username}
        </span>
        <button type="button" className="link" data-testid="sign-out" onClick={() => void onSignOut()}>
          Sign out
        </button>
      </header>
      <main className="workspace">
        <div className="main-column">
          {program ? (
            <Suspense fallback={<p className="placeholder muted">Loading editor…</p>}>
              <EditorPane key={program.name} program={program} onSaved={setProgram} />
            </Suspense>
          ) : (
            <div className="placeholder" data-testid="load-status">
              {loadError !== null ? (
                <p className="error-text">Cannot load pipeline “{name}”: {loadError}</p>
              ) : (
                <p className="muted">Loading…</p>
              )}
            </div>
          )}
        </div>
        <aside className="side-column">
          <RunPanel
            pipeline={control.pipeline}
            programVersion={program?.version ?? null}
            busy={control.busy}
            actionError={control.actionError}
            onAction={control.act}
          />
          <IngestBox pipeline={name} catalog={catalog} />
          <ChangePanel store={store} views={views} socket={socket} />
        </aside>
      </main>
    </div>
  );
}
