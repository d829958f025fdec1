import { useCallback, useEffect, useMemo, useRef } from 'react';
import type { Catalog, Diagnostic, Program } from '../../api/types';
import { isModEnter } from '../../lib/keys';
import { ProblemsList } from './ProblemsList';
import { ShortcutHelp } from './ShortcutHelp';
import { SqlEditor, type SqlEditorHandle } from './SqlEditor';
import { visibleDiagnostics } from './problems';
import type { ProgramDraft } from './useProgramDraft';
import type { Validation } from './useValidation';

interface Props {
  program: Program;
  draft: ProgramDraft;
  validation: Validation & { checkNow: () => void };
  /** What completion offers (the last validation's catalog, else the saved one). */
  catalog: Catalog | null;
  readOnlyReason: string | null;
  /** The editor's tab is showing: page-wide shortcuts apply to it. */
  active: boolean;
  showWarnings: boolean;
  onShowWarnings: (show: boolean) => void;
}

export function EditorPane({ program, draft, validation, catalog, readOnlyReason, active, showWarnings, onShowWarnings }: Props) {
  const editor = useRef<SqlEditorHandle>(null);
  const { save, dirty, saveStatus } = draft;
  const { checkNow } = validation;
  const canSave = readOnlyReason === null && saveStatus.kind !== 'saving';

  const saveIfAllowed = useCallback(() => {
    if (canSave) save();
  }, [canSave, save]);

  // Ctrl/Cmd+S and Ctrl/Cmd+Enter outside Monaco too (inside it, its own commands handle them).
  useEffect(() => {
    if (!active) return;
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey || e.defaultPrevented) return;
      if (e.key.toLowerCase() === 's') {
        e.preventDefault();
        saveIfAllowed();
      } else if (isModEnter(e)) {
        e.preventDefault();
        checkNow();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [active, saveIfAllowed, checkNow]);

  const jump = useCallback((d: Diagnostic) => editor.current?.reveal(d), []);
  const markers = useMemo(() => visibleDiagnostics(validation.diagnostics, showWarnings), [validation.diagnostics, showWarnings]);

  return (
    <section className="editor-pane" aria-label="Program">
      <div className="toolbar">
        <span className="toolbar-title">
          {program.name}.sql <span className="muted" data-testid="program-version">v{program.version}</span>
          {dirty && (
            <span className="dirty" data-testid="dirty" title="Unsaved changes">
              {' '}
              ● unsaved
            </span>
          )}
        </span>
        <span className="spacer" />
        <span className="save-status" data-testid="save-result" data-status={saveStatus.kind} role="status">
          {saveStatus.kind === 'saving' && 'Saving…'}
          {saveStatus.kind === 'saved' && `Saved as version ${saveStatus.version}`}
          {saveStatus.kind === 'error' && <span className="error-text">{saveStatus.message}</span>}
        </span>
        <button type="button" className="btn" data-testid="check-now" onClick={checkNow} title="Check now (Ctrl/Cmd+Enter)">
          Check
        </button>
        <button
          type="button"
          className="btn btn-primary"
          data-testid="save"
          onClick={save}
          disabled={!canSave}
          title="Save as a new version (Ctrl/Cmd+S)"
        >
          Save
        </button>
        <ShortcutHelp />
      </div>
      {readOnlyReason !== null && (
        <p className="read-only-note" data-testid="read-only-note" role="note">
          <strong>Read-only.</strong> {readOnlyReason}
        </p>
      )}
      <SqlEditor
        ref={editor}
        initialValue={program.sql}
        diagnostics={markers}
        catalog={catalog}
        readOnlyReason={readOnlyReason}
        onChange={draft.setSql}
        onSave={saveIfAllowed}
        onCheckNow={checkNow}
      />
      <ProblemsList
        diagnostics={validation.diagnostics}
        pending={validation.pending}
        error={validation.error}
        showWarnings={showWarnings}
        onShowWarnings={onShowWarnings}
        onSelect={jump}
      />
    </section>
  );
}
