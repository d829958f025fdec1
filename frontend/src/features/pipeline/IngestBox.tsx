import { useState } from 'react';
import { api } from '../../api/endpoints';
import { errorMessage } from '../../api/client';
import type { Catalog } from '../../api/types';
import { exampleInput, ingestTargets, parseIngestInput } from '../../lib/ingest';

interface Props {
  pipeline: string;
  catalog: Catalog | null;
}

type Result = { kind: 'none' } | { kind: 'sending' } | { kind: 'ok'; accepted: number } | { kind: 'error'; message: string };

export function IngestBox({ pipeline, catalog }: Props) {
  const targets = ingestTargets(catalog);
  const [chosen, setChosen] = useState<string | null>(null);
  const [text, setText] = useState('');
  const [result, setResult] = useState<Result>({ kind: 'none' });

  // The first table until the user picks one (or the picked one disappears).
  const table = targets.find((t) => t.name === chosen)?.name ?? targets[0]?.name ?? '';
  const relation = targets.find((t) => t.name === table);

  const send = () => {
    const parsed = parseIngestInput(text);
    if (!parsed.ok) {
      setResult({ kind: 'error', message: parsed.error });
      return;
    }
    setResult({ kind: 'sending' });
    api.ingest(pipeline, table, parsed.changes).then(
      (answer) => setResult({ kind: 'ok', accepted: answer.accepted }),
      (err: unknown) => setResult({ kind: 'error', message: errorMessage(err) }),
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
      <textarea
        data-testid="ingest-rows"
        aria-label="Rows or changes as a JSON array"
        className="mono"
        rows={4}
        spellCheck={false}
        placeholder={exampleInput(relation)}
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
      <div className="button-row">
        <button
          type="button"
          className="btn btn-primary"
          data-testid="ingest-send"
          disabled={table === '' || result.kind === 'sending'}
          onClick={send}
        >
          Send
        </button>
        <span
          className={result.kind === 'error' ? 'error-text small' : 'muted small'}
          data-testid="ingest-result"
          data-status={result.kind}
          role="status"
        >
          {result.kind === 'sending' && 'sending…'}
          {result.kind === 'ok' && `accepted ${result.accepted}`}
          {result.kind === 'error' && result.message}
        </span>
      </div>
    </section>
  );
}
