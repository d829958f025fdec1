import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from '../../api/endpoints';
import { errorMessage } from '../../api/client';
import type { Program } from '../../api/types';
import { setNavigationGuard } from '../shell/router';
import { withinPage } from '../../lib/routes';

export type SaveStatus =
  | { kind: 'idle' }
  | { kind: 'saving' }
  | { kind: 'saved'; version: number }
  | { kind: 'error'; message: string };

export interface ProgramDraft {
  sql: string;
  setSql: (sql: string) => void;
  /** The text differs from the last saved version. */
  dirty: boolean;
  save: () => void;
  saveStatus: SaveStatus;
}

const LEAVE_QUESTION = 'The program has unsaved changes. Leave without saving?';

/**
 * The text being edited and saving it as a new version (PUT /programs/{name}).
 * While it has unsaved changes, leaving the page (for a path outside
 * `homePath`, or closing the tab) asks first.
 */
export function useProgramDraft(program: Program, onSaved: (program: Program) => void, homePath: string): ProgramDraft {
  const [sql, setSql] = useState(program.sql);
  const [savedSql, setSavedSql] = useState(program.sql);
  const [saveStatus, setSaveStatus] = useState<SaveStatus>({ kind: 'idle' });
  const saving = useRef(false);
  const dirty = sql !== savedSql;

  const save = useCallback(() => {
    if (saving.current) return;
    saving.current = true;
    setSaveStatus({ kind: 'saving' });
    api.saveProgram({ name: program.name, team: program.team }, sql).then(
      (saved) => {
        saving.current = false;
        setSavedSql(saved.sql);
        setSaveStatus({ kind: 'saved', version: saved.version });
        onSaved(saved);
      },
      (err: unknown) => {
        saving.current = false;
        setSaveStatus({ kind: 'error', message: errorMessage(err) });
      },
    );
  }, [program.name, program.team, sql, onSaved]);

  useEffect(() => {
    if (!dirty) return;
    const beforeUnload = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', beforeUnload);
    setNavigationGuard((to) => withinPage(to, homePath) || window.confirm(LEAVE_QUESTION));
    return () => {
      window.removeEventListener('beforeunload', beforeUnload);
      setNavigationGuard(null);
    };
  }, [dirty, homePath]);

  return { sql, setSql, dirty, save, saveStatus };
}
