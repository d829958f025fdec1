import { useEffect, useMemo, useState } from 'react';
import type { PipelineState } from '../../api/types';
import type { Pipeline } from '../../api/types';
import { LoadStatus } from '../../components/LoadStatus';
import { pipelinePath, type PipelineTab } from '../../lib/routes';
import type { ParsedDelta, ParsedState } from '../../lib/wsMessages';
import { useProgram } from '../editor/useProgram';
import { ProgramWorkspace, type ExtraTab } from '../program/ProgramWorkspace';
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
  name: string;
  tab: PipelineTab;
}

/** One pipeline: its program (editor, schema, plan), run controls, ingest, live changes and operations tabs. */
export function PipelinePage({ name, tab }: Props) {
  const control = usePipeline(name);
  const { applyState, noteStep } = control;
  const pipeline: Pipeline | null = control.pipeline;
  const { program, error: programError, setProgram } = useProgram(pipeline?.program ?? null);
  // A run that starts over (a deploy with reset) numbers its steps from 1 again: its changes get a new store
  // (the old one would take them for replays) and a new socket, asking from the start.
  const [changes, setChanges] = useState(() => ({ run: control.run, store: new ChangeStore(CHANGES_PER_VIEW) }));
  if (changes.run !== control.run) setChanges({ run: control.run, store: new ChangeStore(CHANGES_PER_VIEW) });
  const store = changes.store;

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
  const loadedStep = pipeline?.last_step ?? null;
  const socket = usePipelineSocket(
    name,
    handlers,
    loadedStep === null ? null : Math.max(0, loadedStep - HISTORY_STEPS),
    control.run,
  );

  useEffect(() => {
    document.title = `${name} — Weir`;
  }, [name]);

  const catalog = program?.catalog ?? null;
  const views = (catalog?.relations ?? []).filter((r) => r.kind === 'view');
  const loadError = control.loadError ?? programError;
  const firstView = views.find((v) => !v.local)?.name ?? null;
  const home = pipelinePath(name);

  const extraTabs: ExtraTab[] = [
    { id: 'query', label: 'Query', keepMounted: true, render: () => <QueryPanel pipeline={name} exampleView={firstView} /> },
    { id: 'late-rows', label: 'Late rows', render: (active) => <LateRowsPanel pipeline={name} active={active} /> },
    {
      id: 'events',
      label: 'Events',
      badge: pipeline?.state === 'failed' ? <span className="badge-count bad">!</span> : undefined,
      render: (active) => <EventsPanel pipeline={name} error={pipeline?.state === 'failed' ? pipeline.error || null : null} active={active} />,
    },
    { id: 'metrics', label: 'Metrics', render: (active) => <MetricsPanel pipeline={name} active={active} /> },
    {
      id: 'pumps',
      label: 'Pumps',
      render: (active) => <PumpsPanel pipeline={name} declared={catalog?.pumps ?? []} active={active} />,
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
            hrefFor={(t) => pipelinePath(name, t as PipelineTab)}
            extraTabs={extraTabs}
            tabsLabel={`Pipeline ${name}`}
          />
        ) : (
          <LoadStatus what={`pipeline “${name}”`} error={loadError} />
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
        <IngestBox pipeline={name} catalog={catalog} />
        <ChangePanel store={store} views={views} socket={socket} />
      </aside>
    </main>
  );
}
