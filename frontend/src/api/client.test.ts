import { describe, expect, it, vi } from 'vitest';
import { ApiError, createApiClient, isNotFound, readCookie } from './client';

function fakeFetch(status: number, body: string, statusText = '') {
  return vi.fn<typeof fetch>(() => Promise.resolve(new Response(body === '' ? null : body, { status, statusText })));
}

describe('readCookie', () => {
  it('finds a cookie among others and decodes it', () => {
    expect(readCookie('a=1; csrftoken=abc%3D; b=2', 'csrftoken')).toBe('abc=');
  });

  it('does not match a cookie whose name only ends with the one asked for', () => {
    expect(readCookie('xcsrftoken=bad', 'csrftoken')).toBeNull();
  });

  it('is null when absent', () => {
    expect(readCookie('', 'csrftoken')).toBeNull();
  });
});

describe('createApiClient', () => {
  it('returns the parsed JSON of a successful answer', async () => {
    const fetch = fakeFetch(200, '{"status":"ok"}');
    const client = createApiClient({ fetch, cookies: () => '' });
    await expect(client.request('GET', '/api/v1/health')).resolves.toEqual({ status: 'ok' });
  });

  it('sends the CSRF cookie as X-CSRFToken on unsafe methods, with same-origin credentials', async () => {
    const fetch = fakeFetch(200, '{}');
    const client = createApiClient({ fetch, cookies: () => 'csrftoken=tok123' });
    await client.request('POST', '/api/v1/validate', { body: { sql: 'x' } });
    const [url, init] = fetch.mock.calls[0] ?? [];
    expect(url).toBe('/api/v1/validate');
    expect(init?.method).toBe('POST');
    expect(init?.credentials).toBe('same-origin');
    expect(init?.body).toBe('{"sql":"x"}');
    const headers = init?.headers as Record<string, string>;
    expect(headers['X-CSRFToken']).toBe('tok123');
    expect(headers['Content-Type']).toBe('application/json');
  });

  it('does not send the CSRF header on GET', async () => {
    const fetch = fakeFetch(200, '{}');
    const client = createApiClient({ fetch, cookies: () => 'csrftoken=tok123' });
    await client.request('GET', '/api/v1/pipelines/demo');
    const headers = fetch.mock.calls[0]?.[1]?.headers as Record<string, string>;
    expect(headers['X-CSRFToken']).toBeUndefined();
  });

  it('turns the error envelope into an ApiError', async () => {
    const fetch = fakeFetch(409, '{"message":"Pipeline is running","code":"invalid_state","details":{"state":"running"}}');
    const client = createApiClient({ fetch, cookies: () => '' });
    const err = await client.request('POST', '/api/v1/pipelines/demo/start').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ message: 'Pipeline is running', code: 'invalid_state', status: 409, details: { state: 'running' } });
  });

  it('gives a non-envelope failure a code of its own', async () => {
    const fetch = fakeFetch(502, '<html>Bad gateway</html>', 'Bad Gateway');
    const client = createApiClient({ fetch, cookies: () => '' });
    await expect(client.request('GET', '/api/v1/programs/x')).rejects.toMatchObject({ status: 502, code: 'http_502' });
  });

  it('reports an unreachable server as a network error', async () => {
    const rejecting = vi.fn<typeof fetch>(() => Promise.reject(new TypeError('Failed to fetch')));
    const client = createApiClient({ fetch: rejecting, cookies: () => '' });
    await expect(client.request('GET', '/api/v1/health')).rejects.toMatchObject({ status: 0, code: 'network_error' });
  });

  it('lets an abort through as an AbortError, not an ApiError', async () => {
    const aborting = vi.fn<typeof fetch>(() => Promise.reject(new DOMException('aborted', 'AbortError')));
    const client = createApiClient({ fetch: aborting, cookies: () => '' });
    const err = await client.request('GET', '/x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DOMException);
    expect(err).not.toBeInstanceOf(ApiError);
  });

  it('sends a text body with its own content type (CSV ingress)', async () => {
    const fetch = fakeFetch(200, '{"accepted":1,"seq":1}');
    const client = createApiClient({ fetch, cookies: () => 'csrftoken=t' });
    await client.request('POST', '/x?format=csv', { text: { body: 'id\n1\n', contentType: 'text/csv' } });
    const init = fetch.mock.calls[0]?.[1];
    expect(init?.body).toBe('id\n1\n');
    expect((init?.headers as Record<string, string>)['Content-Type']).toBe('text/csv');
  });

  it('open hands back a successful answer unread, and throws the envelope otherwise', async () => {
    const ok = createApiClient({ fetch: fakeFetch(200, '{"a":1}\n{"b":2}\n'), cookies: () => '' });
    const response = await ok.open('POST', '/q', { body: { sql: 'SELECT STREAM 1' } });
    await expect(response.text()).resolves.toBe('{"a":1}\n{"b":2}\n');
    const bad = createApiClient({ fetch: fakeFetch(409, '{"message":"not running","code":"pipeline_not_running","details":null}'), cookies: () => '' });
    await expect(bad.open('POST', '/q')).rejects.toMatchObject({ status: 409, code: 'pipeline_not_running' });
  });
});

describe('isNotFound', () => {
  it('is true for a 404 answer only', () => {
    expect(isNotFound(new ApiError('x', { status: 404, code: 'http_404' }))).toBe(true);
    expect(isNotFound(new ApiError('x', { status: 409, code: 'conflict' }))).toBe(false);
    expect(isNotFound(new Error('x'))).toBe(false);
  });
});
