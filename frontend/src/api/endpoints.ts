/** One function per control plane call the page makes (docs/contracts.md). */
import { createApiClient, type ApiClient } from './client';
import type {
  Change,
  IngressResponse,
  Pipeline,
  PipelineAction,
  Program,
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
    getProgram: (name: string) => client.request<Program>('GET', `${BASE}/programs/${seg(name)}`),
    saveProgram: (name: string, sql: string) =>
      client.request<Program>('PUT', `${BASE}/programs/${seg(name)}`, { body: { sql } }),
    getPipeline: (name: string) => client.request<Pipeline>('GET', `${BASE}/pipelines/${seg(name)}`),
    pipelineAction: (name: string, action: PipelineAction) =>
      client.request<Pipeline>('POST', `${BASE}/pipelines/${seg(name)}/${action}`),
    ingest: (pipeline: string, table: string, changes: Change[]) =>
      client.request<IngressResponse>('POST', `${BASE}/pipelines/${seg(pipeline)}/ingress/${seg(table)}`, {
        body: changes,
      }),
  };
}

export type Endpoints = ReturnType<typeof createEndpoints>;

export const api: Endpoints = createEndpoints(createApiClient());
