/**
 * What the editor offers on completion: the relations and columns of the last
 * validation's catalog, and the dialect's keywords and functions.
 *
 * After `name.` only the columns of the relation `name` stands for are
 * offered; `name` may be a relation or an alias from a FROM or JOIN clause.
 * Pure data: monacoSetup.ts turns entries into Monaco completion items.
 */
import type { Catalog, Relation } from '../../api/types';
import { BUILTIN_FUNCTIONS, DIALECT_KEYWORDS, KEYWORDS, TYPE_KEYWORDS } from './weirSql';

export type EntryKind = 'table' | 'stream' | 'view' | 'column' | 'keyword' | 'function' | 'type';

export interface CompletionEntry {
  label: string;
  kind: EntryKind;
  /** Shown beside the label: a column's relation and type, a relation's kind. */
  detail: string;
  insertText: string;
  /** Monaco sorts by this: columns and relations before keywords. */
  sortText: string;
}

/** The identifier before a trailing `.`, when the cursor follows `name.` (or `"name".`) and a partial word. */
export function qualifierBefore(textBeforeCursor: string): string | null {
  const m = /(?:"([^"]+)"|([A-Za-z_][\w$]*))\.[A-Za-z_0-9$]*$/.exec(textBeforeCursor);
  if (!m) return null;
  return m[1] ?? m[2] ?? null;
}

/** Words that may follow a relation name in FROM/JOIN without being its alias. */
const NOT_ALIASES = new Set([
  'WHERE', 'JOIN', 'INNER', 'LEFT', 'RIGHT', 'FULL', 'OUTER', 'CROSS', 'NATURAL', 'ON', 'USING', 'GROUP', 'ORDER',
  'HAVING', 'LIMIT', 'OFFSET', 'FETCH', 'UNION', 'INTERSECT', 'EXCEPT', 'WINDOW', 'AS', 'LATERAL', 'EMIT', 'FOR',
  'PIVOT', 'UNPIVOT', 'APPLY',
]);

/** alias (lower-cased) → relation name, from `FROM rel [AS] alias` and `JOIN rel [AS] alias` in `sql`. */
export function aliasesIn(sql: string): Map<string, string> {
  const aliases = new Map<string, string>();
  const pattern = /\b(?:FROM|JOIN)\s+(?:"([^"]+)"|([A-Za-z_][\w$]*))(?:\s+(?:AS\s+)?(?:"([^"]+)"|([A-Za-z_][\w$]*)))?/gi;
  for (const m of sql.matchAll(pattern)) {
    const relation = m[1] ?? m[2];
    const alias = m[3] ?? m[4];
    if (relation === undefined || alias === undefined) continue;
    if (m[4] !== undefined && NOT_ALIASES.has(alias.toUpperCase())) continue;
    aliases.set(alias.toLowerCase(), relation);
  }
  return aliases;
}

function findRelation(catalog: Catalog | null, name: string): Relation | undefined {
  const relations = catalog?.relations ?? [];
  return relations.find((r) => r.name === name) ?? relations.find((r) => r.name.toLowerCase() === name.toLowerCase());
}

/** The relation `qualifier` stands for: an alias in `sql`, else a relation of that name. */
export function resolveQualifier(qualifier: string, sql: string, catalog: Catalog | null): Relation | undefined {
  const aliased = aliasesIn(sql).get(qualifier.toLowerCase());
  return (aliased !== undefined ? findRelation(catalog, aliased) : undefined) ?? findRelation(catalog, qualifier);
}

const KEYWORD_SET = new Set([...KEYWORDS, ...DIALECT_KEYWORDS, ...TYPE_KEYWORDS]);

/** A name as it must be written: quoted unless it is a plain lower-case identifier. */
export function quoteIdentifier(name: string): string {
  return /^[a-z_][a-z0-9_$]*$/.test(name) && !KEYWORD_SET.has(name.toUpperCase()) ? name : `"${name.replace(/"/g, '""')}"`;
}

function columnEntries(relation: Relation, rank: string): CompletionEntry[] {
  return relation.columns.map((c) => ({
    label: c.name,
    kind: 'column' as const,
    detail: `${relation.name}.${c.name} ${c.type}${c.nullable ? '' : ' NOT NULL'}`,
    insertText: quoteIdentifier(c.name),
    sortText: `${rank}${c.name}`,
  }));
}

/**
 * The completion entries at a cursor: after `x.` the columns of x; elsewhere
 * every relation, every column (once per name, its relations in the detail),
 * then keywords, functions and types.
 */
export function buildCompletions(catalog: Catalog | null, sql: string, textBeforeCursor: string): CompletionEntry[] {
  const qualifier = qualifierBefore(textBeforeCursor);
  if (qualifier !== null) {
    const relation = resolveQualifier(qualifier, sql, catalog);
    return relation ? columnEntries(relation, '0') : [];
  }
  const relations = catalog?.relations ?? [];
  const entries: CompletionEntry[] = relations.map((r) => ({
    label: r.name,
    kind: r.kind,
    detail: `${r.kind}${r.local ? ' (local)' : ''} · ${r.columns.length} column${r.columns.length === 1 ? '' : 's'}`,
    insertText: quoteIdentifier(r.name),
    sortText: `1${r.name}`,
  }));
  const columns = new Map<string, { types: Set<string>; owners: string[] }>();
  for (const r of relations) {
    for (const c of r.columns) {
      const seen = columns.get(c.name) ?? { types: new Set<string>(), owners: [] };
      seen.types.add(c.type);
      seen.owners.push(r.name);
      columns.set(c.name, seen);
    }
  }
  for (const [name, { types, owners }] of columns) {
    entries.push({
      label: name,
      kind: 'column',
      detail: `${[...types].join(' | ')} · ${owners.join(', ')}`,
      insertText: quoteIdentifier(name),
      sortText: `2${name}`,
    });
  }
  const words: [readonly string[], EntryKind, string][] = [
    [DIALECT_KEYWORDS, 'keyword', 'streaming keyword'],
    [KEYWORDS, 'keyword', 'keyword'],
    [BUILTIN_FUNCTIONS, 'function', 'function'],
    [TYPE_KEYWORDS, 'type', 'type'],
  ];
  for (const [list, kind, detail] of words) {
    for (const word of list) entries.push({ label: word, kind, detail, insertText: word, sortText: `3${word}` });
  }
  return entries;
}
