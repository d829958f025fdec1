import { useEffect, useState } from 'react';
import { api } from '../../api/endpoints';
import type { MetricsSample } from '../../api/types';
import { refKey, type Ref } from '../../lib/refs';

const INTERVAL_MS = 5_000;
const SPARK_SAMPLES = 60;

/** Per pipeline (by `refKey`), its recent metrics samples (for the dashboard's sparklines), refreshed. */
export function useRowSamples(refs: readonly Ref[]): ReadonlyMap<string, readonly MetricsSample[]> {
  const [samples, setSamples] = useState<ReadonlyMap<string, readonly MetricsSample[]>>(new Map());
  const key = JSON.stringify(refs.map((r) => [r.name, r.team]));

  useEffect(() => {
    const list = (JSON.parse(key) as [string, string | null][]).map(([name, team]) => ({ name, team }));
    if (list.length === 0) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const one = async (ref: Ref): Promise<[string, MetricsSample[]] | null> => {
      try {
        return [refKey(ref), await api.metrics(ref, SPARK_SAMPLES, controller.signal)];
      } catch {
        return null; // a pipeline deleted meanwhile, or a blip: no sparkline until the next round
      }
    };
    const round = () => {
      Promise.all(list.map(one)).then(
        (entries) => {
          if (controller.signal.aborted) return;
          setSamples(new Map(entries.filter((e) => e !== null)));
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
  }, [key]);

  return samples;
}
