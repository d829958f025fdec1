/** One function per control plane call the page makes (docs/contracts.md). */
import { createApiClient, type ApiClient } from './client';
import type {
  ApiKey,
  ApiKeyCreated,
  ApiKeyScope,
  Change,
  IngressResponse,
  LateRows,
  Pipeline,
  PipelineAction,
  PipelineEvent,
  Program,
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
    deployPipeline: (name: string) => client.request<Pipeline>('POST', `${BASE}/pipelines/${seg(name)}/deploy`),
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
    listApiKeys: () => client.request<ApiKey[]>('GET', `${BASE}/api_keys`),
    createApiKey: (name: string, scope: ApiKeyScope) =>
      client.request<ApiKeyCreated>('POST', `${BASE}/api_keys`, { body: { name, scope } }),
    revokeApiKey: (prefix: string) => client.request<ApiKey>('DELETE', `${BASE}/api_keys/${seg(prefix)}`),
  };
}

export type Endpoints = ReturnType<typeof createEndpoints>;

export const api: Endpoints = createEndpoints(createApiClient());
