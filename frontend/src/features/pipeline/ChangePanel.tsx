import { memo, useMemo, useState, useSyncExternalStore } from 'react';
import type { Relation } from '../../api/types';
import { formatRow } from '../../lib/formatRow';
import { throttle } from '../../lib/throttle';
import { orderedViews, type ChangeRow, type ChangeSnapshot, type ChangeStore, type ViewChanges } from './changeStore';
import type { SocketStatus } from './usePipelineSocket';

interface Props {
  store: ChangeStore;
  views: readonly Relation[];
  socket: SocketStatus;
}

/** At most this many renders a second, however fast deltas arrive. */
const RENDER_INTERVAL_MS = 200;

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

/** One view's list; memoised on its rows, so a paused display does not re-render hundreds of rows. */
const ViewList = memo(function ViewList({ v, columns }: { v: ViewChanges; columns: readonly string[] }) {
  const inserts = v.rows.filter((r) => r.kind === 'insert').length;
  return (
    <div className="view-changes" data-testid="view-changes" data-view={v.view}>
      <h3>
        <span className="mono">{v.view}</span>
        <span className="muted small">
          {v.rows.length === 0
            ? 'no changes yet'
            : `step ${v.lastStep} · ${inserts} + / ${v.rows.length - inserts} −`}
          {v.dropped > 0 ? ` · ${v.dropped} older not shown` : ''}
        </span>
      </h3>
      <ol className="change-list">
        {v.rows.map((change) => (
          <ChangeLine key={change.key} change={change} columns={columns} />
        ))}
      </ol>
    </div>
  );
});

function useThrottledSnapshot(store: ChangeStore): ChangeSnapshot {
  const subscribe = useMemo(
    () => (listener: () => void) => {
      const throttled = throttle(listener, RENDER_INTERVAL_MS);
      const unsubscribe = store.subscribe(throttled);
      return () => {
        throttled.cancel();
        unsubscribe();
      };
    },
    [store],
  );
  return useSyncExternalStore(subscribe, store.getSnapshot);
}

/**
 * Every view's changes as they arrive: inserts and deletes coloured, newest
 * step first. Pausing freezes what is shown while the pipeline (and the
 * store) go on; clearing empties the lists.
 */
export function ChangePanel({ store, views, socket }: Props) {
  const live = useThrottledSnapshot(store);
  const [frozen, setFrozen] = useState<ChangeSnapshot | null>(null);
  const [only, setOnly] = useState('');
  const shownSnapshot = frozen ?? live;
  const columnsByView = useMemo(() => new Map(views.map((v) => [v.name, v.columns.map((c) => c.name)])), [views]);
  const names = views.filter((v) => !v.local).map((v) => v.name);
  const shown = orderedViews(names, shownSnapshot).filter((v) => only === '' || v.view === only);
  const missed = frozen === null ? 0 : live.received - frozen.received;

  const clear = () => {
    store.clear();
    if (frozen !== null) setFrozen(store.getSnapshot());
  };

  return (
    <section className="panel changes" aria-label="Changes" data-testid="changes">
      <header className="panel-header">
        <h2>Changes</h2>
        <span className={`socket socket-${socket}`} data-testid="socket-status">
          {SOCKET_LABEL[socket]}
        </span>
      </header>
      <div className="button-row">
        <select aria-label="View" value={only} onChange={(e) => setOnly(e.target.value)} data-testid="changes-view">
          <option value="">All views</option>
          {names.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="btn btn-small"
          aria-pressed={frozen !== null}
          data-testid="changes-pause"
          onClick={() => setFrozen(frozen === null ? live : null)}
          title="Freeze the display; the pipeline keeps running"
        >
          {frozen === null ? 'Pause display' : 'Resume display'}
        </button>
        <button type="button" className="btn btn-small" data-testid="changes-clear" onClick={clear}>
          Clear
        </button>
      </div>
      {frozen !== null && (
        <p className="small notice" data-testid="changes-paused" role="status">
          Display paused · {missed} new change{missed === 1 ? '' : 's'} since
        </p>
      )}
      {shown.length === 0 && <p className="muted small">No views in this program.</p>}
      {shown.map((v) => (
        <ViewList key={v.view} v={v} columns={columnsByView.get(v.view) ?? []} />
      ))}
    </section>
  );
}
