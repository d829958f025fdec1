/**
 * The single place the front end's API types live.
 *
 * These are the shapes of docs/contracts.md, written by hand until the backend
 * publishes its OpenAPI schema. `make openapi` then generates
 * `src/api/schema.d.ts` with openapi-typescript, and this file becomes a list of
 * aliases such as
 *
 *     import type { components } from './schema';
 *     export type Program = components['schemas']['Program'];
 *
 * so nothing outside this file has to change. Import API types from here only.
 */

export type Severity = 'error' | 'warning';

/** A position span: 1-based lines and columns, end exclusive (Monaco-ready). */
export interface SourceSpan {
  start_line_number: number;
  start_column: number;
  end_line_number: number;
  end_column: number;
}

export interface DiagnosticNote extends SourceSpan {
  message: string;
}

export interface Diagnostic extends SourceSpan {
  /** Stable code: SQL1xx syntax, SQL2xx names and types, SQL3xx streaming, SQL4xx Spark. */
  code: string;
  severity: Severity;
  message: string;
  snippet?: string;
  notes?: DiagnosticNote[];
  hint?: string | null;
}

export interface Column {
  name: string;
  /** Canonical upper-case type, e.g. `BIGINT`, `DECIMAL(10,2)`, `TIMESTAMP`. */
  type: string;
  nullable: boolean;
}

export type RelationKind = 'table' | 'stream' | 'view';

export interface Relation {
  name: string;
  kind: RelationKind;
  columns: Column[];
  primary_key: string[];
  append_only: boolean;
  materialized: boolean;
}

export interface Catalog {
  relations: Relation[];
}

export interface ValidateRequest {
  sql: string;
}

export interface ValidateResponse {
  diagnostics: Diagnostic[];
  catalog: Catalog;
}

export interface Program {
  name: string;
  sql: string;
  version: number;
  status: 'ok' | 'error';
  diagnostics: Diagnostic[];
  catalog: Catalog;
  compile_ms: number;
  created_at: string;
  updated_at: string;
}

export const PIPELINE_STATES = [
  'stopped',
  'starting',
  'running',
  'pausing',
  'paused',
  'resuming',
  'stopping',
  'failed',
] as const;

export type PipelineState = (typeof PIPELINE_STATES)[number];

export type PipelineAction = 'start' | 'pause' | 'resume' | 'stop';

export interface Pipeline {
  name: string;
  program: string;
  program_version: number;
  desired_state: string;
  state: PipelineState;
  error: string | null;
  last_step: number | null;
  created_at: string;
  updated_at: string;
}

/** A JSON scalar as it appears in a row: numbers, strings (timestamps, decimals), bools, null. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export type Row = Record<string, JsonValue>;

/** `{"insert": row}`, `{"delete": row}`, or a bare row (an insert). */
export type Change = { insert: Row } | { delete: Row } | Row;

export interface IngressResponse {
  accepted: number;
  seq: number;
}

/** The error envelope every 4xx answer carries. */
export interface ErrorEnvelope {
  message: string;
  code: string;
  details: unknown;
}

// Websocket `/ws/pipelines/{name}/`, server → client.

export interface DeltaMessage {
  type: 'delta';
  step: number;
  view: string;
  changes: Change[];
}

export interface StateMessage {
  type: 'state';
  state: PipelineState;
  error: string | null;
}

export type ServerMessage = DeltaMessage | StateMessage;
