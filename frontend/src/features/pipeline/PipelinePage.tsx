import { useEffect, useMemo, useRef, useState } from 'react';
import type { PipelineState } from '../../api/types';
import type { Pipeline } from '../../api/types';
import { LoadStatus } from '../../components/LoadStatus';
import { refLabel, type Ref } from '../../lib/refs';
import { pipelinePath, type PipelineTab } from '../../lib/routes';
import type { ParsedDelta, ParsedState } from '../../lib/wsMessages';
import { useProgram } from '../editor/useProgram';
import { ProgramWorkspace, type ExtraTab } from '../program/ProgramWorkspace';
import { TeamChoice } from '../shell/TeamChoice';
import { ChangePanel } from './ChangePanel';
import { ChangeStore } from './changeStore';
import { EventsPanel } from './EventsPanel';
import { IngestBox } from './IngestBox';
import { LateRowsPanel } from './LateRowsPanel';
import { MetricsPanel } from './MetricsPanel';
import { PumpsPanel } from './PumpsPanel';
import { QueryPanel } from './QueryPanel';
import { RunPanel } from './RunPanel';
import { usePipeline } from './usePipeline';
import { usePipelineSocket } from './usePipelineSocket';

/** How many changes each view keeps on screen. */
const CHANGES_PER_VIEW = 500;
/** How many past steps a freshly opened page shows. */
const HISTORY_STEPS = 50;

const EDITABLE: ReadonlySet<PipelineState> = new Set(['stopped', 'failed']);

function readOnlyReason(state: PipelineState | undefined): string | null {
  if (state === undefined || EDITABLE.has(state)) return null;
  return `The pipeline is ${state}: stop it to edit the program (a running pipeline keeps the version it started with).`;
}

interface Props {
  /** The pipeline the address names: its name, and its team when the address says. */
  target: Ref;
  tab: PipelineTab;
}

/** One pipeline: its program (editor, schema, plan), run controls, ingest, live changes and operations tabs. */
export function PipelinePage({ target, tab }: Props) {
  const { name } = target;
  const control = usePipeline(target);
  const { applyState, noteStep, noteReset } = control;
  const pipeline: Pipeline | null = control.pipeline;
  // Calls go to the loaded pipeline's team: the name alone may mean another's later.
  const ref = control.ref;
  const programName = pipeline?.program ?? null;
  const programTeam = pipeline?.team ?? null;
  const programRef = useMemo(
    () => (programName === null ? null : { name: programName, team: programTeam }),
    [programName, programTeam],
  );
  const { program, error: programError, setProgram } = useProgram(programRef);
  // A run that starts over (a deploy with reset_state, here or anywhere) numbers its steps from 1 again: the
  // server's `reset` message gives its changes a new store (the old one would take them for replays). The
  // socket's handlers add to `current` at once, before React renders the new store.
  const [first] = useState(() => ({ store: new ChangeStore(CHANGES_PER_VIEW), run: 0 }));
  const current = useRef(first.store);
  const [changes, setChanges] = useState(first);

  const handlers = useMemo(
    () => ({
      onDelta: (delta: ParsedDelta) => {
        current.current.add(delta);
        noteStep(delta.step);
      },
      onState: (s: ParsedState) => applyState(s.state, s.error),
      onReset: (run: number) => {
        const store = new ChangeStore(CHANGES_PER_VIEW);
        current.current = store;
        setChanges((c) => ({ store, run: c.run + 1 }));
        noteReset(run);
      },
    }),
    [applyState, noteStep, noteReset],
  );
  const loadedStep = pipeline?.last_step ?? null;
  const socket = usePipelineSocket(
    ref,
    handlers,
    loadedStep === null ? null : Math.max(0, loadedStep - HISTORY_STEPS),
    pipeline?.run ?? null,
  );

  useEffect(() => {
    document.title = `${name} — Weir`;
  }, [name]);

  const catalog = program?.catalog ?? null;
  const views = (catalog?.relations ?? []).filter((r) => r.kind === 'view');
  const loadError = control.loadError ?? programError;
  const firstView = views.find((v) => !v.local)?.name ?? null;
  const home = pipelinePath(target);

  if (control.loadTeams !== null) {
    return (
      <main className="page">
        <TeamChoice what="pipeline" name={name} teams={control.loadTeams} hrefFor={(team) => pipelinePath({ name, team }, tab)} />
      </main>
    );
  }

  const extraTabs: ExtraTab[] = [
    { id: 'query', label: 'Query', keepMounted: true, render: () => <QueryPanel pipeline={ref} exampleView={firstView} /> },
    { id: 'late-rows', label: 'Late rows', render: (active) => <LateRowsPanel pipeline={ref} active={active} /> },
    {
      id: 'events',
      label: 'Events',
      badge: pipeline?.state === 'failed' ? <span className="badge-count bad">!</span> : undefined,
      render: (active) => <EventsPanel pipeline={ref} error={pipeline?.state === 'failed' ? pipeline.error || null : null} active={active} />,
    },
    { id: 'metrics', label: 'Metrics', render: (active) => <MetricsPanel pipeline={ref} active={active} /> },
    {
      id: 'pumps',
      label: 'Pumps',
      render: (active) => <PumpsPanel pipeline={ref} declared={catalog?.pumps ?? []} active={active} />,
    },
  ];

  return (
    <main className="workspace">
      <div className="main-column">
        {program ? (
          <ProgramWorkspace
            key={program.name}
            program={program}
            onSaved={setProgram}
            readOnlyReason={readOnlyReason(pipeline?.state)}
            homePath={home}
            tab={tab}
            hrefFor={(t) => pipelinePath(target, t as PipelineTab)}
            extraTabs={extraTabs}
            tabsLabel={`Pipeline ${name}`}
          />
        ) : (
          <LoadStatus what={`pipeline “${refLabel(target)}”`} error={loadError} />
        )}
      </div>
      <aside className="side-column" aria-label="Run">
        <RunPanel
          pipeline={pipeline}
          programVersion={program?.version ?? null}
          busy={control.busy}
          actionError={control.actionError}
          onAction={control.act}
          onDeploy={control.deploy}
          resetOffer={control.resetOffer}
          onDismissReset={control.dismissResetOffer}
          onConfigSaved={control.replace}
        />
        <IngestBox pipeline={ref} catalog={catalog} />
        {/* A new run gets a panel of its own: a display paused on the old run goes with it. */}
        <ChangePanel key={changes.run} store={changes.store} views={views} socket={socket} />
      </aside>
    </main>
  );
}
