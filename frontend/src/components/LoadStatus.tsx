interface Props {
  what: string;
  error: string | null;
}

/** What a page shows until its object has loaded: "Loading…", or why it cannot. */
export function LoadStatus({ what, error }: Props) {
  return (
    <div className="placeholder" data-testid="load-status">
      {error !== null ? <p className="error-text">Cannot load {what}: {error}</p> : <p className="muted">Loading…</p>}
    </div>
  );
}
