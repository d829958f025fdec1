import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from '../../api/endpoints';
import { errorMessage } from '../../api/client';
import type { Diagnostic, Program } from '../../api/types';
import { ProblemsList } from './ProblemsList';
import { SqlEditor, type SqlEditorHandle } from './SqlEditor';
import { useValidation } from './useValidation';

interface Props {
  program: Program;
  onSaved: (program: Program) => void;
}

type SaveStatus = { kind: 'idle' } | { kind: 'saving' } | { kind: 'saved'; version: number } | { kind: 'error'; message: string };

export function EditorPane({ program, onSaved }: Props) {
  const [sql, setSql] = useState(program.sql);
  const [savedSql, setSavedSql] = useState(program.sql);
  const [save, setSave] = useState<SaveStatus>({ kind: 'idle' });
  const validation = useValidation(sql);
  const editor = useRef<SqlEditorHandle>(null);
  const saving = useRef(false);

  const doSave = useCallback(() => {
    if (saving.current) return;
    saving.current = true;
    setSave({ kind: 'saving' });
    api.saveProgram(program.name, sql).then(
      (saved) => {
        saving.current = false;
        setSavedSql(saved.sql);
        setSave({ kind: 'saved', version: saved.version });
        onSaved(saved);
      },
      (err: unknown) => {
        saving.current = false;
        setSave({ kind: 'error', message: errorMessage(err) });
      },
    );
  }, [program.name, sql, onSaved]);

  // Ctrl/Cmd+S anywhere on the page (inside Monaco its own command handles it).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 's') {
        e.preventDefault();
        doSave();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [doSave]);

  const jump = useCallback((d: Diagnostic) => editor.current?.reveal(d), []);
  const dirty = sql !== savedSql;

  return (
    <section className="editor-pane" aria-label="Program">
      <div className="toolbar">
        <span className="toolbar-title">
          {program.name}.sql <span className="muted" data-testid="program-version">v{program.version}</span>
          {dirty && <span className="dirty" title="Unsaved changes"> ●</span>}
        </span>
        <span className="spacer" />
        <span className="save-status" data-testid="save-result" data-status={save.kind}>
          {save.kind === 'saving' && 'Saving…'}
          {save.kind === 'saved' && `Saved as version ${save.version}`}
          {save.kind === 'error' && <span className="error-text">{save.message}</span>}
        </span>
        <button
          type="button"
          className="btn btn-primary"
          data-testid="save"
          onClick={doSave}
          disabled={save.kind === 'saving'}
          title="Save (Ctrl/Cmd+S)"
        >
          Save
        </button>
      </div>
      <SqlEditor ref={editor} initialValue={program.sql} diagnostics={validation.diagnostics} onChange={setSql} onSave={doSave} />
      <ProblemsList
        diagnostics={validation.diagnostics}
        pending={validation.pending}
        error={validation.error}
        onSelect={jump}
      />
    </section>
  );
}
