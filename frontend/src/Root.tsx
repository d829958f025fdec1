import { App } from './App';
import { LoginForm } from './features/auth/LoginForm';
import { useSession } from './features/auth/useSession';

/** Everything but sign-in needs a signed-in user. */
export function Root() {
  const { session, signIn, signOut } = useSession();
  if (session.status === 'loading') return <p className="placeholder muted">Loading…</p>;
  if (session.status === 'signed-out') return <LoginForm error={session.error} onSignIn={signIn} />;
  return <App user={session.user} onSignOut={signOut} />;
}
