/**
 * The plan as a graph: tables and streams → views → the change stream (and
 * pumps between streams). An edge says how the view uses its input (the
 * operator that reads it: join, aggregate, filter, ...) and which of the
 * input's columns carry a waterline; an edge into the output says the view's
 * output mode.
 *
 * The plan arrives as JSON (docs/contracts.md, "Plan"); only the fields read
 * here are typed, and anything unexpected is skipped rather than trusted.
 */
import type { Catalog, Relation } from '../../api/types';

export type NodeKind = 'table' | 'stream' | 'view' | 'local-view' | 'output';

export interface GraphNode {
  id: string;
  label: string;
  kind: NodeKind;
  /** A second line: the relation's kind and flags. */
  detail: string;
  /** For a tooltip: the columns with their types. */
  columns: string[];
}

export type EdgeKind = 'input' | 'output' | 'pump';

export interface GraphEdge {
  from: string;
  to: string;
  kind: EdgeKind;
  /** How the target uses the source: "inner join", "aggregate", "pump p1", "append", ... */
  label: string;
  /** The source's waterline columns on an input edge (emit_final's column on an output edge), or null. */
  waterline: string | null;
}

export interface PlanGraph {
  nodes: GraphNode[];
  edges: GraphEdge[];
}

export const OUTPUT_ID = '→changes';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The nodes under `rel` that are its inputs (any field holding a plan node, or a list of them). */
function children(rel: Json): Json[] {
  const out: Json[] = [];
  for (const [key, value] of Object.entries(rel)) {
    if (key === 'columns') continue;
    if (isObject(value) && typeof value.op === 'string') out.push(value);
    else if (Array.isArray(value)) for (const v of value) if (isObject(v) && typeof v.op === 'string') out.push(v);
  }
  return out;
}

/** The words for the operator that reads an input. */
function operatorLabel(rel: Json): string {
  const op = String(rel.op);
  const kind = typeof rel.kind === 'string' ? rel.kind : '';
  switch (op) {
    case 'join':
      return `${kind || 'inner'} join`;
    case 'semi':
      return kind === 'anti' ? 'anti join' : kind === 'not_in' ? 'not in' : 'semi join';
    case 'window':
      return 'over';
    case 'intersect':
    case 'except':
      return rel.all === true ? `${op} all` : op;
    default:
      return op;
  }
}

/**
 * Every relation `query` scans, with the operator that reads it: the nearest
 * one above the scan that is not a projection ("project" when there is none).
 */
export function scansOf(query: unknown): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  const walk = (rel: Json, reader: string | null) => {
    if (rel.op === 'scan') {
      if (typeof rel.relation !== 'string') return;
      const labels = found.get(rel.relation) ?? new Set<string>();
      labels.add(reader ?? 'project');
      found.set(rel.relation, labels);
      return;
    }
    const here = rel.op === 'project' ? reader : operatorLabel(rel);
    for (const child of children(rel)) walk(child, here);
  };
  if (isObject(query)) walk(query, null);
  return found;
}

function waterlineColumns(relation: Relation | undefined): string | null {
  const names = (relation?.columns ?? []).filter((c) => c.waterline).map((c) => c.name);
  return names.length > 0 ? names.join(', ') : null;
}

function nodeFor(relation: Relation): GraphNode {
  const flags: string[] = [];
  if (relation.kind === 'view') {
    if (relation.local) flags.push('local');
    if (relation.output_mode) flags.push(relation.output_mode);
  } else {
    if (relation.append_only && relation.kind === 'table') flags.push('append-only');
    if (relation.primary_key.length > 0) flags.push(`key ${relation.primary_key.join(', ')}`);
  }
  return {
    id: relation.name,
    label: relation.name,
    kind: relation.kind === 'view' && relation.local ? 'local-view' : relation.kind,
    detail: [relation.kind, ...flags].join(' · '),
    columns: relation.columns.map((c) => `${c.name} ${c.type}`),
  };
}

/** The graph of a plan, using the catalog for kinds, waterlines and output modes. */
export function buildPlanGraph(plan: unknown, catalog: Catalog | null): PlanGraph {
  const byName = new Map((catalog?.relations ?? []).map((r) => [r.name, r]));
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  const known = new Set<string>();
  const addNode = (relation: Relation) => {
    if (known.has(relation.name)) return;
    known.add(relation.name);
    nodes.push(nodeFor(relation));
  };

  // Inputs first, in program order, then views as the plan lists them.
  for (const r of catalog?.relations ?? []) if (r.kind !== 'view') addNode(r);
  const views = isObject(plan) && Array.isArray(plan.views) ? plan.views.filter(isObject) : [];
  let published = 0;
  for (const view of views) {
    if (typeof view.name !== 'string') continue;
    const relation = byName.get(view.name);
    if (relation) addNode(relation);
    for (const [source, readers] of scansOf(view.query)) {
      if (!known.has(source)) continue;
      edges.push({
        from: source,
        to: view.name,
        kind: 'input',
        label: [...readers].join(', '),
        waterline: waterlineColumns(byName.get(source)),
      });
    }
    if (relation && !relation.local) {
      published += 1;
      const emit = relation.emit_final !== null ? relation.columns[relation.emit_final]?.name ?? null : null;
      edges.push({
        from: view.name,
        to: OUTPUT_ID,
        kind: 'output',
        label: relation.output_mode ?? 'update',
        waterline: emit === null ? null : `emit_final ${emit}`,
      });
    }
  }
  for (const pump of catalog?.pumps ?? []) {
    for (const source of pump.sources) {
      if (!known.has(source) || !known.has(pump.target)) continue;
      edges.push({
        from: source,
        to: pump.target,
        kind: 'pump',
        label: `pump ${pump.name}${pump.started ? '' : ' (stopped)'}`,
        waterline: waterlineColumns(byName.get(source)),
      });
    }
  }
  if (published > 0) {
    nodes.push({
      id: OUTPUT_ID,
      label: 'change stream',
      kind: 'output',
      detail: 'websocket · deltas API',
      columns: [],
    });
  }
  return { nodes, edges };
}
