/**
 * A small history router: the address bar is the state, `navigate` changes it,
 * `useLocation` follows it (back and forward included), `Link` is a real
 * anchor (middle-click, copy link and the keyboard work) that navigates in
 * place on a plain click.
 */
import { useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent } from 'react';

const listeners = new Set<() => void>();
let guard: ((to: string) => boolean) | null = null;

function notify(): void {
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  window.addEventListener('popstate', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('popstate', listener);
  };
}

const snapshot = (): string => window.location.pathname + window.location.search;

export interface LocationParts {
  pathname: string;
  search: string;
}

export function useLocation(): LocationParts {
  const current = useSyncExternalStore(subscribe, snapshot);
  const q = current.indexOf('?');
  return q < 0 ? { pathname: current, search: '' } : { pathname: current.slice(0, q), search: current.slice(q) };
}

/**
 * Lets a page with unsaved work refuse to be left: the guard gets the path
 * asked for and returns false to stay. One guard at a time; null removes it.
 */
export function setNavigationGuard(next: ((to: string) => boolean) | null): void {
  guard = next;
}

/** Goes to `path` inside the app; false when a guard kept the page. */
export function navigate(path: string, options: { replace?: boolean } = {}): boolean {
  if (path === snapshot()) return true;
  if (!options.replace && guard !== null && !guard(path)) return false;
  if (options.replace) window.history.replaceState(null, '', path);
  else window.history.pushState(null, '', path);
  notify();
  return true;
}

type LinkProps = AnchorHTMLAttributes<HTMLAnchorElement> & { to: string };

export function Link({ to, onClick, children, ...rest }: LinkProps) {
  const click = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
      return;
    }
    event.preventDefault();
    navigate(to);
  };
  return (
    <a href={to} onClick={click} {...rest}>
      {children}
    </a>
  );
}
