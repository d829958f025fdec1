/**
 * A typed fetch wrapper for the control plane API.
 *
 * Every failure becomes an `ApiError`: 4xx answers carry the API's error
 * envelope `{"message", "code", "details"}`; anything else (a proxy's HTML page,
 * a dropped connection) is given a code of its own so callers handle one type.
 */
import type { ErrorEnvelope } from './types';

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: unknown;

  constructor(message: string, options: { status: number; code: string; details?: unknown }) {
    super(message);
    this.name = 'ApiError';
    this.status = options.status;
    this.code = options.code;
    this.details = options.details ?? null;
  }
}

export function isErrorEnvelope(value: unknown): value is ErrorEnvelope {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.message === 'string' && typeof v.code === 'string';
}

/** The value of cookie `name` in a `document.cookie` string, or null. */
export function readCookie(cookies: string, name: string): string | null {
  for (const part of cookies.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      const raw = part.slice(eq + 1).trim();
      try {
        return decodeURIComponent(raw);
      } catch {
        return raw;
      }
    }
  }
  return null;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as it is, with its own content type (e.g. CSV). */
  text?: { body: string; contentType: string };
  signal?: AbortSignal;
}

export interface ClientDeps {
  fetch: typeof fetch;
  /** Returns the current cookie string (document.cookie in the browser). */
  cookies: () => string;
}

export interface ApiClient {
  /** The answer's JSON. */
  request<T>(method: Method, path: string, options?: RequestOptions): Promise<T>;
  /** The successful answer itself, unread (for streamed bodies); failures throw as for `request`. */
  open(method: Method, path: string, options?: RequestOptions): Promise<Response>;
}

function browserDeps(): ClientDeps {
  return {
    fetch: (input, init) => globalThis.fetch(input, init),
    cookies: () => (typeof document === 'undefined' ? '' : document.cookie),
  };
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

async function failure(method: Method, path: string, response: Response): Promise<ApiError> {
  const payload = await readJson(response);
  if (isErrorEnvelope(payload)) {
    return new ApiError(payload.message, { status: response.status, code: payload.code, details: payload.details });
  }
  const text = response.statusText || 'request failed';
  return new ApiError(`${method} ${path}: ${response.status} ${text}`, {
    status: response.status,
    code: `http_${response.status}`,
  });
}

export function createApiClient(deps: ClientDeps = browserDeps()): ApiClient {
  async function open(method: Method, path: string, options: RequestOptions = {}): Promise<Response> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    let body: string | null = null;
    if (options.text !== undefined) {
      headers['Content-Type'] = options.text.contentType;
      body = options.text.body;
    } else if (options.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    if (!SAFE_METHODS.has(method)) {
      // Django's CsrfViewMiddleware checks this header against the cookie.
      const token = readCookie(deps.cookies(), 'csrftoken');
      if (token !== null) headers['X-CSRFToken'] = token;
    }

    let response: Response;
    try {
      response = await deps.fetch(path, {
        method,
        headers,
        credentials: 'same-origin',
        body,
        signal: options.signal ?? null,
      });
    } catch (err) {
      if (err instanceof DOMException && err.name === 'AbortError') throw err;
      const reason = err instanceof Error ? err.message : String(err);
      throw new ApiError(`Cannot reach the server (${reason})`, { status: 0, code: 'network_error' });
    }
    if (!response.ok) throw await failure(method, path, response);
    return response;
  }

  return {
    open,
    async request<T>(method: Method, path: string, options: RequestOptions = {}): Promise<T> {
      const response = await open(method, path, options);
      const payload = await readJson(response);
      if (payload === undefined) {
        throw new ApiError(`${method} ${path}: the answer is not JSON`, {
          status: response.status,
          code: 'bad_response',
        });
      }
      return payload as T;
    },
  };
}

/** The message to show for any error an API call can throw. */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}

export function isAbortError(err: unknown): boolean {
  return err instanceof DOMException && err.name === 'AbortError';
}

/**
 * True when the server has no such route or object: the answer to an endpoint
 * a server does not serve yet (docs: /work/api-additions.md), which pages show
 * as "not available" rather than as a failure.
 */
export function isNotFound(err: unknown): boolean {
  return err instanceof ApiError && err.status === 404;
}
