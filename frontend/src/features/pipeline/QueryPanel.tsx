import { useEffect, useRef, useState } from 'react';
import { ApiError, errorMessage, isAbortError } from '../../api/client';
import { api } from '../../api/endpoints';
import type { QueryColumn, QuerySnapshot } from '../../api/types';
import type { Diagnostic, Row } from '../../api/types';
import { NotAvailable } from '../../components/NotAvailable';
import { formatValue } from '../../lib/formatRow';
import { isModEnter } from '../../lib/keys';
import { readNdjson } from '../../lib/ndjson';
import { QueryTail, isStreamed, parseStreamLine, type TailRow } from '../../lib/queryStream';
import { throttle } from '../../lib/throttle';
import type { Ref } from '../../lib/refs';

interface Props {
  pipeline: Ref;
  /** A view to suggest in the placeholder. */
  exampleView: string | null;
}

const TAIL_ROWS = 1000;

type Outcome =
  | { kind: 'idle' }
  | { kind: 'running' }
  | { kind: 'snapshot'; result: QuerySnapshot }
  | { kind: 'tail'; columns: QueryColumn[]; rows: TailRow[]; step: number | null; dropped: number; live: boolean }
  | { kind: 'unavailable' }
  | { kind: 'error'; message: string; diagnostics: Diagnostic[] };

function diagnosticsOf(err: unknown): Diagnostic[] {
  if (!(err instanceof ApiError) || typeof err.details !== 'object' || err.details === null) return [];
  const d = (err.details as { diagnostics?: unknown }).diagnostics;
  return Array.isArray(d) ? (d as Diagnostic[]) : [];
}

function ResultTable({ columns, rows, kinds }: { columns: readonly string[]; rows: readonly Row[]; kinds?: readonly TailRow[] }) {
  return (
    <div className="result-scroll">
      <table className="result" data-testid="query-table">
        <thead>
          <tr>
            {kinds && <th scope="col">step</th>}
            {columns.map((c) => (
              <th key={c} scope="col">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => {
            const k = kinds?.[i];
            return (
              <tr key={k?.key ?? i} className={k ? `change-${k.kind}` : undefined} data-testid="query-row" data-kind={k?.kind}>
                {k && (
                  <td className="mono muted">
                    {k.step} {k.kind === 'insert' ? '+' : k.kind === 'delete' ? '−' : ''}
                  </td>
                )}
                {columns.map((c) => (
                  <td key={c} className={row[c] === null ? 'mono null' : 'mono'}>
                    {formatValue(row[c])}
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/**
 * Ad-hoc SQL against a running pipeline: a SELECT answers the current
 * snapshot as a table; a SELECT STREAM tails the changes from now on until
 * stopped (or the tab closes).
 */
export function QueryPanel({ pipeline, exampleView }: Props) {
  const [sql, setSql] = useState('');
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'idle' });
  const running = useRef<AbortController | null>(null);

  useEffect(() => () => running.current?.abort(), []);

  const stop = () => {
    running.current?.abort();
    running.current = null;
    setOutcome((o) => (o.kind === 'tail' ? { ...o, live: false } : o.kind === 'running' ? { kind: 'idle' } : o));
  };

  const run = () => {
    const text = sql.trim() || (exampleView ? `SELECT * FROM ${exampleView}` : '');
    if (text === '') return;
    running.current?.abort();
    const controller = new AbortController();
    running.current = controller;
    setOutcome({ kind: 'running' });
    void (async () => {
      try {
        const response = await api.query(pipeline, text, controller.signal);
        if (!isStreamed(response.headers.get('Content-Type'))) {
          const result = (await response.json()) as QuerySnapshot;
          setOutcome({ kind: 'snapshot', result });
          return;
        }
        const tail = new QueryTail(TAIL_ROWS);
        const show = () =>
          setOutcome({ kind: 'tail', columns: tail.columns, rows: tail.rows(), step: tail.lastStep, dropped: tail.dropped, live: !controller.signal.aborted });
        const render = throttle(show, 200);
        show();
        if (!response.body) throw new Error('The answer has no body to stream');
        await readNdjson(response.body, (value) => {
          const event = parseStreamLine(value);
          if (event === null) return;
          tail.apply(event);
          render();
        });
        render.cancel();
        setOutcome({ kind: 'tail', columns: tail.columns, rows: tail.rows(), step: tail.lastStep, dropped: tail.dropped, live: false });
      } catch (err) {
        if (isAbortError(err) || controller.signal.aborted) return;
        if (err instanceof ApiError && err.status === 404) setOutcome({ kind: 'unavailable' });
        else setOutcome({ kind: 'error', message: errorMessage(err), diagnostics: diagnosticsOf(err) });
      }
    })();
  };

  const live = outcome.kind === 'running' || (outcome.kind === 'tail' && outcome.live);

  return (
    <section className="query" aria-label="Ad-hoc query" data-testid="query">
      <textarea
        className="mono"
        data-testid="query-sql"
        aria-label="SQL query"
        rows={4}
        spellCheck={false}
        placeholder={`SELECT * FROM ${exampleView ?? 'my_view'}   -- a snapshot\nSELECT STREAM * FROM ${exampleView ?? 'my_view'}   -- a live tail`}
        value={sql}
        onChange={(e) => setSql(e.target.value)}
        onKeyDown={(e) => {
          if (isModEnter(e)) {
            e.preventDefault();
            run();
          }
        }}
      />
      <div className="button-row">
        <button type="button" className="btn btn-primary" data-testid="query-run" onClick={run} title="Run (Ctrl/Cmd+Enter)">
          Run
        </button>
        <button type="button" className="btn" data-testid="query-stop" onClick={stop} disabled={!live}>
          Stop
        </button>
        <span className="muted small" data-testid="query-status" role="status">
          {outcome.kind === 'running' && 'running…'}
          {outcome.kind === 'snapshot' && `${outcome.result.rows.length} rows · snapshot after step ${outcome.result.step}`}
          {outcome.kind === 'tail' &&
            `${outcome.live ? 'live' : 'stopped'} · ${outcome.rows.length} rows${outcome.step !== null ? ` · step ${outcome.step}` : ''}${
              outcome.dropped > 0 ? ` · ${outcome.dropped} older not shown` : ''
            }`}
        </span>
      </div>
      {outcome.kind === 'unavailable' && <NotAvailable what="Ad-hoc queries" />}
      {outcome.kind === 'error' && (
        <div className="error-text small" role="alert" data-testid="query-error">
          {outcome.message}
          {outcome.diagnostics.length > 0 && (
            <ul>
              {outcome.diagnostics.map((d, i) => (
                <li key={i}>
                  {d.code} {d.start_line_number}:{d.start_column} {d.message}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      {outcome.kind === 'snapshot' && (
        <ResultTable columns={outcome.result.columns.map((c) => c.name)} rows={outcome.result.rows} />
      )}
      {outcome.kind === 'tail' && (
        <ResultTable columns={outcome.columns.map((c) => c.name)} rows={outcome.rows.map((r) => r.row)} kinds={outcome.rows} />
      )}
    </section>
  );
}
