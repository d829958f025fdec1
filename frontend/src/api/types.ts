/**
 * The single place the front end's API types live.
 *
 * HTTP shapes come from the backend's OpenAPI schema: `make openapi` writes
 * `openapi.json` and generates `schema.d.ts` from it with openapi-typescript;
 * a backend test fails when the committed schema is stale. Row values and the
 * websocket messages are not described by OpenAPI and are declared here, as
 * docs/contracts.md gives them. Import API types from this file only.
 */

import type { components } from './schema';

type Schemas = components['schemas'];

export type Severity = Schemas['SeverityEnum'];
export type Diagnostic = Schemas['Diagnostic'];
export type DiagnosticNote = Schemas['DiagnosticNote'];
/** A position span: 1-based lines and columns, end exclusive (Monaco-ready). */
export type SourceSpan = Pick<
  Diagnostic,
  'start_line_number' | 'start_column' | 'end_line_number' | 'end_column'
>;
export type Column = Schemas['Column'];
export type RelationKind = Schemas['KindEnum'];
export type Relation = Schemas['Relation'];
export type Catalog = Schemas['Catalog'];
export type CatalogPump = Schemas['Pump'];
export type ValidateResponse = Schemas['ValidateOutput'];
export type Program = Schemas['Program'];
export type ProgramVersion = Schemas['ProgramVersion'];
export type Pipeline = Schemas['Pipeline'];
export type PipelineEvent = Schemas['PipelineEvent'];
export type DeployRequest = Schemas['DeployRequest'];
export type LateRows = Schemas['LateRows'];
export type DroppedRow = Schemas['DroppedRow'];
export type ApiKey = Schemas['ApiKey'];
export type ApiKeyCreated = Schemas['ApiKeyCreated'];
export type ApiKeyScope = Schemas['ScopeEnum'];
export type PipelineState = Schemas['PipelineStateEnum'];
export type OutputConnector = Schemas['Connector'];
export type PipelineConfig = Schemas['PipelineConfig'];
/** Cheap figures for a dashboard row, from the latest metrics sample. */
export type PipelineSummary = Schemas['PipelineSummary'];
export type PipelineStats = Schemas['PipelineStats'];
export type ViewStats = Schemas['ViewStats'];
/** One metrics sample; GET /metrics answers them oldest first. */
export type MetricsSample = Schemas['MetricSample'];
export type QueryColumn = Schemas['QueryColumn'];
/** A plain SELECT: the snapshot after `step` (rows typed here, as OpenAPI does not). */
export type QuerySnapshot = Omit<Schemas['QueryResult'], 'rows'> & { rows: Row[] };
export type PumpStatus = Schemas['PipelinePump'];
export type PumpState = Schemas['RunStateEnum'];
export type PumpAction = 'start' | 'pause' | 'resume' | 'stop';
export type IngressResponse = Schemas['IngressResult'];
export type Session = Schemas['Session'];
export type User = NonNullable<Session['user']>;
/** The error envelope every 4xx answer carries. */
export type ErrorEnvelope = Schemas['Error'];

/** Every pipeline state, in lifecycle order (checked against the schema's enum). */
export const PIPELINE_STATES = [
  'stopped',
  'starting',
  'running',
  'pausing',
  'paused',
  'resuming',
  'stopping',
  'failed',
] as const satisfies readonly PipelineState[];

export type PipelineAction = 'start' | 'pause' | 'resume' | 'stop';

/** A JSON scalar as it appears in a row: numbers, strings (timestamps, decimals), bools, null. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export type Row = Record<string, JsonValue>;

/** `{"insert": row}`, `{"delete": row}`, or a bare row (an insert). */
export type Change = { insert: Row } | { delete: Row } | Row;

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

/** A recorded pipeline event (as `GET /pipelines/{name}/events` lists them), pushed live. */
export interface EventMessage {
  type: 'event';
  id: number;
  from_state: PipelineState;
  to_state: PipelineState;
  actor: string;
  message: string;
  created_at: string;
}

export type ServerMessage = DeltaMessage | StateMessage | EventMessage;

/** The lines of a streamed answer (SELECT STREAM, egress): NDJSON, not in OpenAPI. */
export type StreamLine =
  | { columns: QueryColumn[] }
  | { snapshot: true; step: number; rows: Row[] }
  | { step: number; changes: Change[] };
