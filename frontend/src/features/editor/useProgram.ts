import { useEffect, useState } from 'react';
import { api } from '../../api/endpoints';
import { errorMessage } from '../../api/client';
import type { Program } from '../../api/types';

export interface ProgramLoad {
  program: Program | null;
  error: string | null;
  /** Replaces the loaded program, e.g. with the new version a save returned. */
  setProgram: (program: Program) => void;
}

/** Loads `GET /programs/{name}` (the latest version) once the name is known. */
export function useProgram(name: string | null): ProgramLoad {
  const [program, setProgram] = useState<Program | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (name === null) return;
    let cancelled = false;
    api.getProgram(name).then(
      (p) => {
        if (cancelled) return;
        setError(null);
        setProgram(p);
      },
      (err: unknown) => {
        if (!cancelled) setError(errorMessage(err));
      },
    );
    return () => {
      cancelled = true;
    };
  }, [name]);

  return { program: program !== null && program.name === name ? program : null, error, setProgram };
}
