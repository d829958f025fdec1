/** One function per control plane call the page makes (docs/contracts.md). */
import { createApiClient, type ApiClient } from './client';
import type {
  ApiKey,
  ApiKeyCreated,
  ApiKeyScope,
  Change,
  DeployRequest,
  IngressResponse,
  LateRows,
  Pipeline,
  PipelineAction,
  PipelineConfig,
  PipelineEvent,
  PipelineStats,
  MetricsSample,
  Program,
  PumpAction,
  PumpStatus,
  ProgramVersion,
  Session,
  ValidateResponse,
} from './types';

const BASE = '/api/v1';

const seg = (s: string): string => encodeURIComponent(s);

export function createEndpoints(client: ApiClient) {
  return {
    session: () => client.request<Session>('GET', `${BASE}/auth/session`),
    login: (username: string, password: string) =>
      client.request<Session>('POST', `${BASE}/auth/login`, { body: { username, password } }),
    logout: () => client.request<Session>('POST', `${BASE}/auth/logout`),
    validate: (sql: string, signal?: AbortSignal) =>
      client.request<ValidateResponse>('POST', `${BASE}/validate`, { body: { sql }, signal }),
    listPrograms: () => client.request<Program[]>('GET', `${BASE}/programs`),
    getProgram: (name: string) => client.request<Program>('GET', `${BASE}/programs/${seg(name)}`),
    createProgram: (name: string, sql: string) =>
      client.request<Program>('POST', `${BASE}/programs`, { body: { name, sql } }),
    programVersions: (name: string) =>
      client.request<ProgramVersion[]>('GET', `${BASE}/programs/${seg(name)}/versions`),
    saveProgram: (name: string, sql: string) =>
      client.request<Program>('PUT', `${BASE}/programs/${seg(name)}`, { body: { sql } }),
    listPipelines: (signal?: AbortSignal) => client.request<Pipeline[]>('GET', `${BASE}/pipelines`, { signal }),
    getPipeline: (name: string) => client.request<Pipeline>('GET', `${BASE}/pipelines/${seg(name)}`),
    createPipeline: (name: string, program: string) =>
      client.request<Pipeline>('POST', `${BASE}/pipelines`, { body: { name, program } }),
    /** `resetState` starts the run over (docs/api.md "Deploying a new version"). */
    deployPipeline: (name: string, resetState = false) =>
      client.request<Pipeline>('POST', `${BASE}/pipelines/${seg(name)}/deploy`, {
        body: { reset_state: resetState } satisfies DeployRequest,
      }),
    pipelineAction: (name: string, action: PipelineAction) =>
      client.request<Pipeline>('POST', `${BASE}/pipelines/${seg(name)}/${action}`),
    ingest: (pipeline: string, table: string, changes: Change[]) =>
      client.request<IngressResponse>('POST', `${BASE}/pipelines/${seg(pipeline)}/ingress/${seg(table)}`, {
        body: changes,
      }),
    ingestCsv: (pipeline: string, table: string, csv: string) =>
      client.request<IngressResponse>(
        'POST',
        `${BASE}/pipelines/${seg(pipeline)}/ingress/${seg(table)}?format=csv`,
        { text: { body: csv, contentType: 'text/csv' } },
      ),
    lateRows: (pipeline: string, signal?: AbortSignal) =>
      client.request<LateRows>('GET', `${BASE}/pipelines/${seg(pipeline)}/late_rows`, { signal }),
    events: (pipeline: string, signal?: AbortSignal) =>
      client.request<PipelineEvent[]>('GET', `${BASE}/pipelines/${seg(pipeline)}/events`, { signal }),
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
      client.request<IngressResponse>('POST', `${BASE}/pipelines/${seg(pipeline)}/ingress/${seg(table)}/bound`, {
        body: { bound, strict },
      }),
    patchConfig: (pipeline: string, config: Partial<PipelineConfig>) =>
      client.request<Pipeline>('PATCH', `${BASE}/pipelines/${seg(pipeline)}`, { body: { config } }),
    listApiKeys: () => client.request<ApiKey[]>('GET', `${BASE}/api_keys`),
    createApiKey: (name: string, scope: ApiKeyScope) =>
      client.request<ApiKeyCreated>('POST', `${BASE}/api_keys`, { body: { name, scope } }),
    revokeApiKey: (prefix: string) => client.request<ApiKey>('DELETE', `${BASE}/api_keys/${seg(prefix)}`),
  };
}

export type Endpoints = ReturnType<typeof createEndpoints>;

export const api: Endpoints = createEndpoints(createApiClient());
