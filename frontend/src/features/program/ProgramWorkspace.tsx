import { Suspense, lazy, useState, type ReactNode } from 'react';
import type { Program } from '../../api/types';
import { Tabs, type TabItem } from '../../components/Tabs';
import { useStoredFlag } from '../../hooks/useStoredFlag';
import { useProgramDraft } from '../editor/useProgramDraft';
import { useValidation } from '../editor/useValidation';
import { PlanGraphView } from '../insight/PlanGraphView';
import { SchemaPanel } from '../insight/SchemaPanel';

// Monaco is most of the bundle: load it in its own chunk so the rest of the
// page works while the editor is still arriving.
const EditorPane = lazy(() => import('../editor/EditorPane').then((m) => ({ default: m.EditorPane })));

export interface ExtraTab {
  id: string;
  label: string;
  badge?: ReactNode;
  /** Rendered while its tab shows; `active` is false while hidden (when kept mounted). */
  render: (active: boolean) => ReactNode;
  /** Stay mounted while hidden (e.g. a running query keeps its rows). */
  keepMounted?: boolean;
}

interface Props {
  program: Program;
  onSaved: (program: Program) => void;
  readOnlyReason: string | null;
  /** The page's own path: moving between its tabs does not ask about unsaved changes. */
  homePath: string;
  tab: string;
  hrefFor: (tab: string) => string;
  extraTabs?: readonly ExtraTab[];
  tabsLabel: string;
}

/**
 * A program's editor with its insight tabs (schema, plan), plus whatever tabs
 * the page adds. The editor stays mounted while other tabs show, so unsaved
 * text, cursor and undo history survive a look at the schema.
 */
export function ProgramWorkspace({ program, onSaved, readOnlyReason, homePath, tab, hrefFor, extraTabs = [], tabsLabel }: Props) {
  const draft = useProgramDraft(program, onSaved, homePath);
  const validation = useValidation(draft.sql);
  const [showWarnings, setShowWarnings] = useStoredFlag('weir.showWarnings', true);
  const [lastPlan, setLastPlan] = useState<unknown>(null);
  if (validation.plan !== null && validation.plan !== lastPlan) setLastPlan(validation.plan);

  const catalog = validation.catalog ?? program.catalog;
  const errors = validation.diagnostics.filter((d) => d.severity === 'error').length;
  const tabs: TabItem<string>[] = [
    { id: 'program', label: 'Program', badge: errors > 0 ? <span className="badge-count bad">{errors}</span> : undefined },
    { id: 'schema', label: 'Schema' },
    { id: 'plan', label: 'Plan' },
    ...extraTabs.map((t) => ({ id: t.id, label: t.label, badge: t.badge })),
  ];
  const plan = validation.plan ?? lastPlan;

  return (
    <div className="workspace-main">
      <Tabs label={tabsLabel} tabs={tabs} active={tab} hrefFor={hrefFor} />
      <div className="tab-panel" hidden={tab !== 'program'}>
        <Suspense fallback={<p className="placeholder muted">Loading editor…</p>}>
          <EditorPane
            program={program}
            draft={draft}
            validation={validation}
            catalog={catalog}
            readOnlyReason={readOnlyReason}
            active={tab === 'program'}
            showWarnings={showWarnings}
            onShowWarnings={setShowWarnings}
          />
        </Suspense>
      </div>
      {tab === 'schema' && (
        <div className="tab-panel scroll">
          <SchemaPanel catalog={catalog} />
        </div>
      )}
      {tab === 'plan' && (
        <div className="tab-panel scroll">
          <PlanGraphView plan={plan} catalog={catalog} stale={validation.plan === null && lastPlan !== null} />
        </div>
      )}
      {extraTabs.map((t) =>
        t.keepMounted || t.id === tab ? (
          <div key={t.id} className="tab-panel scroll" hidden={t.id !== tab}>
            {t.render(t.id === tab)}
          </div>
        ) : null,
      )}
    </div>
  );
}
