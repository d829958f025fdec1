import { useSyncExternalStore } from 'react';
import type { Relation } from '../../api/types';
import { formatRow } from '../../lib/formatRow';
import { orderedViews, type ChangeRow, type ChangeStore } from './changeStore';
import type { SocketStatus } from './usePipelineSocket';

interface Props {
  store: ChangeStore;
  views: readonly Relation[];
  socket: SocketStatus;
}

const SOCKET_LABEL: Record<SocketStatus, string> = {
  connecting: 'connecting…',
  open: 'live',
  reconnecting: 'reconnecting…',
};

function ChangeLine({ change, columns }: { change: ChangeRow; columns: readonly string[] }) {
  // Values are rendered as React text nodes, never as HTML.
  return (
    <li className={`change change-${change.kind}`} data-testid="change-row" data-step={change.step} data-kind={change.kind}>
      <span className="change-step">{change.step}</span>
      <span className="change-sign" aria-label={change.kind}>
        {change.kind === 'insert' ? '+' : '-'}
      </span>
      <span className="change-cells">
        {formatRow(change.row, columns).map((cell) => (
          <span key={cell.name} className="cell" title={`${cell.name}: ${cell.text}`}>
            <span className="cell-name">{cell.name}</span>
            <span className={cell.isNull ? 'cell-value null' : 'cell-value'}>{cell.text}</span>
          </span>
        ))}
      </span>
    </li>
  );
}

export function ChangePanel({ store, views, socket }: Props) {
  const snapshot = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const columnsByView = new Map(views.map((v) => [v.name, v.columns.map((c) => c.name)]));
  const shown = orderedViews(
    views.map((v) => v.name),
    snapshot,
  );
  return (
    <section className="panel changes" aria-label="Changes" data-testid="changes">
      <header className="panel-header">
        <h2>Changes</h2>
        <span className={`socket socket-${socket}`} data-testid="socket-status">
          {SOCKET_LABEL[socket]}
        </span>
      </header>
      {shown.length === 0 && <p className="muted small">No views in this program.</p>}
      {shown.map((v) => (
        <div key={v.view} className="view-changes" data-testid="view-changes" data-view={v.view}>
          <h3>
            <span className="mono">{v.view}</span>
            <span className="muted small">
              {v.rows.length === 0 ? 'no changes yet' : `step ${v.lastStep}`}
              {v.dropped > 0 ? ` · ${v.dropped} older not shown` : ''}
            </span>
          </h3>
          <ol className="change-list">
            {v.rows.map((change) => (
              <ChangeLine key={change.key} change={change} columns={columnsByView.get(v.view) ?? []} />
            ))}
          </ol>
        </div>
      ))}
    </section>
  );
}
