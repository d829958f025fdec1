import type { Polled } from '../hooks/usePolled';

interface Props {
  what: string;
}

/** What a page shows for an endpoint this server does not have (a 404). */
export function NotAvailable({ what }: Props) {
  return (
    <p className="not-available muted" data-testid="not-available">
      {what}: not available on this server.
    </p>
  );
}

interface StatusProps<T> {
  state: Polled<T>;
  what: string;
}

/** Loading, unavailable and error states of a polled call; renders nothing once there is a value. */
export function PolledStatus<T>({ state, what }: StatusProps<T>) {
  if (state.status === 'loading') return <p className="muted small">Loading {what.toLowerCase()}…</p>;
  if (state.status === 'unavailable') return <NotAvailable what={what} />;
  if (state.status === 'error') {
    return (
      <p className="error-text small" role="alert">
        Cannot load {what.toLowerCase()}: {state.message}
      </p>
    );
  }
  return null;
}
