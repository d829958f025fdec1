import { useCallback, useState } from 'react';
import { errorMessage } from '../../api/client';
import { api } from '../../api/endpoints';
import type { PumpAction } from '../../api/types';
import type { CatalogPump } from '../../api/types';
import { NotAvailable } from '../../components/NotAvailable';
import { usePolled } from '../../hooks/usePolled';
import { formatCount } from '../../lib/format';
import { pumpActions } from '../../lib/metricsSeries';
import { refKey, type Ref } from '../../lib/refs';

interface Props {
  pipeline: Ref;
  /** The program's pumps, shown (without controls) when the server cannot report them. */
  declared: readonly CatalogPump[];
  active: boolean;
}

const ACTIONS: readonly PumpAction[] = ['start', 'pause', 'resume', 'stop'];
const LABEL: Record<PumpAction, string> = { start: 'Start', pause: 'Pause', resume: 'Resume', stop: 'Stop' };

/** The pipeline's pumps (INSERT INTO stream SELECT ...), each with its own start, pause, resume and stop. */
export function PumpsPanel({ pipeline, declared, active }: Props) {
  const load = useCallback((signal: AbortSignal) => api.pumps(pipeline, signal), [pipeline]);
  const { state, refresh } = usePolled(`pumps:${refKey(pipeline)}`, load, 2_000, active);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const act = (pump: string, action: PumpAction) => {
    setBusy(pump);
    setError(null);
    api.pumpAction(pipeline, pump, action).then(
      () => {
        setBusy(null);
        refresh();
      },
      (err: unknown) => {
        setBusy(null);
        setError(errorMessage(err));
      },
    );
  };

  if (state.status === 'unavailable' || (state.status === 'error' && declared.length > 0)) {
    return (
      <section className="stack" aria-label="Pumps" data-testid="pumps">
        <NotAvailable what="Pump controls" />
        {declared.length === 0 ? (
          <p className="muted small">This program declares no pumps.</p>
        ) : (
          <ul className="small">
            {declared.map((p) => (
              <li key={p.name} className="mono" data-testid="pump-declared">
                {p.name}: {p.sources.join(', ')} → {p.target} ({p.started ? 'starts with the pipeline' : 'created stopped'})
              </li>
            ))}
          </ul>
        )}
      </section>
    );
  }
  return (
    <section className="stack" aria-label="Pumps" data-testid="pumps">
      {state.status === 'loading' && <p className="muted small">Loading pumps…</p>}
      {state.status === 'error' && <p className="error-text small">Cannot load pumps: {state.message}</p>}
      {error !== null && (
        <p className="error-text small" role="alert">
          {error}
        </p>
      )}
      {state.status === 'ok' && state.value.length === 0 && <p className="muted small">This pipeline has no pumps.</p>}
      {state.status === 'ok' && state.value.length > 0 && (
        <table className="result">
          <thead>
            <tr>
              <th scope="col">pump</th>
              <th scope="col">flow</th>
              <th scope="col">state</th>
              <th scope="col">rows</th>
              <th scope="col">actions</th>
            </tr>
          </thead>
          <tbody>
            {state.value.map((p) => {
              const enabled = pumpActions(p.state);
              return (
                <tr key={p.name} data-testid="pump" data-name={p.name} data-state={p.state}>
                  <td className="mono">{p.name}</td>
                  <td className="mono">
                    {p.sources.join(', ')} → {p.target}
                  </td>
                  <td>
                    <span className={`badge badge-${p.state === 'running' ? 'ok' : 'idle'}`} data-testid="pump-state">
                      {p.state}
                    </span>
                  </td>
                  <td className="mono" data-testid="pump-rows">
                    {formatCount(p.processed_rows)}
                  </td>
                  <td className="button-row">
                    {ACTIONS.map((a) => (
                      <button
                        key={a}
                        type="button"
                        className="btn btn-small"
                        disabled={!enabled[a] || busy !== null}
                        onClick={() => act(p.name, a)}
                        aria-label={`${LABEL[a]} pump ${p.name}`}
                      >
                        {LABEL[a]}
                      </button>
                    ))}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
