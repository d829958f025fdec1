/**
 * Calls whose failure a page shows in place rather than as a crash: a 404 (an
 * endpoint an older server lacks, a pipeline gone) is "not available".
 */
import { isNotFound } from './client';

/** What a call to an optional endpoint came to. */
export type Optional<T> = { status: 'ok'; value: T } | { status: 'unavailable' } | { status: 'error'; message: string };

/** Runs `load`, turning a 404 into `unavailable` and any other failure into its message. */
export async function loadOptional<T>(load: () => Promise<T>): Promise<Optional<T>> {
  try {
    return { status: 'ok', value: await load() };
  } catch (err) {
    if (isNotFound(err)) return { status: 'unavailable' };
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    return { status: 'error', message: err instanceof Error ? err.message : String(err) };
  }
}
