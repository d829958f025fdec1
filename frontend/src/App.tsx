import { useEffect } from 'react';
import type { User } from './api/types';
import { DashboardPage } from './features/dashboard/DashboardPage';
import { KeysPage } from './features/keys/KeysPage';
import { PipelinePage } from './features/pipeline/PipelinePage';
import { ProgramPage } from './features/program/ProgramPage';
import { Link, navigate, useLocation } from './features/shell/router';
import { refKey, refLabel } from './lib/refs';
import { canonicalRedirect, parseRoute, routeRef, type Route } from './lib/routes';

interface Props {
  user: User;
  onSignOut: () => Promise<void>;
}

function NavLink({ to, active, children }: { to: string; active: boolean; children: string }) {
  return (
    <Link to={to} className={active ? 'nav-link nav-active' : 'nav-link'} aria-current={active ? 'page' : undefined}>
      {children}
    </Link>
  );
}

function Page({ route, teams }: { route: Route; teams: readonly string[] }) {
  switch (route.page) {
    case 'dashboard':
      return <DashboardPage teams={teams} />;
    case 'pipeline': {
      const target = routeRef(route);
      return <PipelinePage key={refKey(target)} target={target} tab={route.tab} />;
    }
    case 'program': {
      const target = routeRef(route);
      return <ProgramPage key={refKey(target)} target={target} tab={route.tab} teams={teams} />;
    }
    case 'keys':
      return <KeysPage />;
    case 'not-found':
      return (
        <main className="page">
          <h1>Not found</h1>
          <p className="muted">
            Nothing lives at <span className="mono">{route.path}</span>. <Link to="/">Back to the pipelines</Link>.
          </p>
        </main>
      );
  }
}

/** The signed-in frame: navigation, who is signed in, and the page the address names. */
export function App({ user, onSignOut }: Props) {
  const { pathname, search } = useLocation();
  const route = parseRoute(pathname, search);

  // The first page's URL (/?pipeline=NAME) keeps working: shown as /pipelines/NAME.
  useEffect(() => {
    const canonical = canonicalRedirect(pathname, search);
    if (canonical !== null) navigate(canonical, { replace: true });
  }, [pathname, search]);

  return (
    <div className="app">
      <header className="app-header">
        <Link to="/" className="logo">
          Weir
        </Link>
        <nav className="nav" aria-label="Main">
          <NavLink to="/" active={route.page === 'dashboard'}>
            Pipelines
          </NavLink>
          <NavLink to="/keys" active={route.page === 'keys'}>
            API keys
          </NavLink>
        </nav>
        {route.page === 'pipeline' || route.page === 'program' ? (
          <span className="crumb mono" data-testid="program-name">
            {route.page === 'pipeline' ? `pipeline ${refLabel(routeRef(route))}` : `${refLabel(routeRef(route))}.sql`}
          </span>
        ) : null}
        <span className="spacer" />
        <span className="muted small" data-testid="user-name">
          {user.username}
        </span>
        <button type="button" className="link" data-testid="sign-out" onClick={() => void onSignOut()}>
          Sign out
        </button>
      </header>
      <Page route={route} teams={user.teams} />
    </div>
  );
}
