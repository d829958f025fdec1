import { useCallback, useEffect, useState, type SyntheticEvent } from 'react';
import { api } from '../../api/endpoints';
import { errorMessage } from '../../api/client';
import type { ApiKeyCreated, ApiKeyScope } from '../../api/types';
import { CopyButton } from '../../components/CopyButton';
import { PolledStatus } from '../../components/NotAvailable';
import { useNow } from '../../hooks/useNow';
import { usePolled } from '../../hooks/usePolled';
import { formatAgo } from '../../lib/format';

/** API keys for CI and the CLI: create with a scope (the key is shown once), list, revoke. */
export function KeysPage() {
  const load = useCallback(() => api.listApiKeys(), []);
  const { state, refresh } = usePolled('api-keys', load, null);
  const [name, setName] = useState('');
  const [scope, setScope] = useState<ApiKeyScope>('read');
  const [created, setCreated] = useState<ApiKeyCreated | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const now = useNow();

  useEffect(() => {
    document.title = 'API keys — Weir';
  }, []);

  const create = (e: SyntheticEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    api.createApiKey(name.trim(), scope).then(
      (key) => {
        setBusy(false);
        setCreated(key);
        setName('');
        refresh();
      },
      (err: unknown) => {
        setBusy(false);
        setError(errorMessage(err));
      },
    );
  };

  const revoke = (prefix: string) => {
    setConfirming(null);
    setError(null);
    api.revokeApiKey(prefix).then(refresh, (err: unknown) => setError(errorMessage(err)));
  };

  return (
    <main className="page narrow" aria-label="API keys">
      <section className="page-section">
        <header className="page-head">
          <h1>API keys</h1>
        </header>
        <p className="muted">
          A key lets CI and the <span className="mono">weir</span> command use the API as you:{' '}
          <span className="mono">Authorization: Bearer weir_…</span>. A <strong>read</strong> key may only GET; a{' '}
          <strong>write</strong> key may also deploy, start, stop and push data.
        </p>
        <form className="inline-form" onSubmit={create} aria-label="Create an API key">
          <label>
            Name
            <input value={name} onChange={(e) => setName(e.target.value)} placeholder="ci-deploy" data-testid="key-name" />
          </label>
          <label>
            Scope
            <select value={scope} onChange={(e) => setScope(e.target.value as ApiKeyScope)} data-testid="key-scope">
              <option value="read">read</option>
              <option value="write">write</option>
            </select>
          </label>
          <button type="submit" className="btn btn-primary" disabled={busy || name.trim() === ''} data-testid="key-create">
            {busy ? 'Creating…' : 'Create key'}
          </button>
        </form>
        {error !== null && (
          <p className="error-text" role="alert" data-testid="key-error">
            {error}
          </p>
        )}
        {created !== null && (
          <div className="panel key-once" data-testid="key-created" role="status">
            <p>
              <strong>Copy the key now.</strong> It is shown this once; Weir keeps only a hash of it.
            </p>
            <div className="button-row">
              <code id="new-key" className="key-value" data-testid="key-value">
                {created.key}
              </code>
              <CopyButton text={created.key} fallbackId="new-key" testId="key-copy" />
            </div>
            <button type="button" className="btn btn-small" onClick={() => setCreated(null)} data-testid="key-dismiss">
              Done
            </button>
          </div>
        )}
      </section>
      <section className="page-section">
        <PolledStatus state={state} what="API keys" />
        {state.status === 'ok' && state.value.length === 0 && <p className="muted">No keys yet.</p>}
        {state.status === 'ok' && state.value.length > 0 && (
          <table className="dash" data-testid="keys">
            <thead>
              <tr>
                <th scope="col">name</th>
                <th scope="col">prefix</th>
                <th scope="col">scope</th>
                <th scope="col">created</th>
                <th scope="col">last used</th>
                <th scope="col">status</th>
              </tr>
            </thead>
            <tbody>
              {state.value.map((k) => (
                <tr key={k.prefix} data-testid="key-row" data-name={k.name} data-revoked={k.revoked}>
                  <td>{k.name}</td>
                  <td className="mono">{k.prefix}</td>
                  <td>{k.scope}</td>
                  <td className="muted small">{formatAgo(k.created_at, now)}</td>
                  <td className="muted small">{k.last_used_at ? formatAgo(k.last_used_at, now) : 'never'}</td>
                  <td>
                    {k.revoked ? (
                      <span className="muted" data-testid="key-revoked">
                        revoked
                      </span>
                    ) : confirming === k.prefix ? (
                      <span className="button-row nowrap">
                        <button type="button" className="btn btn-small btn-danger" onClick={() => revoke(k.prefix)} data-testid="key-revoke-confirm">
                          Revoke {k.name}
                        </button>
                        <button type="button" className="btn btn-small" onClick={() => setConfirming(null)}>
                          Keep
                        </button>
                      </span>
                    ) : (
                      <button type="button" className="btn btn-small" onClick={() => setConfirming(k.prefix)} data-testid="key-revoke">
                        Revoke…
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </main>
  );
}
