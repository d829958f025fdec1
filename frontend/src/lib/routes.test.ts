import { describe, expect, it } from 'vitest';
import { canonicalRedirect, parseRoute, pipelinePath, programPath, routePath, withinPage, type Route } from './routes';

describe('parseRoute', () => {
  it.each<[string, string, Route]>([
    ['/', '', { page: 'dashboard' }],
    ['/keys', '', { page: 'keys' }],
    ['/keys/', '', { page: 'keys' }],
    ['/pipelines/demo', '', { page: 'pipeline', name: 'demo', tab: 'program' }],
    ['/pipelines/demo/events', '', { page: 'pipeline', name: 'demo', tab: 'events' }],
    ['/pipelines/demo/late-rows', '', { page: 'pipeline', name: 'demo', tab: 'late-rows' }],
    ['/programs/orders', '', { page: 'program', name: 'orders', tab: 'program' }],
    ['/programs/orders/plan', '', { page: 'program', name: 'orders', tab: 'plan' }],
  ])('%s%s', (path, search, route) => {
    expect(parseRoute(path, search)).toEqual(route);
  });

  it('reads the legacy ?pipeline=NAME at the root as that pipeline', () => {
    expect(parseRoute('/', '?pipeline=demo')).toEqual({ page: 'pipeline', name: 'demo', tab: 'program' });
    expect(parseRoute('/', '?pipeline=%20')).toEqual({ page: 'dashboard' });
  });

  it('decodes names and refuses what it does not know', () => {
    expect(parseRoute('/pipelines/a%2Db')).toMatchObject({ name: 'a-b' });
    expect(parseRoute('/pipelines/demo/nope')).toEqual({ page: 'not-found', path: '/pipelines/demo/nope' });
    expect(parseRoute('/programs/x/query')).toEqual({ page: 'not-found', path: '/programs/x/query' });
    expect(parseRoute('/pipelines')).toEqual({ page: 'not-found', path: '/pipelines' });
    expect(parseRoute('/pipelines/%E0%A4%A')).toMatchObject({ page: 'not-found' });
    expect(parseRoute('/pipelines/a/b/c')).toMatchObject({ page: 'not-found' });
  });
});

describe('routePath', () => {
  it('round-trips every route', () => {
    const routes: Route[] = [
      { page: 'dashboard' },
      { page: 'keys' },
      { page: 'pipeline', name: 'demo', tab: 'program' },
      { page: 'pipeline', name: 'demo', tab: 'metrics' },
      { page: 'program', name: 'a b', tab: 'schema' },
    ];
    for (const r of routes) expect(parseRoute(routePath(r))).toEqual(r);
  });

  it('gives the first tab no segment of its own', () => {
    expect(pipelinePath('demo')).toBe('/pipelines/demo');
    expect(pipelinePath('demo', 'query')).toBe('/pipelines/demo/query');
    expect(programPath('x')).toBe('/programs/x');
  });
});

describe('canonicalRedirect', () => {
  it('rewrites only the legacy URL', () => {
    expect(canonicalRedirect('/', '?pipeline=demo')).toBe('/pipelines/demo');
    expect(canonicalRedirect('/', '')).toBeNull();
    expect(canonicalRedirect('/pipelines/demo', '')).toBeNull();
  });
});

describe('teams', () => {
  it('reads and writes ?team= on pipeline and program paths', () => {
    expect(parseRoute('/pipelines/orders/events', '?team=a')).toEqual({ page: 'pipeline', name: 'orders', tab: 'events', team: 'a' });
    expect(parseRoute('/programs/orders', '?team=b%20c')).toEqual({ page: 'program', name: 'orders', tab: 'program', team: 'b c' });
    expect(pipelinePath({ name: 'orders', team: 'a' }, 'metrics')).toBe('/pipelines/orders/metrics?team=a');
    expect(pipelinePath({ name: 'orders', team: null })).toBe('/pipelines/orders');
    const route: Route = { page: 'pipeline', name: 'orders', tab: 'query', team: 'x' };
    const path = routePath(route);
    const q = path.indexOf('?');
    expect(parseRoute(path.slice(0, q), path.slice(q))).toEqual(route);
  });

  it('counts a tab of the same object as the same page, and the same name in another team not', () => {
    expect(withinPage('/pipelines/p/events', '/pipelines/p')).toBe(true);
    expect(withinPage('/pipelines/p/events?team=a', '/pipelines/p?team=a')).toBe(true);
    expect(withinPage('/pipelines/p?team=b', '/pipelines/p?team=a')).toBe(false);
    expect(withinPage('/pipelines/pq', '/pipelines/p')).toBe(false);
  });
});
