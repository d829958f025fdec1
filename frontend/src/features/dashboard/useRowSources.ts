import { useEffect, useState } from 'react';
import { api } from '../../api/endpoints';
import { isNotFound } from '../../api/client';
import { pendingApi, type MetricsSample } from '../../api/pending';
import type { RowSources } from './rows';

const INTERVAL_MS = 5_000;
const SPARK_SAMPLES = 60;

/**
 * Per pipeline, what the dashboard row needs beyond GET /pipelines: recent
 * metrics (for the sparkline) and late row counts. A server without the
 * metrics endpoint is asked once; after its 404 the sparklines say "not available".
 */
export function useRowSources(names: readonly string[]): { sources: ReadonlyMap<string, RowSources>; metricsAvailable: boolean } {
  const [sources, setSources] = useState<ReadonlyMap<string, RowSources>>(new Map());
  const [metricsAvailable, setMetricsAvailable] = useState(true);
  const key = names.join('\u0000');

  useEffect(() => {
    const list = key === '' ? [] : key.split('\u0000');
    if (list.length === 0) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let withMetrics = metricsAvailable;
    const one = async (name: string): Promise<[string, RowSources]> => {
      let samples: MetricsSample[] | null = null;
      if (withMetrics) {
        try {
          samples = await pendingApi.metrics(name, SPARK_SAMPLES, controller.signal);
        } catch (err) {
          if (isNotFound(err)) withMetrics = false;
        }
      }
      let lateCounts: Record<string, number> | null = null;
      try {
        lateCounts = (await api.lateRows(name, controller.signal)).counts;
      } catch {
        // A pipeline deleted meanwhile, or a blip: the row shows "—" until the next round.
      }
      return [name, { samples, lateCounts }];
    };
    const round = () => {
      Promise.all(list.map(one)).then(
        (entries) => {
          if (controller.signal.aborted) return;
          setSources(new Map(entries));
          if (!withMetrics) setMetricsAvailable(false);
          timer = setTimeout(round, INTERVAL_MS);
        },
        () => undefined,
      );
    };
    round();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [key, metricsAvailable]);

  return { sources, metricsAvailable };
}
