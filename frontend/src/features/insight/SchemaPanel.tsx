import type { Catalog, Relation } from '../../api/types';
import { relationFacts, watermarkOf, waterlineOf } from './schema';

interface Props {
  catalog: Catalog | null;
}

const KIND_ORDER: Record<Relation['kind'], number> = { table: 0, stream: 1, view: 2 };

function RelationCard({ relation }: { relation: Relation }) {
  const facts = relationFacts(relation);
  return (
    <article className="schema-card" data-testid="schema-relation" data-name={relation.name} data-kind={relation.kind}>
      <header className="schema-card-head">
        <h3 className="mono">{relation.name}</h3>
        <span className={`kind kind-${relation.kind}`}>{relation.kind}</span>
        {relation.kind === 'view' && relation.output_mode && (
          <span
            className="pill"
            data-testid="output-mode"
            title={relation.output_mode === 'append' ? 'append: the view only inserts, never retracts a row' : 'update: the view inserts and deletes rows'}
          >
            {relation.output_mode}
          </span>
        )}
        {relation.kind === 'view' && relation.emit_final !== null && (
          <span className="pill pill-accent" data-testid="emit-final">
            emit_final
          </span>
        )}
      </header>
      {facts.length > 0 && <p className="muted small">{facts.join(' · ')}</p>}
      <table className="schema-columns">
        <thead>
          <tr>
            <th scope="col">column</th>
            <th scope="col">type</th>
            <th scope="col">waterline</th>
          </tr>
        </thead>
        <tbody>
          {relation.columns.map((c) => {
            const wl = waterlineOf(relation, c);
            const wm = watermarkOf(c);
            return (
              <tr key={c.name} data-testid="schema-column" data-column={c.name}>
                <td className="mono">
                  {c.name}
                  {relation.primary_key.includes(c.name) && (
                    <span className="pk" title="primary key">
                      PK
                    </span>
                  )}
                </td>
                <td className="mono muted">
                  {c.type}
                  {c.nullable ? '' : ' NOT NULL'}
                </td>
                <td>
                  {wl && (
                    <span className={`wl wl-${wl.source}`} title={wl.why} data-testid="waterline" data-source={wl.source}>
                      {wl.text}
                    </span>
                  )}
                  {wm && (
                    <span className="wl wl-watermark" title="Rows wait until the column's running maximum passes value + delay">
                      {wm}
                    </span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </article>
  );
}

/** Every table, stream and view of the program with its columns, waterlines and output mode; then pumps. */
export function SchemaPanel({ catalog }: Props) {
  const relations = [...(catalog?.relations ?? [])].sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind]);
  const pumps = catalog?.pumps ?? [];
  if (relations.length === 0) {
    return <p className="placeholder muted">The program declares no tables, streams or views yet.</p>;
  }
  return (
    <div className="schema" data-testid="schema">
      <p className="muted small legend-line">
        Waterlines: <span className="wl wl-lateness">LATENESS</span> declared on the column ·{' '}
        <span className="wl wl-rowtime">ROWTIME</span> a stream&apos;s clock · <span className="wl wl-inferred">inferred</span>{' '}
        derived by the compiler. Hover one for why.
      </p>
      <div className="schema-grid">
        {relations.map((r) => (
          <RelationCard key={r.name} relation={r} />
        ))}
      </div>
      {pumps.length > 0 && (
        <section className="schema-pumps">
          <h2>Pumps</h2>
          <ul>
            {pumps.map((p) => (
              <li key={p.name} className="mono small" data-testid="schema-pump">
                {p.name}: {p.sources.join(', ')} → {p.target}
                <span className="muted"> ({p.started ? 'starts with the pipeline' : 'created stopped'})</span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
