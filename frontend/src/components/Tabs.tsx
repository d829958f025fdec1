import type { ReactNode } from 'react';
import { Link } from '../features/shell/router';

export interface TabItem<T extends string> {
  id: T;
  label: string;
  /** A count or mark beside the label (e.g. the number of problems). */
  badge?: ReactNode;
}

interface Props<T extends string> {
  label: string;
  tabs: readonly TabItem<T>[];
  active: T;
  hrefFor: (tab: T) => string;
}

/** Tabs that are links: each tab has its own URL, so back, forward and bookmarks work. */
export function Tabs<T extends string>({ label, tabs, active, hrefFor }: Props<T>) {
  return (
    <nav className="tabs" aria-label={label}>
      {tabs.map((t) => (
        <Link
          key={t.id}
          to={hrefFor(t.id)}
          className={t.id === active ? 'tab tab-active' : 'tab'}
          aria-current={t.id === active ? 'page' : undefined}
          data-testid={`tab-${t.id}`}
        >
          {t.label}
          {t.badge !== undefined && t.badge !== null && <span className="tab-badge">{t.badge}</span>}
        </Link>
      ))}
    </nav>
  );
}
