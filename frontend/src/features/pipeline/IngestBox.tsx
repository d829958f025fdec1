import { useState } from 'react';
import { errorMessage, isNotFound } from '../../api/client';
import { api } from '../../api/endpoints';
import type { Catalog } from '../../api/types';
import { detectFormat, type IngestFormat } from '../../lib/csv';
import { isModEnter } from '../../lib/keys';
import { exampleCsv, exampleInput, ingestTargets, prepareIngest } from '../../lib/ingest';
import { refKey, type Ref } from '../../lib/refs';

interface Props {
  pipeline: Ref;
  catalog: Catalog | null;
}

type Result =
  | { kind: 'none' }
  | { kind: 'sending' }
  | { kind: 'ok'; text: string }
  | { kind: 'unavailable'; text: string }
  | { kind: 'error'; message: string };

type FormatChoice = 'auto' | IngestFormat;

function ResultLine({ result, testId }: { result: Result; testId: string }) {
  return (
    <span
      className={result.kind === 'error' ? 'error-text small' : 'muted small'}
      data-testid={testId}
      data-status={result.kind}
      role="status"
    >
      {result.kind === 'sending' && 'sending…'}
      {(result.kind === 'ok' || result.kind === 'unavailable') && result.text}
      {result.kind === 'error' && result.message}
    </span>
  );
}

/** Rows into a table or stream, as JSON changes or CSV; and rowtime bounds (punctuation) without rows. */
export function IngestBox({ pipeline, catalog }: Props) {
  const targets = ingestTargets(catalog);
  const [chosen, setChosen] = useState<string | null>(null);
  const [text, setText] = useState('');
  const [formatChoice, setFormatChoice] = useState<FormatChoice>('auto');
  const [result, setResult] = useState<Result>({ kind: 'none' });
  const [bound, setBound] = useState('');
  const [strict, setStrict] = useState(false);
  const [boundResult, setBoundResult] = useState<Result>({ kind: 'none' });

  // The first table until the user picks one (or the picked one disappears).
  const table = targets.find((t) => t.name === chosen)?.name ?? targets[0]?.name ?? '';
  const relation = targets.find((t) => t.name === table);
  const format: IngestFormat = formatChoice === 'auto' ? detectFormat(text) : formatChoice;

  const send = () => {
    const request = prepareIngest(text, format, relation);
    if (!request.ok) {
      setResult({ kind: 'error', message: request.error });
      return;
    }
    setResult({ kind: 'sending' });
    const call = request.format === 'json' ? api.ingest(pipeline, table, request.changes) : api.ingestCsv(pipeline, table, request.csv);
    call.then(
      (answer) => setResult({ kind: 'ok', text: `accepted ${answer.accepted} (${request.format.toUpperCase()}) · seq ${answer.seq}` }),
      (err: unknown) => setResult({ kind: 'error', message: errorMessage(err) }),
    );
  };

  const sendBound = () => {
    if (bound.trim() === '') {
      setBoundResult({ kind: 'error', message: 'Enter a time, e.g. 2026-01-01 10:00:00' });
      return;
    }
    setBoundResult({ kind: 'sending' });
    api.bound(pipeline, table, bound.trim(), strict).then(
      (answer) => setBoundResult({ kind: 'ok', text: `bound accepted · seq ${answer.seq}` }),
      (err: unknown) =>
        setBoundResult(
          isNotFound(err)
            ? { kind: 'unavailable', text: 'Rowtime bounds are not available on this server.' }
            : { kind: 'error', message: errorMessage(err) },
        ),
    );
  };

  return (
    <section className="panel ingest" aria-label="Ingest">
      <header className="panel-header">
        <h2>Ingest</h2>
        <select
          data-testid="ingest-table"
          aria-label="Table or stream"
          value={table}
          onChange={(e) => setChosen(e.target.value)}
          disabled={targets.length === 0}
        >
          {targets.length === 0 && <option value="">no tables</option>}
          {targets.map((t) => (
            <option key={t.name} value={t.name}>
              {t.name} ({t.kind})
            </option>
          ))}
        </select>
      </header>
      <div className="segmented" role="radiogroup" aria-label="Format">
        {(['auto', 'json', 'csv'] as const).map((f) => (
          <label key={f} className={formatChoice === f ? 'seg seg-on' : 'seg'}>
            <input
              type="radio"
              name={`ingest-format-${refKey(pipeline)}`}
              value={f}
              checked={formatChoice === f}
              onChange={() => setFormatChoice(f)}
              data-testid={`ingest-format-${f}`}
            />
            {f === 'auto' ? `Auto (${detectFormat(text).toUpperCase()})` : f.toUpperCase()}
          </label>
        ))}
      </div>
      <textarea
        data-testid="ingest-rows"
        aria-label={format === 'json' ? 'Rows or changes as a JSON array' : 'CSV: a header line, then rows to insert'}
        className="mono"
        rows={4}
        spellCheck={false}
        placeholder={format === 'json' ? exampleInput(relation) : exampleCsv(relation)}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (isModEnter(e)) {
            e.preventDefault();
            send();
          }
        }}
      />
      <div className="button-row">
        <button
          type="button"
          className="btn btn-primary"
          data-testid="ingest-send"
          disabled={table === '' || result.kind === 'sending'}
          onClick={send}
          title="Send (Ctrl/Cmd+Enter)"
        >
          Send {format.toUpperCase()}
        </button>
        <ResultLine result={result} testId="ingest-result" />
      </div>
      <details className="bound">
        <summary className="small" data-testid="bound-toggle">
          Rowtime bound (punctuation)
        </summary>
        <p className="muted small">
          Tells {table || 'the table'} that no row older than this time will come: windows close and emit_final rows are
          released as if a row with this time had arrived.
        </p>
        <div className="button-row">
          <input
            className="mono"
            data-testid="bound-value"
            aria-label="Bound time"
            placeholder="2026-01-01 10:00:00"
            value={bound}
            onChange={(e) => setBound(e.target.value)}
          />
          <label className="toggle small">
            <input type="checkbox" checked={strict} onChange={(e) => setStrict(e.target.checked)} data-testid="bound-strict" />
            strict
          </label>
          <button
            type="button"
            className="btn"
            data-testid="bound-send"
            disabled={table === '' || boundResult.kind === 'sending'}
            onClick={sendBound}
          >
            Send bound
          </button>
        </div>
        <ResultLine result={boundResult} testId="bound-result" />
      </details>
    </section>
  );
}
