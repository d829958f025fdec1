import { useCallback } from 'react';
import { api } from '../../api/endpoints';
import type { Row } from '../../api/types';
import { PolledStatus } from '../../components/NotAvailable';
import { usePolled } from '../../hooks/usePolled';
import { formatCount } from '../../lib/format';
import { rowText } from '../../lib/formatRow';
import { refKey, type Ref } from '../../lib/refs';

interface Props {
  pipeline: Ref;
  active: boolean;
}

/** Rows dropped as late (below a LATENESS waterline or a stream's clock): counts, and the logged ones. */
export function LateRowsPanel({ pipeline, active }: Props) {
  const load = useCallback((signal: AbortSignal) => api.lateRows(pipeline, signal), [pipeline]);
  const { state, refresh } = usePolled(`late:${refKey(pipeline)}`, load, 3_000, active);
  return (
    <section className="stack" aria-label="Late rows" data-testid="late-rows">
      <div className="button-row">
        <p className="muted small grow">
          Rows below a LATENESS waterline, or older than a stream&apos;s clock, are dropped and counted per table; the 1st,
          10th, 100th, … of each are kept here with the row.
        </p>
        <button type="button" className="btn btn-small" onClick={refresh}>
          Refresh
        </button>
      </div>
      <PolledStatus state={state} what="Late rows" />
      {state.status === 'ok' && (
        <>
          <div className="chips" data-testid="late-counts">
            {Object.keys(state.value.counts).length === 0 && <span className="muted small">No late rows so far.</span>}
            {Object.entries(state.value.counts).map(([relation, count]) => (
              <span key={relation} className="chip" data-testid="late-count" data-relation={relation}>
                <span className="mono">{relation}</span> <strong>{formatCount(count)}</strong>
              </span>
            ))}
          </div>
          {state.value.logged.length > 0 && (
            <div className="result-scroll">
              <table className="result">
                <thead>
                  <tr>
                    <th scope="col">step</th>
                    <th scope="col">relation</th>
                    <th scope="col">reason</th>
                    <th scope="col">nth</th>
                    <th scope="col">row</th>
                  </tr>
                </thead>
                <tbody>
                  {state.value.logged.map((r) => (
                    <tr key={`${r.relation}-${r.ordinal}`} data-testid="late-row">
                      <td className="mono">{r.step}</td>
                      <td className="mono">{r.relation}</td>
                      <td>{r.reason === 'late' ? 'late' : 'out of order'}</td>
                      <td className="mono">#{formatCount(r.ordinal)}</td>
                      <td className="mono wrap">{rowText(r.row as Row)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </section>
  );
}
