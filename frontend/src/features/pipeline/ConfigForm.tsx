import { useState, type SyntheticEvent } from 'react';
import { errorMessage } from '../../api/client';
import { api } from '../../api/endpoints';
import type { Pipeline, PipelineConfig } from '../../api/types';
import { configFields, configPatch } from './config';
import type { Ref } from '../../lib/refs';

interface Props {
  pipeline: Ref;
  config: PipelineConfig;
  /** Settings change only while the pipeline is stopped (or failed). */
  editable: boolean;
  onSaved: (pipeline: Pipeline) => void;
}

/** Where and how the pipeline runs: Spark master, cores, memory, trigger interval; output connectors listed. */
export function ConfigForm({ pipeline, config, editable, onSaved }: Props) {
  const [fields, setFields] = useState(() => configFields(config));
  const [status, setStatus] = useState<{ kind: 'idle' | 'saving' | 'saved' } | { kind: 'error'; message: string }>({
    kind: 'idle',
  });
  const field = (key: keyof typeof fields, label: string) => (
    <label>
      {label}
      <input
        value={fields[key]}
        disabled={!editable}
        onChange={(e) => setFields({ ...fields, [key]: e.target.value })}
        data-testid={`config-${key}`}
      />
    </label>
  );
  const save = (e: SyntheticEvent) => {
    e.preventDefault();
    const patch = configPatch(fields, config);
    if (!patch.ok) {
      setStatus({ kind: 'error', message: patch.error });
      return;
    }
    setStatus({ kind: 'saving' });
    api.patchConfig(pipeline, patch.patch).then(
      (saved) => {
        setStatus({ kind: 'saved' });
        onSaved(saved);
      },
      (err: unknown) => setStatus({ kind: 'error', message: errorMessage(err) }),
    );
  };
  return (
    <details className="config">
      <summary className="small" data-testid="config-toggle">
        Runtime settings
      </summary>
      <form className="config-form" onSubmit={save} aria-label="Runtime settings">
        {field('spark_master', 'Spark master')}
        {field('cores', 'Cores')}
        {field('memory', 'Memory')}
        {field('trigger_interval_ms', 'Trigger interval (ms)')}
        <p className="muted small">
          {config.connectors.length === 0
            ? 'No output connectors.'
            : `Output connectors: ${config.connectors.map((c) => `${c.view} → ${c.type}`).join(', ')}`}
        </p>
        <div className="button-row">
          <button type="submit" className="btn btn-small" disabled={!editable || status.kind === 'saving'} data-testid="config-save">
            Save settings
          </button>
          <span className={editable && status.kind === 'error' ? 'error-text small' : 'muted small'} role="status" data-testid="config-status">
            {!editable && 'Stop the pipeline to change them.'}
            {editable && status.kind === 'saved' && 'Saved.'}
            {editable && status.kind === 'error' && status.message}
          </span>
        </div>
      </form>
    </details>
  );
}
