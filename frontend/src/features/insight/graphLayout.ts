/**
 * A layered left-to-right layout for small DAGs (a program's plan): each node
 * in the layer after its furthest input, nodes ordered within a layer by the
 * mean position of their neighbours (two sweeps), edges as cubic curves
 * between ports spread along the node's sides. Enough for tens of nodes; no
 * layout library.
 */

export interface LayoutInput {
  nodes: readonly { id: string }[];
  edges: readonly { from: string; to: string }[];
}

export interface Box {
  id: string;
  layer: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Route {
  from: string;
  to: string;
  path: string;
  /** Where the edge's label goes (the middle of the curve). */
  labelX: number;
  labelY: number;
}

export interface Layout {
  boxes: Map<string, Box>;
  routes: Route[];
  width: number;
  height: number;
}

export interface LayoutOptions {
  nodeWidth: number;
  nodeHeight: number;
  /** Horizontal gap between layers: the edge labels live here. */
  layerGap: number;
  rowGap: number;
  padding: number;
}

export const DEFAULT_LAYOUT: LayoutOptions = { nodeWidth: 176, nodeHeight: 48, layerGap: 160, rowGap: 40, padding: 16 };

/** Layer of each node: 0 without inputs, else one more than its furthest input (cycles are cut). */
export function assignLayers(graph: LayoutInput): Map<string, number> {
  const preds = new Map<string, string[]>(graph.nodes.map((n) => [n.id, []]));
  for (const e of graph.edges) preds.get(e.to)?.push(e.from);
  const layers = new Map<string, number>();
  const visiting = new Set<string>();
  const layerOf = (id: string): number => {
    const known = layers.get(id);
    if (known !== undefined) return known;
    if (visiting.has(id)) return 0; // a cycle: treat the back edge as absent
    visiting.add(id);
    let layer = 0;
    for (const p of preds.get(id) ?? []) if (preds.has(p)) layer = Math.max(layer, layerOf(p) + 1);
    visiting.delete(id);
    layers.set(id, layer);
    return layer;
  };
  for (const n of graph.nodes) layerOf(n.id);
  return layers;
}

const mean = (xs: number[]): number | null => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length);

/** Nodes per layer, ordered to keep edges short and uncrossed (barycentre sweeps). */
export function orderLayers(graph: LayoutInput, layers: Map<string, number>): string[][] {
  const count = Math.max(-1, ...layers.values()) + 1;
  const rows: string[][] = Array.from({ length: count }, () => []);
  for (const n of graph.nodes) rows[layers.get(n.id) ?? 0]?.push(n.id);
  const neighbours = (id: string, dir: 'in' | 'out') =>
    graph.edges.filter((e) => (dir === 'in' ? e.to === id : e.from === id)).map((e) => (dir === 'in' ? e.from : e.to));
  const position = new Map<string, number>();
  const remember = () => rows.forEach((row) => row.forEach((id, i) => position.set(id, i)));
  remember();
  const sweep = (indices: number[], dir: 'in' | 'out') => {
    for (const l of indices) {
      const row = rows[l];
      if (!row) continue;
      const keyed = row.map((id, i) => {
        const ps = neighbours(id, dir)
          .map((n) => position.get(n))
          .filter((p): p is number => p !== undefined);
        return { id, key: mean(ps) ?? i, i };
      });
      keyed.sort((a, b) => a.key - b.key || a.i - b.i);
      rows[l] = keyed.map((k) => k.id);
      remember();
    }
  };
  const forward = rows.map((_, i) => i).slice(1);
  sweep(forward, 'in');
  sweep([...forward].reverse().map((i) => i - 1), 'out');
  return rows;
}

/** A cubic Bézier curve: x0, y0, then the two control points, then the end point. */
type Cubic = [number, number, number, number, number, number, number, number];

