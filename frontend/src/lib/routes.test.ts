import { describe, expect, it } from 'vitest';
import { canonicalRedirect, parseRoute, pipelinePath, programPath, routePath, type Route } from './routes';

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
