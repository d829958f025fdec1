import { describe, expect, it } from 'vitest';
import type { Catalog, Column, Relation } from '../../api/types';
import { col, rel } from '../../testing/catalog';
import { assignLayers, layoutGraph, orderLayers, yAtX } from './graphLayout';
import { OUTPUT_ID, buildPlanGraph, scansOf } from './planGraph';
import { constantText, relationFacts, watermarkOf, waterlineOf } from './schema';

const HOUR = { kind: 'literal', value: 3_600_000_000, type: 'INTERVAL DAY TO SECOND' };

const scan = (relation: string) => ({ op: 'scan', relation, columns: [] });

// orders(LATENESS) → hourly (aggregate, emit_final) ; orders ⋈ customers → big ; big → local → top
const catalog: Catalog = {
  relations: [
    rel('orders', 'table', [col('id'), col('placed_at', 'TIMESTAMP', { lateness: HOUR, waterline: true })], {
      primary_key: ['id'],
    }),
    rel('customers', 'table', [col('id')]),
    rel('clicks', 'stream', [col('rowtime', 'TIMESTAMP', { waterline: true })]),
    rel('clicks2', 'stream', [col('rowtime', 'TIMESTAMP', { waterline: true })]),
    rel('hourly', 'view', [col('h', 'TIMESTAMP', { waterline: true }), col('total')], {
      emit_final: 0,
      output_mode: 'append',
    }),
    rel('big', 'view', [col('id')], { local: true }),
    rel('top', 'view', [col('id')]),
  ],
  pumps: [{ name: 'p1', target: 'clicks2', started: false, sources: ['clicks'] }],
};

const plan = {
  version: 2,
  views: [
    { name: 'hourly', query: { op: 'project', input: { op: 'aggregate', input: scan('orders'), keys: [] } } },
    {
      name: 'big',
      query: { op: 'project', input: { op: 'filter', input: { op: 'join', kind: 'left', left: scan('orders'), right: scan('customers') } } },
    },
    { name: 'top', query: { op: 'sort', input: scan('big'), keys: [], limit: 3 } },
  ],
};

describe('scansOf', () => {
  it('names the operator that reads each input, looking through projections', () => {
    expect(scansOf(plan.views[1]?.query)).toEqual(
      new Map([
        ['orders', new Set(['left join'])],
        ['customers', new Set(['left join'])],
      ]),
    );
    expect(scansOf({ op: 'project', input: scan('t') })).toEqual(new Map([['t', new Set(['project'])]]));
    expect(scansOf({ op: 'union', inputs: [scan('a'), { op: 'filter', input: scan('b') }] })).toEqual(
      new Map([
        ['a', new Set(['union'])],
        ['b', new Set(['filter'])],
      ]),
    );
  });

  it('ignores what is not a plan', () => {
    expect(scansOf(null).size).toBe(0);
    expect(scansOf({ op: 'scan' }).size).toBe(0);
  });
});

describe('buildPlanGraph', () => {
  const graph = buildPlanGraph(plan, catalog);
  const edge = (from: string, to: string) => graph.edges.find((e) => e.from === from && e.to === to);

  it('has inputs, views and one output node', () => {
    expect(graph.nodes.map((n) => [n.id, n.kind])).toEqual([
      ['orders', 'table'],
      ['customers', 'table'],
      ['clicks', 'stream'],
      ['clicks2', 'stream'],
      ['hourly', 'view'],
      ['big', 'local-view'],
      ['top', 'view'],
      [OUTPUT_ID, 'output'],
    ]);
  });

  it('labels input edges with the operator and the waterline columns', () => {
    expect(edge('orders', 'hourly')).toMatchObject({ kind: 'input', label: 'aggregate', waterline: 'placed_at' });
    expect(edge('customers', 'big')).toMatchObject({ label: 'left join', waterline: null });
    expect(edge('big', 'top')).toMatchObject({ label: 'sort' });
  });

  it('sends published views to the output with their mode, not local ones', () => {
    expect(edge('hourly', OUTPUT_ID)).toMatchObject({ kind: 'output', label: 'append', waterline: 'emit_final h' });
    expect(edge('top', OUTPUT_ID)).toMatchObject({ label: 'update', waterline: null });
    expect(edge('big', OUTPUT_ID)).toBeUndefined();
  });

  it('draws pumps between streams', () => {
    expect(edge('clicks', 'clicks2')).toMatchObject({ kind: 'pump', label: 'pump p1 (stopped)', waterline: 'rowtime' });
  });

  it('shows the inputs alone when there is no plan', () => {
    const bare = buildPlanGraph(null, catalog);
    expect(bare.nodes.map((n) => n.id)).toEqual(['orders', 'customers', 'clicks', 'clicks2']);
  });
});

