/**
 * Endpoints agreed in the API additions (stats, metrics, ad-hoc query, egress,
 * pumps, PATCH config, rowtime bounds) that the backend does not serve yet.
 *
 * The types are hand-written from that contract. Once the backend lands they
 * move to the generated `schema.d.ts` (`make openapi`) and become aliases in
 * `types.ts`, like every other API type. Until then every page that uses them
 * treats a 404 as "not available" (`loadOptional`), never as a crash.
 */
import { createApiClient, isNotFound, type ApiClient } from './client';
import type { Change, Pipeline, Row } from './types';

export interface OutputConnector {
  view: string;
  type: 'file' | 'postgres';
  path?: string;
  format?: string;
  url?: string;
  table?: string;
}

export interface PipelineConfig {
  spark_master: string;
  cores: number;
  memory: string;
  trigger_interval_ms: number;
  storage_dir: string | null;
  connectors: OutputConnector[];
}

/** Cheap figures for a dashboard row, from the latest metrics sample. */
export interface PipelineSummary {
  input_rows_per_second: number;
  processed_rows_per_second: number;
  lag_rows: number;
  late_rows: number;
  errors: number;
  last_step_duration_ms: number | null;
}

/** A pipeline as the extended API answers it: `config` and `summary` may be absent on an older server. */
export type PipelineWithExtras = Pipeline & { config?: PipelineConfig; summary?: PipelineSummary };

export interface ViewStats {
  name: string;
  rows: number;
  inserts_total: number;
  deletes_total: number;
}

export interface PipelineStats {
  pipeline: string;
  state: Pipeline['state'];
  last_step: number;
  input_rows_total: number;
  ingested_seq: number;
  processed_seq: number;
  lag_rows: number;
  lag_ms: number;
  input_rows_per_second: number;
  processed_rows_per_second: number;
  step_duration_ms: { last: number | null; p50: number | null; p95: number | null };
  state_rows: number;
  late_rows: Record<string, number>;
  late_rows_total: number;
  /** "relation.column" → the waterline's value (a timestamp or a number). */
  waterlines: Record<string, string | number | null>;
  views: ViewStats[];
  errors: number;
}

/** One metrics sample; GET /metrics answers them oldest first. */
export interface MetricsSample {
  time: string;
  step: number;
  input_rows: number;
  input_rows_per_second: number;
  processed_rows_per_second: number;
  step_duration_ms: number;
  state_rows: number;
  late_rows: number;
  lag_rows: number;
  lag_ms: number;
  waterlines: Record<string, string | number | null>;
}

export interface QueryColumn {
  name: string;
  type: string;
}

/** A plain SELECT: the snapshot after `step`. */
export interface QuerySnapshot {
  step: number;
  columns: QueryColumn[];
  rows: Row[];
}

/** The lines of a streamed answer (SELECT STREAM, egress). */
export type StreamLine =
  | { columns: QueryColumn[] }
  | { snapshot: true; step: number; rows: Row[] }
  | { step: number; changes: Change[] };

export type PumpState = 'running' | 'paused' | 'stopped';
export type PumpAction = 'start' | 'pause' | 'resume' | 'stop';

export interface PumpStatus {
  name: string;
  target: string;
  sources: string[];
  state: PumpState;
  processed_rows: number;
}

export interface BoundResponse {
  accepted: number;
  seq: number;
}

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

const BASE = '/api/v1';
const seg = (s: string): string => encodeURIComponent(s);

export function createPendingEndpoints(client: ApiClient) {
  return {
    stats: (pipeline: string, signal?: AbortSignal) =>
      client.request<PipelineStats>('GET', `${BASE}/pipelines/${seg(pipeline)}/stats`, { signal }),
    metrics: (pipeline: string, limit: number, signal?: AbortSignal) =>
      client.request<MetricsSample[]>('GET', `${BASE}/pipelines/${seg(pipeline)}/metrics?limit=${limit}`, {
        signal,
      }),
    /** The raw answer: JSON for a snapshot SELECT, NDJSON for SELECT STREAM. */
    query: (pipeline: string, sql: string, signal?: AbortSignal) =>
      client.open('POST', `${BASE}/pipelines/${seg(pipeline)}/query`, { body: { sql }, signal }),
    pumps: (pipeline: string, signal?: AbortSignal) =>
      client.request<PumpStatus[]>('GET', `${BASE}/pipelines/${seg(pipeline)}/pumps`, { signal }),
    pumpAction: (pipeline: string, pump: string, action: PumpAction) =>
      client.request<PumpStatus>('POST', `${BASE}/pipelines/${seg(pipeline)}/pumps/${seg(pump)}/${action}`),
    bound: (pipeline: string, table: string, bound: string, strict: boolean) =>
      client.request<BoundResponse>('POST', `${BASE}/pipelines/${seg(pipeline)}/ingress/${seg(table)}/bound`, {
        body: { bound, strict },
      }),
    patchConfig: (pipeline: string, config: Partial<PipelineConfig>) =>
      client.request<PipelineWithExtras>('PATCH', `${BASE}/pipelines/${seg(pipeline)}`, { body: { config } }),
  };
}

export const pendingApi = createPendingEndpoints(createApiClient());
