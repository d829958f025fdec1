import { useCallback, useState } from 'react';
import { api } from '../../api/endpoints';
import type { PipelineEvent } from '../../api/types';
import { ErrorReport } from '../../components/ErrorReport';
import { PolledStatus } from '../../components/NotAvailable';
import { usePolled } from '../../hooks/usePolled';
import { formatTime } from '../../lib/format';
import { refKey, type Ref } from '../../lib/refs';

interface Props {
  pipeline: Ref;
  /** The pipeline's current error, shown on top while it is failed. */
  error: string | null;
  active: boolean;
}

const isProblem = (e: PipelineEvent): boolean => e.to_state === 'failed';

/** Every state change with who asked and what happened, newest first; failures stand out. */
export function EventsPanel({ pipeline, error, active }: Props) {
  const load = useCallback((signal: AbortSignal) => api.events(pipeline, signal), [pipeline]);
  const { state, refresh } = usePolled(`events:${refKey(pipeline)}`, load, 3_000, active);
  const [errorsOnly, setErrorsOnly] = useState(false);
  const events = state.status === 'ok' ? [...state.value].reverse().filter((e) => !errorsOnly || isProblem(e)) : [];
  return (
    <section className="stack" aria-label="Events" data-testid="events">
      {error && <ErrorReport text={error} className="panel-error" testId="events-error" />}
      <div className="button-row">
        <label className="toggle small">
          <input type="checkbox" checked={errorsOnly} onChange={(e) => setErrorsOnly(e.target.checked)} data-testid="errors-only" />
          Failures only
        </label>
        <span className="spacer" />
        <button type="button" className="btn btn-small" onClick={refresh}>
          Refresh
        </button>
      </div>
      <PolledStatus state={state} what="Events" />
      {state.status === 'ok' && events.length === 0 && <p className="muted small">No events{errorsOnly ? ' of failure' : ''}.</p>}
      {events.length > 0 && (
        <div className="result-scroll">
          <table className="result">
            <thead>
              <tr>
                <th scope="col">time (UTC)</th>
                <th scope="col">change</th>
                <th scope="col">by</th>
                <th scope="col">message</th>
              </tr>
            </thead>
            <tbody>
              {events.map((e, i) => (
                <tr key={`${e.created_at}-${i}`} className={isProblem(e) ? 'row-bad' : undefined} data-testid="event" data-to={e.to_state}>
                  <td className="mono nowrap">{formatTime(e.created_at)}</td>
                  <td className="nowrap">
                    {e.from_state === e.to_state ? e.to_state : `${e.from_state} → ${e.to_state}`}
                  </td>
                  <td className="mono">{e.actor}</td>
                  <td className="wrap">{isProblem(e) ? <ErrorReport text={e.message} alert={false} /> : e.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
