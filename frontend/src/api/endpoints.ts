/** One function per control plane call the page makes (docs/contracts.md). */
import { withTeam, type Ref } from '../lib/refs';
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

/** A pipeline's route: `rest` after its name, then `?team=` when the ref names the team. */
const pipe = (ref: Ref, rest = ''): string => withTeam(`${BASE}/pipelines/${seg(ref.name)}${rest}`, ref.team);
const prog = (ref: Ref, rest = ''): string => withTeam(`${BASE}/programs/${seg(ref.name)}${rest}`, ref.team);

export function createEndpoints(client: ApiClient) {
  return {
    session: () => client.request<Session>('GET', `${BASE}/auth/session`),
    login: (username: string, password: string) =>
      client.request<Session>('POST', `${BASE}/auth/login`, { body: { username, password } }),
    logout: () => client.request<Session>('POST', `${BASE}/auth/logout`),
    validate: (sql: string, signal?: AbortSignal) =>
      client.request<ValidateResponse>('POST', `${BASE}/validate`, { body: { sql }, signal }),
    listPrograms: () => client.request<Program[]>('GET', `${BASE}/programs`),
    getProgram: (program: Ref) => client.request<Program>('GET', prog(program)),
    /** `team`: needed when the user is in several teams. */
    createProgram: (name: string, sql: string, team: string | null = null) =>
      client.request<Program>('POST', `${BASE}/programs`, { body: { name, sql, ...(team === null ? {} : { team }) } }),
    programVersions: (program: Ref) => client.request<ProgramVersion[]>('GET', prog(program, '/versions')),
    saveProgram: (program: Ref, sql: string) => client.request<Program>('PUT', prog(program), { body: { sql } }),
    listPipelines: (signal?: AbortSignal) => client.request<Pipeline[]>('GET', `${BASE}/pipelines`, { signal }),
    getPipeline: (pipeline: Ref) => client.request<Pipeline>('GET', pipe(pipeline)),
    /** In the program's team (`program.team` says which program when several teams have the name). */
    createPipeline: (name: string, program: Ref) =>
      client.request<Pipeline>('POST', `${BASE}/pipelines`, {
        body: { name, program: program.name, ...(program.team === null ? {} : { team: program.team }) },
      }),
    /** `resetState` starts the run over (docs/api.md "Deploying a new version"). */
    deployPipeline: (pipeline: Ref, resetState = false) =>
      client.request<Pipeline>('POST', pipe(pipeline, '/deploy'), {
        body: { reset_state: resetState } satisfies DeployRequest,
      }),
    pipelineAction: (pipeline: Ref, action: PipelineAction) => client.request<Pipeline>('POST', pipe(pipeline, `/${action}`)),
    ingest: (pipeline: Ref, table: string, changes: Change[]) =>
      client.request<IngressResponse>('POST', pipe(pipeline, `/ingress/${seg(table)}`), { body: changes }),
    ingestCsv: (pipeline: Ref, table: string, csv: string) =>
      client.request<IngressResponse>('POST', pipe(pipeline, `/ingress/${seg(table)}?format=csv`), {
        text: { body: csv, contentType: 'text/csv' },
      }),
    lateRows: (pipeline: Ref, signal?: AbortSignal) => client.request<LateRows>('GET', pipe(pipeline, '/late_rows'), { signal }),
    events: (pipeline: Ref, signal?: AbortSignal) =>
      client.request<PipelineEvent[]>('GET', pipe(pipeline, '/events'), { signal }),
    stats: (pipeline: Ref, signal?: AbortSignal) => client.request<PipelineStats>('GET', pipe(pipeline, '/stats'), { signal }),
    metrics: (pipeline: Ref, limit: number, signal?: AbortSignal) =>
      client.request<MetricsSample[]>('GET', pipe(pipeline, `/metrics?limit=${limit}`), { signal }),
    /** The raw answer: JSON for a snapshot SELECT, NDJSON for SELECT STREAM. */
    query: (pipeline: Ref, sql: string, signal?: AbortSignal) =>
      client.open('POST', pipe(pipeline, '/query'), { body: { sql }, signal }),
    pumps: (pipeline: Ref, signal?: AbortSignal) => client.request<PumpStatus[]>('GET', pipe(pipeline, '/pumps'), { signal }),
    pumpAction: (pipeline: Ref, pump: string, action: PumpAction) =>
      client.request<PumpStatus>('POST', pipe(pipeline, `/pumps/${seg(pump)}/${action}`)),
    bound: (pipeline: Ref, table: string, bound: string, strict: boolean) =>
      client.request<IngressResponse>('POST', pipe(pipeline, `/ingress/${seg(table)}/bound`), {
        body: { bound, strict },
      }),
    patchConfig: (pipeline: Ref, config: Partial<PipelineConfig>) =>
      client.request<Pipeline>('PATCH', pipe(pipeline), { body: { config } }),
    listApiKeys: () => client.request<ApiKey[]>('GET', `${BASE}/api_keys`),
    createApiKey: (name: string, scope: ApiKeyScope) =>
      client.request<ApiKeyCreated>('POST', `${BASE}/api_keys`, { body: { name, scope } }),
    revokeApiKey: (prefix: string) => client.request<ApiKey>('DELETE', `${BASE}/api_keys/${seg(prefix)}`),
  };
}

export type Endpoints = ReturnType<typeof createEndpoints>;

export const api: Endpoints = createEndpoints(createApiClient());
