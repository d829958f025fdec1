import { useMemo } from 'react';
import type { Catalog } from '../../api/types';
import { layoutGraph } from './graphLayout';
import { buildPlanGraph, type GraphNode } from './planGraph';

interface Props {
  plan: unknown;
  catalog: Catalog | null;
  /** The plan is from an earlier text (the current one has errors). */
  stale: boolean;
}

const ICON: Record<GraphNode['kind'], string> = {
  table: '▦',
  stream: '≋',
  view: '◇',
  'local-view': '◇',
  output: '⇥',
};

/** Truncates to fit a node: SVG text does not wrap or ellipsize by itself. */
const fit = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The plan as a left-to-right graph in plain SVG: inputs, views, the change stream. */
export function PlanGraphView({ plan, catalog, stale }: Props) {
  const graph = useMemo(() => buildPlanGraph(plan, catalog), [plan, catalog]);
  const layout = useMemo(() => layoutGraph(graph), [graph]);
  if (graph.nodes.length === 0) {
    return <p className="placeholder muted">Nothing to draw yet: declare a table and a view.</p>;
  }
  const edgeByKey = new Map(graph.edges.map((e) => [`${e.from}\u0000${e.to}`, e]));
  return (
    <div className="plan" data-testid="plan">
      <p className="muted small legend-line">
        {plan === null
          ? 'The views appear once the program has no errors.'
          : stale
            ? 'Showing the plan of the last text without errors.'
            : 'Tables and streams → views → the change stream. Edges: how a view reads its input, and the waterline columns that flow along it.'}
      </p>
      <div className="plan-scroll">
        <svg
          // Shrinks to fit a narrow column (down to 70%, below which text gets too small: then it scrolls).
          style={{ width: '100%', maxWidth: layout.width, minWidth: layout.width * 0.7, height: 'auto' }}
          viewBox={`0 0 ${layout.width} ${layout.height}`}
          role="img"
          aria-label="Plan graph"
          data-testid="plan-graph"
        >
          <defs>
            <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
              <path d="M0,0 L10,5 L0,10 z" className="arrow-head" />
            </marker>
          </defs>
          {layout.routes.map((r) => {
            const edge = edgeByKey.get(`${r.from}\u0000${r.to}`);
            if (!edge) return null;
            return (
              <g
                key={`${r.from}->${r.to}`}
                className={`edge edge-${edge.kind}`}
                data-testid="plan-edge"
                data-from={edge.from}
                data-to={edge.to}
              >
                <path d={r.path} markerEnd="url(#arrow)" />
                <text x={r.labelX} y={r.labelY - 5} textAnchor="middle" className="edge-label">
                  {fit(edge.label, 22)}
                </text>
                {edge.waterline !== null && (
                  <text x={r.labelX} y={r.labelY + 11} textAnchor="middle" className="edge-waterline">
                    {fit(edge.kind === 'output' ? edge.waterline : `waterline ${edge.waterline}`, 24)}
                  </text>
                )}
                <title>
                  {edge.from} → {edge.to}: {edge.label}
                  {edge.waterline !== null ? ` · waterline ${edge.waterline}` : ''}
                </title>
              </g>
            );
          })}
          {graph.nodes.map((n) => {
            const box = layout.boxes.get(n.id);
            if (!box) return null;
            return (
              <g
                key={n.id}
                className={`node node-${n.kind}`}
                transform={`translate(${box.x},${box.y})`}
                data-testid="plan-node"
                data-name={n.id}
                data-kind={n.kind}
              >
                <rect width={box.width} height={box.height} rx="6" />
                <text x="10" y="19" className="node-label">
                  {ICON[n.kind]} {fit(n.label, 20)}
                </text>
                <text x="10" y="36" className="node-detail">
                  {fit(n.detail, 26)}
                </text>
                <title>{[n.label, n.detail, ...n.columns].join('\n')}</title>
              </g>
            );
          })}
        </svg>
      </div>
    </div>
  );
}