function cubicAt(a: number, b: number, c: number, d: number, t: number): number {
  const u = 1 - t;
  return u * u * u * a + 3 * u * u * t * b + 3 * u * t * t * c + t * t * t * d;
}

/** The curve's y where it crosses x (its x grows with t, so bisection finds t). */
export function yAtX(curve: Cubic, x: number): number {
  const [x0, y0, cx1, cy1, cx2, cy2, x3, y3] = curve;
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 30; i += 1) {
    const mid = (lo + hi) / 2;
    if (cubicAt(x0, cx1, cx2, x3, mid) < x) lo = mid;
    else hi = mid;
  }
  return cubicAt(y0, cy1, cy2, y3, (lo + hi) / 2);
}

/** Evenly spread offsets for `n` ports along a side of length `size`. */
function portOffset(index: number, n: number, size: number): number {
  return (size * (index + 1)) / (n + 1);
}

export function layoutGraph(graph: LayoutInput, options: LayoutOptions = DEFAULT_LAYOUT): Layout {
  const { nodeWidth: w, nodeHeight: h, layerGap, rowGap, padding } = options;
  const layers = assignLayers(graph);
  const rows = orderLayers(graph, layers);
  const tallest = Math.max(0, ...rows.map((r) => r.length));
  const height = padding * 2 + Math.max(0, tallest * h + (tallest - 1) * rowGap);
  const width = padding * 2 + Math.max(0, rows.length * w + (rows.length - 1) * layerGap);

  const boxes = new Map<string, Box>();
  rows.forEach((row, layer) => {
    const rowHeight = row.length * h + (row.length - 1) * rowGap;
    const top = padding + (height - padding * 2 - rowHeight) / 2;
    row.forEach((id, i) => {
      boxes.set(id, { id, layer, x: padding + layer * (w + layerGap), y: top + i * (h + rowGap), width: w, height: h });
    });
  });

  // Ports: each node's outgoing edges spread down its right side, incoming down its left,
  // both in the order of the node at the other end, so curves do not cross at the node.
  const drawn = graph.edges.filter((e) => boxes.has(e.from) && boxes.has(e.to));
  const yOf = (id: string) => boxes.get(id)?.y ?? 0;
  const outs = new Map<string, typeof drawn>();
  const ins = new Map<string, typeof drawn>();
  for (const e of drawn) {
    outs.set(e.from, [...(outs.get(e.from) ?? []), e]);
    ins.set(e.to, [...(ins.get(e.to) ?? []), e]);
  }
  for (const list of outs.values()) list.sort((a, b) => yOf(a.to) - yOf(b.to));
  for (const list of ins.values()) list.sort((a, b) => yOf(a.from) - yOf(b.from));

  const routes: Route[] = drawn.map((e) => {
    const a = boxes.get(e.from) as Box;
    const b = boxes.get(e.to) as Box;
    const outList = outs.get(e.from) ?? [];
    const inList = ins.get(e.to) ?? [];
    const x1 = a.x + a.width;
    const y1 = a.y + portOffset(outList.indexOf(e), outList.length, a.height);
    const x2 = b.x;
    const y2 = b.y + portOffset(inList.indexOf(e), inList.length, b.height);
    const dx = Math.max(40, (x2 - x1) / 2);
    const curve: Cubic = [x1, y1, x1 + dx, y1, x2 - dx, y2, x2, y2];
    const path = `M${x1},${y1.toFixed(1)} C${x1 + dx},${y1.toFixed(1)} ${x2 - dx},${y2.toFixed(1)} ${x2},${y2.toFixed(1)}`;
    // The label sits in the gap just before the target, so an edge that spans
    // several layers does not put its label on a node it passes.
    const labelX = x2 - x1 > layerGap * 1.5 ? x2 - layerGap / 2 : (x1 + x2) / 2;
    return { from: e.from, to: e.to, path, labelX, labelY: yAtX(curve, labelX) };
  });
  return { boxes, routes, width, height };
}