describe('layout', () => {
  const graph = buildPlanGraph(plan, catalog);

  it('puts each node one layer after its furthest input', () => {
    const layers = assignLayers(graph);
    expect(Object.fromEntries(layers)).toEqual({
      orders: 0,
      customers: 0,
      clicks: 0,
      clicks2: 1,
      hourly: 1,
      big: 1,
      top: 2,
      [OUTPUT_ID]: 3,
    });
  });

  it('survives a cycle', () => {
    const layers = assignLayers({ nodes: [{ id: 'a' }, { id: 'b' }], edges: [{ from: 'a', to: 'b' }, { from: 'b', to: 'a' }] });
    expect(layers.size).toBe(2);
  });

  it('orders a layer by where its inputs are, to avoid crossings', () => {
    const g = {
      nodes: [{ id: 'a' }, { id: 'b' }, { id: 'fromB' }, { id: 'fromA' }],
      edges: [
        { from: 'a', to: 'fromA' },
        { from: 'b', to: 'fromB' },
      ],
    };
    expect(orderLayers(g, assignLayers(g))).toEqual([
      ['a', 'b'],
      ['fromA', 'fromB'],
    ]);
  });

  it('places boxes without overlap and routes every edge between them', () => {
    const layout = layoutGraph(graph);
    const boxes = [...layout.boxes.values()];
    for (const a of boxes) {
      for (const b of boxes) {
        if (a === b) continue;
        const apart = a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;
        expect(apart, `${a.id} overlaps ${b.id}`).toBe(true);
      }
      expect(a.x + a.width).toBeLessThanOrEqual(layout.width);
      expect(a.y + a.height).toBeLessThanOrEqual(layout.height);
    }
    expect(layout.routes).toHaveLength(graph.edges.length);
    for (const r of layout.routes) {
      const from = layout.boxes.get(r.from);
      const to = layout.boxes.get(r.to);
      expect(r.path.startsWith(`M${(from?.x ?? 0) + (from?.width ?? 0)},`)).toBe(true);
      expect(r.labelX).toBeGreaterThan((from?.x ?? 0) + (from?.width ?? 0));
      expect(r.labelX).toBeLessThan(to?.x ?? 0);
    }
  });

  it('finds the y of a curve at an x', () => {
    expect(yAtX([0, 0, 50, 0, 50, 100, 100, 100], 50)).toBeCloseTo(50, 3);
    expect(yAtX([0, 0, 50, 0, 50, 100, 100, 100], 0)).toBeCloseTo(0, 3);
  });
});

describe('schema facts', () => {
  const orders = catalog.relations[0] as Relation;
  const clicks = catalog.relations[2] as Relation;
  const hourly = catalog.relations[4] as Relation;

  it('says where a waterline comes from', () => {
    expect(waterlineOf(orders, orders.columns[1] as Column)).toMatchObject({ source: 'lateness', text: 'LATENESS 1 hour' });
    expect(waterlineOf(clicks, clicks.columns[0] as Column)).toMatchObject({ source: 'rowtime', text: 'ROWTIME' });
    expect(waterlineOf(hourly, hourly.columns[0] as Column)).toMatchObject({ source: 'inferred' });
    expect(waterlineOf(orders, orders.columns[0] as Column)).toBeNull();
  });

  it('formats constants and watermarks', () => {
    expect(constantText({ kind: 'literal', value: 10, type: 'INTEGER' })).toBe('10');
    expect(constantText(HOUR)).toBe('1 hour');
    expect(watermarkOf(col('ts', 'TIMESTAMP', { watermark: { kind: 'literal', value: 5_000_000, type: 'INTERVAL DAY TO SECOND' } }))).toBe(
      'WATERMARK 5 seconds',
    );
    expect(watermarkOf(col('ts'))).toBeNull();
  });

  it('describes views and tables', () => {
    expect(relationFacts(hourly)).toEqual(['never retracts a row', 'emit_final on h: rows appear once final']);
    expect(relationFacts(catalog.relations[6] as Relation)).toEqual([]);
    expect(relationFacts(orders)).toEqual(['primary key (id)']);
    expect(relationFacts(clicks)).toEqual(['append-only, ordered by rowtime']);
  });
});
