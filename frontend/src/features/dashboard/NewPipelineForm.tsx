import { useState, type SyntheticEvent } from 'react';
import { api } from '../../api/endpoints';
import { errorMessage } from '../../api/client';
import type { Program } from '../../api/types';
import { linkRef } from '../../lib/refs';
import { pipelinePath } from '../../lib/routes';
import { navigate } from '../shell/router';
import { isValidName } from './rows';

/** What a new program starts with: a table, a view, and the dialect's time column. */
export const STARTER_SQL = `-- A table of orders and a view of the large ones.
CREATE TABLE orders (
    id BIGINT NOT NULL,
    customer VARCHAR NOT NULL,
    amount DECIMAL(10, 2) NOT NULL,
    placed_at TIMESTAMP NOT NULL LATENESS INTERVAL '1' HOUR
);

CREATE VIEW large_orders AS
SELECT id, customer, amount, placed_at
FROM orders
WHERE amount >= 100;
`;

const NEW = '\u0000new';

interface Props {
  programs: readonly Program[];
  /** The user's teams: a new program goes to the one chosen when there are several. */
  teams: readonly string[];
}

const programKey = (p: Program): string => `${p.team}/${p.name}`;

/**
 * Creates a pipeline on an existing program (in that program's team), or on a new
 * program made from a starter text (in the team chosen); then opens it.
 */
export function NewPipelineForm({ programs, teams }: Props) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [program, setProgram] = useState('');
  const [team, setTeam] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const chosen = program === '' ? (programs[0] ? programKey(programs[0]) : NEW) : program;
  const makeProgram = chosen === NEW;
  const existing = programs.find((p) => programKey(p) === chosen) ?? null;
  const severalTeams = teams.length > 1;
  const newTeam = team === '' ? (teams[0] ?? null) : team;

  const submit = (e: SyntheticEvent) => {
    e.preventDefault();
    if (!isValidName(name)) {
      setError('Use letters, digits, - and _ for the name.');
      return;
    }
    setBusy(true);
    setError(null);
    void (async () => {
      try {
        const on =
          makeProgram || existing === null
            ? await api.createProgram(name, STARTER_SQL, severalTeams ? newTeam : null)
            : existing;
        const created = await api.createPipeline(name, { name: on.name, team: on.team });
        navigate(pipelinePath(linkRef(created, teams)));
      } catch (err) {
        setError(errorMessage(err));
        setBusy(false);
      }
    })();
  };

  if (!open) {
    return (
      <button type="button" className="btn btn-primary" data-testid="new-pipeline" onClick={() => setOpen(true)}>
        New pipeline
      </button>
    );
  }
  return (
    <form className="inline-form" onSubmit={submit} aria-label="New pipeline" data-testid="new-pipeline-form">
      <label>
        Name
        <input
          autoFocus
          value={name}
          onChange={(e) => setName(e.target.value)}
          data-testid="new-pipeline-name"
          placeholder="orders"
        />
      </label>
      <label>
        Program
        <select value={chosen} onChange={(e) => setProgram(e.target.value)} data-testid="new-pipeline-program">
          {programs.map((p) => (
            <option key={programKey(p)} value={programKey(p)}>
              {p.name} (v{p.version}){severalTeams ? ` — team ${p.team}` : ''}
            </option>
          ))}
          <option value={NEW}>a new program from a starter</option>
        </select>
      </label>
      {makeProgram && severalTeams && (
        <label>
          Team
          <select value={newTeam ?? ''} onChange={(e) => setTeam(e.target.value)} data-testid="new-pipeline-team">
            {teams.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
      )}
      <button type="submit" className="btn btn-primary" disabled={busy || name === ''} data-testid="new-pipeline-create">
        {busy ? 'Creating…' : 'Create'}
      </button>
      <button type="button" className="btn" onClick={() => setOpen(false)}>
        Cancel
      </button>
      {error !== null && (
        <span className="error-text small" role="alert">
          {error}
        </span>
      )}
    </form>
  );
}
