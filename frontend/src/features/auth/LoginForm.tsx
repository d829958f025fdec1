import { useState, type SyntheticEvent } from 'react';

interface Props {
  error: string | null;
  onSignIn: (username: string, password: string) => Promise<void>;
}

export function LoginForm({ error, onSignIn }: Props) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    setBusy(true);
    void onSignIn(username, password).finally(() => setBusy(false));
  };

  return (
    <main className="login">
      <form className="login-card" onSubmit={submit} aria-label="Sign in">
        <h1 className="logo">Weir</h1>
        <label>
          User name
          <input
            data-testid="login-username"
            autoComplete="username"
            autoFocus
            value={username}
            onChange={(e) => setUsername(e.target.value)}
          />
        </label>
        <label>
          Password
          <input
            data-testid="login-password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        <button type="submit" className="btn btn-primary" data-testid="login-submit" disabled={busy || !username}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        {error !== null && (
          <p className="error-text" role="alert" data-testid="login-error">
            {error}
          </p>
        )}
      </form>
    </main>
  );
}
