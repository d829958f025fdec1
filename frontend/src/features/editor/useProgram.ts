import { useEffect, useState } from 'react';
import { api } from '../../api/endpoints';
import { errorMessage } from '../../api/client';
import type { Program } from '../../api/types';
import { teamsToChoose, type Ref } from '../../lib/refs';

export interface ProgramLoad {
  program: Program | null;
  error: string | null;
  /** Several of the user's teams have a program of this name and the ref names none: theirs. */
  teams: string[] | null;
  /** Replaces the loaded program, e.g. with the new version a save returned. */
  setProgram: (program: Program) => void;
}

/** Loads `GET /programs/{name}` (the latest version) once the name (and maybe its team) is known. */
export function useProgram(ref: Ref | null): ProgramLoad {
  const [program, setProgram] = useState<Program | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [teams, setTeams] = useState<string[] | null>(null);
  const name = ref?.name ?? null;
  const team = ref?.team ?? null;

  useEffect(() => {
    if (name === null) return;
    let cancelled = false;
    api.getProgram({ name, team }).then(
      (p) => {
        if (cancelled) return;
        setError(null);
        setTeams(null);
        setProgram(p);
      },
      (err: unknown) => {
        if (cancelled) return;
        setError(errorMessage(err));
        setTeams(teamsToChoose(err));
      },
    );
    return () => {
      cancelled = true;
    };
  }, [name, team]);

  const current = program !== null && program.name === name && (team === null || program.team === team);
  return { program: current ? program : null, error, teams, setProgram };
}
