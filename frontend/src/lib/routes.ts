/**
 * The page's URLs and what they show. Paths are real (the backend serves the
 * front end for every path outside /api, /ws and /static), so they can be
 * bookmarked and shared:
 *
 *   /                          the dashboard (every pipeline, every program)
 *   /pipelines/{name}[/{tab}]  one pipeline: its program, run panel and tabs
 *   /programs/{name}[/{tab}]   one program: editor, schema, plan, versions
 *   /keys                      API keys
 *
 * Names are unique within a team only: `?team=T` after a pipeline's or program's
 * path says whose (lib/refs.ts); links carry it for a user in several teams.
 *
 * The first page's URL, `/?pipeline=NAME`, still works: it is read as
 * /pipelines/NAME and the address bar is rewritten to that.
 */

import { withTeam, type Ref } from './refs';

export const PIPELINE_TABS = ['program', 'schema', 'plan', 'query', 'late-rows', 'events', 'metrics', 'pumps'] as const;
export type PipelineTab = (typeof PIPELINE_TABS)[number];

export const PROGRAM_TABS = ['program', 'schema', 'plan'] as const;
export type ProgramTab = (typeof PROGRAM_TABS)[number];

export type Route =
  | { page: 'dashboard' }
  | { page: 'pipeline'; name: string; tab: PipelineTab; team?: string }
  | { page: 'program'; name: string; tab: ProgramTab; team?: string }
  | { page: 'keys' }
  | { page: 'not-found'; path: string };

function decode(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

function tabOf<T extends string>(tabs: readonly T[], segment: string | undefined): T | null {
  if (segment === undefined) return tabs[0] ?? null;
  return (tabs as readonly string[]).includes(segment) ? (segment as T) : null;
}

/** The route a location shows. */
export function parseRoute(pathname: string, search = ''): Route {
  const parts = pathname.split('/').filter((p) => p !== '');
  if (parts.length === 0) {
    const legacy = new URLSearchParams(search).get('pipeline')?.trim();
    return legacy ? { page: 'pipeline', name: legacy, tab: 'program' } : { page: 'dashboard' };
  }
  const [head, rawName, rawTab, ...rest] = parts;
  if (head === 'keys' && parts.length === 1) return { page: 'keys' };
  if ((head === 'pipelines' || head === 'programs') && rawName !== undefined && rest.length === 0) {
    const name = decode(rawName);
    const team = new URLSearchParams(search).get('team')?.trim();
    const inTeam = team ? { team } : {};
    if (name !== null && name !== '') {
      if (head === 'pipelines') {
        const tab = tabOf(PIPELINE_TABS, rawTab);
        if (tab !== null) return { page: 'pipeline', name, tab, ...inTeam };
      } else {
        const tab = tabOf(PROGRAM_TABS, rawTab);
        if (tab !== null) return { page: 'program', name, tab, ...inTeam };
      }
    }
  }
  return { page: 'not-found', path: pathname };
}

/** The canonical path of a route (the first tab has no segment of its own). */
export function routePath(route: Route): string {
  switch (route.page) {
    case 'dashboard':
      return '/';
    case 'keys':
      return '/keys';
    case 'pipeline':
    case 'program': {
      const base = `/${route.page}s/${encodeURIComponent(route.name)}`;
      return withTeam(route.tab === 'program' ? base : `${base}/${route.tab}`, route.team ?? null);
    }
    case 'not-found':
      return route.path;
  }
}

function refFields(target: string | Ref): { name: string; team?: string } {
  if (typeof target === 'string') return { name: target };
  return target.team === null ? { name: target.name } : { name: target.name, team: target.team };
}

/** A pipeline's page: by name, or by name and team (`?team=`). */
export const pipelinePath = (target: string | Ref, tab: PipelineTab = 'program'): string =>
  routePath({ page: 'pipeline', tab, ...refFields(target) });
export const programPath = (target: string | Ref, tab: ProgramTab = 'program'): string =>
  routePath({ page: 'program', tab, ...refFields(target) });

/** The ref a pipeline or program route names. */
export const routeRef = (route: { name: string; team?: string }): Ref => ({ name: route.name, team: route.team ?? null });

/**
 * Whether `to` is one of the page's own paths (its tabs): the same object, so
 * leaving for it is no leaving. `home` is the page's first tab's path.
 */
export function withinPage(to: string, home: string): boolean {
  const split = (path: string): [string, string] => {
    const q = path.indexOf('?');
    return q < 0 ? [path, ''] : [path.slice(0, q), path.slice(q)];
  };
  const [toPath, toQuery] = split(to);
  const [homePath, homeQuery] = split(home);
  return toQuery === homeQuery && (toPath === homePath || toPath.startsWith(`${homePath}/`));
}

/**
 * The path the address bar should show for a location, when it differs from
 * the one it has (the legacy `/?pipeline=NAME`); null when it is canonical.
 */
export function canonicalRedirect(pathname: string, search: string): string | null {
  const route = parseRoute(pathname, search);
  if (route.page !== 'pipeline' || pathname !== '/') return null;
  return routePath(route);
}
