"""Binding FROM: relations, WITH names, subqueries, joins and window table functions.

Each FROM item becomes a plan relation and one scope entry (several for a
join); a FROM list of several items is their CROSS JOIN. An item whose columns
are unknown (reported) leaves an opaque entry and no plan.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from backend.compiler.diagnostics import Code, Note, error
from backend.compiler.plan import nodes as plan
from backend.compiler.semantic import types
from backend.compiler.semantic.asof_joins import asof_join
from backend.compiler.semantic.catalog import Relation
from backend.compiler.semantic.correlation import Pending
from backend.compiler.semantic.environment import Environment
from backend.compiler.semantic.expressions import ExprContext, bind_expr
from backend.compiler.semantic.lateral import PendingLateral, bind_lateral
from backend.compiler.semantic.pivots import bind_rotation
from backend.compiler.semantic.scope import Scope, ScopeEntry, resolve_column
from backend.compiler.semantic.subqueries import BindFrom
from backend.compiler.semantic.table_functions import BindQuery, bind_table_function
from backend.compiler.semantic.temporal import (
    TEMPORAL_FUNCTIONS,
    bind_temporal_function,
    default_alias,
    join_items,
)
from backend.compiler.semantic.time_travel import bind_system_time
from backend.compiler.semantic.unnest import PendingUnnest, bind_unnest, is_unnest
from backend.compiler.semantic.window_joins import (
    OUTPUT_ROWTIME,
    ROWTIME,
    NamedWindows,
    is_windowed,
    window_join,
)
from backend.compiler.source import Span
from backend.compiler.syntax import ast


@dataclass
class From:
    """The FROM clause being bound: its scope entries, and its plan when it has one."""

    entries: list[ScopeEntry]
    source: plan.Rel | None = None
    windows: NamedWindows = field(default_factory=dict)  # the SELECT's WINDOW clause

    @property
    def scope(self) -> Scope:
        return Scope(tuple(self.entries))

    @property
    def width(self) -> int:
        return sum(entry.width for entry in self.entries)


# A bound FROM item: a relation, or a correlated item to join to the items left of it.
Side = plan.Rel | Pending | PendingUnnest | PendingLateral
PENDING = (Pending, PendingUnnest, PendingLateral)

# Joins nest (left-deep) in the plan and in binding: beyond this many in one
# FROM clause the statement is reported as too deep (SQL105).
MAX_JOINS = 100


def bind_from(
    items: tuple[ast.FromItem, ...],
    env: Environment,
    bind_query: BindQuery,
    windows: NamedWindows | None = None,
) -> From:
    """`windows`: the SELECT's named windows, for `FROM s OVER w` in a windowed join."""
    bound = From([], windows=windows or {})
    if items and count_joins(items) > MAX_JOINS:
        span = items[0].span.to(items[-1].span)
        message = f"More than {MAX_JOINS} joins in one FROM clause"
        env.report(error(Code.TOO_DEEP, message, span))
        bound.entries.append(ScopeEntry("", span, "FROM", None, 0))
        return bound
    rel: plan.Rel | None = None
    complete = True
    for position, item in enumerate(items):
        # A LATERAL item sees the items before it: the relation `rel` joins them into.
        left = bound.scope if position else None
        item_rel = _bind_item(
            item, env, bound, bind_query, left, left_rel=rel if position else None
        )
        complete = complete and item_rel is not None
        if position == 0 or rel is None or item_rel is None:
            rel = None
            if position == 0 and not isinstance(item_rel, PENDING):
                rel = item_rel
            continue
        columns = rel.columns + item_rel.columns
        span = items[0].span.to(item.span)
        rel = join_items("inner", rel, item_rel, None, columns, span, env)
    bound.source = rel if complete and bound.scope.is_complete else None
    return bound


def count_joins(items: tuple[ast.FromItem, ...]) -> int:
    """The number of joins of a FROM list (a list of n items is n - 1 joins)."""
    count = len(items) - 1
    stack = list(items)
    while stack:
        item = stack.pop()
        if isinstance(item, ast.Join):
            count += 1
            stack.extend((item.left, item.right))
    return count


def _bind_item(
    item: ast.FromItem,
    env: Environment,
    bound: From,
    bind_query: BindQuery,
    left: Scope | None = None,
    windowed: bool = False,
    left_rel: plan.Rel | None = None,
) -> Side | None:
    """`windowed`: the item is a side of a windowed join, which binds its OVER. `left`,
    `left_rel`: the names and the plan of the items left of it (for LATERAL)."""
    match item:
        case ast.TableRef():
            return _bind_table_ref(item, env, bound, left, windowed)
        case ast.DerivedTable():
            derived: Side | None
            if item.lateral and left is not None:
                binders = (bind_query, _inner_from(bind_query))
                derived = bind_lateral(item, left, left_rel, env, binders)
            else:
                inner = bind_query(item.query, env)
                derived = None if inner is None else inner[0]
            if derived is not None:
                derived = _renamed_side(derived, item.column_aliases, env)
            alias = item.alias or ast.Identifier("", False, item.span)
            columns = derived.columns if derived else None
            add_entry(env, bound, alias, f"subquery '{alias.value}'", columns)
            return derived
        case ast.TableFunction():
            return _bind_function_item(item, env, bound, bind_query, left)
        case ast.Join():
            return _bind_join(item, env, bound, bind_query, left)
        case ast.Pivot() | ast.Unpivot():
            source = _bind_item(item.source, env, From([], windows=bound.windows), bind_query, left)
            source_rel = source if isinstance(source, plan.Rel) else None
            rotated = bind_rotation(item, source_rel, env, bind_query)
            rel = None if rotated is None else _renamed(rotated, item.column_aliases, env)
            alias = item.alias or ast.Identifier("", False, item.span)
            description = f"{type(item).__name__.upper()} '{alias.value}'"
            add_entry(env, bound, alias, description, rel.columns if rel else None)
            return rel


def _inner_from(bind_query: BindQuery) -> BindFrom:
    def bind_inner(
        items: tuple[ast.FromItem, ...], env: Environment
    ) -> tuple[Scope, plan.Rel | None]:
        inner = bind_from(items, env, bind_query)
        return inner.scope, inner.source

    return bind_inner


def _renamed_side(side: Side, aliases: tuple[ast.Identifier, ...], env: Environment) -> Side | None:
    """`_renamed`, where a LATERAL subquery's keys keep their names."""
    if not isinstance(side, PendingLateral):
        return _renamed(side, aliases, env) if isinstance(side, plan.Rel) else side
    if not aliases:
        return side
    if len(aliases) != len(side.columns):
        _report_column_count(aliases, side.columns, env)
        return None
    keys = side.rows.columns[len(side.columns) :]
    names = (*aliases, *(ast.Identifier(key.name, True, side.span) for key in keys))
    rows = _renamed(side.rows, names, env)
    return None if rows is None else replace(side, rows=rows)


def _renamed(
    rel: plan.Rel, aliases: tuple[ast.Identifier, ...], env: Environment
) -> plan.Rel | None:
    """A subquery's columns renamed by `AS x (a, b)`."""
    if not aliases:
        return rel
    if len(aliases) != len(rel.columns):
        _report_column_count(aliases, rel.columns, env)
        return None
    refs = tuple(
        plan.ColumnRef(i, f.name, f.type, f.nullable, alias.span)
        for i, (f, alias) in enumerate(zip(rel.columns, aliases, strict=True))
    )
    fields = tuple(replace(f, name=a.value) for f, a in zip(rel.columns, aliases, strict=True))
    return plan.Project(rel, refs, fields, aliases[0].span.to(aliases[-1].span))


def _report_column_count(
    aliases: tuple[ast.Identifier, ...], columns: tuple[plan.Field, ...], env: Environment
) -> None:
    env.report(
        error(
            Code.COLUMN_COUNT,
            f"{len(aliases)} column names for a subquery of {len(columns)} columns",
            aliases[0].span.to(aliases[-1].span),
        )
    )


def _bind_table_ref(
    item: ast.TableRef, env: Environment, bound: From, left: Scope | None, windowed: bool
) -> Side | None:
    if item.column_aliases:
        env.not_supported(
            "column aliases in FROM",
            item.column_aliases[0].span.to(item.column_aliases[-1].span),
        )
    over = None if windowed else item.over
    if over is not None:
        env.report(
            error(
                Code.JOIN_WINDOW_MISUSE,
                "OVER on a FROM item is a join window: it needs a JOIN with another stream",
                over.span,
                hint="join two streams, as in FROM a OVER (RANGE CURRENT ROW) JOIN b ON ...",
            )
        )
    alias = item.alias or item.name
    if item.as_of is not None and not item.column_aliases and over is None:
        versioned = bind_system_time(item, env, left, resolve_relation)
        add_entry(env, bound, alias, f"'{alias.value}'", versioned.columns if versioned else None)
        return versioned
    rel, description, broken, index = resolve_relation(item.name, item.span, env)
    columns = rel.columns if rel is not None else None
    add_entry(env, bound, alias, description, columns, broken, index)
    if item.column_aliases or over is not None:
        return None
    return rel if not broken else None


def resolve_relation(
    name: ast.Identifier, span: Span, env: Environment
) -> tuple[plan.Rel | None, str, frozenset[str], Mapping[str, int] | None]:
    """A WITH query or a declared relation by name: plan, description, broken columns."""
    if name.value in env.ctes:
        cte = env.ctes[name.value]
        return (cte[0] if cte else None), f"'{name.value}'", frozenset(), None
    relation = env.lookup(name)
    if relation is None:
        return None, f"'{name.value}'", frozenset(), None
    if "emit_final" in dict(relation.properties):
        env.report(
            error(
                Code.INVALID_DEFINITION,
                f"View '{relation.name}' has an 'emit_final' property, so it cannot be read "
                "by a query (as in Feldera): it emits only final rows, its readers would "
                "see every change",
                name.span,
                hint="read a view without 'emit_final' that has the same query",
            )
        )
    columns, index = env.shape_of(relation)
    broken = env.broken(name.value)
    return plan.Scan(relation.name, columns, span), describe(relation), broken, index


def _bind_function_item(
    item: ast.TableFunction,
    env: Environment,
    bound: From,
    bind_query: BindQuery,
    left: Scope | None,
) -> Side | None:
    alias = item.alias or default_alias(item.call)
    if is_unnest(item):
        unnest = bind_unnest(item, env, left)
        add_entry(env, bound, alias, f"'{alias.value}'", unnest.columns if unnest else None)
        return unnest
    rel: Side | None
    if item.call.name.value.lower() in TEMPORAL_FUNCTIONS and not item.call.name.quoted:
        rel = bind_temporal_function(item, env, left, resolve_relation, bind_query)
    else:
        rel = bind_table_function(item, env, resolve_relation)
    add_entry(env, bound, alias, f"'{alias.value}'", rel.columns if rel else None)
    return rel


def _bind_join(
    join: ast.Join,
    env: Environment,
    bound: From,
    bind_query: BindQuery,
    outer: Scope | None,
) -> plan.Rel | None:
    first_entry = len(bound.entries)
    windowed = is_windowed(join)
    left = _bind_item(join.left, env, bound, bind_query, outer, windowed)
    right_start = len(bound.entries)
    lateral = local_scope(bound, first_entry, right_start)
    left_rel = left if isinstance(left, plan.Rel) else None
    right = _bind_item(join.right, env, bound, bind_query, lateral, windowed, left_rel)
    kind = "inner" if join.kind == "cross" else join.kind
    _make_nullable(bound, first_entry, right_start, kind)
    scope = local_scope(bound, first_entry, len(bound.entries))
    condition: plan.Expr | None = None
    failed = False
    if join.natural:
        join = replace(join, using=_common_columns(bound, first_entry, right_start, join.span))
    if join.using:
        condition = _using_condition(join, bound, first_entry, right_start, env)
        failed = failed or condition is None
    elif join.condition is not None:
        ctx = ExprContext(
            scope, env.diagnostics, env.suggestions, aggregate_clause="ON", functions=env
        )
        condition = bind_expr(join.condition, ctx)
        if condition is None:
            failed = True
        elif condition.type not in (types.BOOLEAN, types.NULL):
            env.report(
                error(
                    Code.TYPE_MISMATCH,
                    f"ON condition must be BOOLEAN, found {condition.type}",
                    condition.span,
                )
            )
            failed = True
    if isinstance(left, PENDING):
        env.not_supported("a LATERAL table function on the left of JOIN", left.span)
        return None
    if windowed:
        plain_right = None if isinstance(right, PENDING) else right
        sides = (left, plain_right)
        return _windowed(join, kind, sides, condition, failed, env, bound, first_entry)
    if join.match_condition is not None:
        ctx = ExprContext(
            scope, env.diagnostics, env.suggestions, aggregate_clause="ON", functions=env
        )
        match = bind_expr(join.match_condition, ctx)
        if left is None or right is None or failed or match is None:
            return None
        if isinstance(right, PENDING):
            env.not_supported("a LATERAL table function in ASOF JOIN", right.span)
            return None
        return asof_join(kind, left, right, condition, match, scope.columns, join.span, env)
    if left is None or right is None or failed:
        return None
    return join_items(kind, left, right, condition, scope.columns, join.span, env)


def _windowed(
    join: ast.Join,
    kind: str,
    sides: tuple[plan.Rel | None, plan.Rel | None],
    condition: plan.Expr | None,
    failed: bool,
    env: Environment,
    bound: From,
    first_entry: int,
) -> plan.Rel | None:
    """A windowed stream join: unqualified `rowtime` (and `*`) now means the output's
    rowtime, a column after both sides'; `a.rowtime` is still side a's."""
    columns = (*local_scope(bound, first_entry, len(bound.entries)).columns, OUTPUT_ROWTIME)
    for position in range(first_entry, len(bound.entries)):
        entry = bound.entries[position]
        hidden = entry.hidden | {ROWTIME}
        bound.entries[position] = replace(entry, hidden=hidden, index=entry.index)
    output = ScopeEntry("", join.span, "the windowed join", (OUTPUT_ROWTIME,), bound.width)
    bound.entries.append(output)
    left, right = sides
    if left is None or right is None or failed:
        return None
    return window_join(join, kind, (left, right), condition, columns, env, bound.windows)


def local_scope(bound: From, start: int, end: int, base: int | None = None) -> Scope:
    """The entries start..end as a scope whose column indexes count from the entry at
    `base` (default: `start`): a join's condition refers to its own inputs' columns,
    not to those of the FROM items before it (`FROM a, b JOIN c ON ...`)."""
    entries = bound.entries[start:end]
    if not entries:
        return Scope()
    origin = bound.entries[start if base is None else base].offset
    return Scope(tuple(replace(e, offset=e.offset - origin, index=e.index) for e in entries))


def _common_columns(
    bound: From, first: int, right_start: int, span: Span
) -> tuple[ast.Identifier, ...]:
    """NATURAL JOIN: the column names both sides have (an empty list: a cross join)."""
    left = {name for entry in bound.entries[first:right_start] for name in entry.names}
    names = [
        name
        for entry in bound.entries[right_start:]
        for name in entry.names
        if name in left and name not in entry.hidden
    ]
    return tuple(ast.Identifier(name, True, span) for name in dict.fromkeys(names))


def _make_nullable(bound: From, first: int, right_start: int, kind: str) -> None:
    """The columns of the side an outer join can fill with NULLs become nullable."""
    sides = {"left": (right_start, len(bound.entries)), "right": (first, right_start)}
    ranges = [sides[k] for k in sides if kind in (k, "full")]
    for start, end in ranges:
        for position in range(start, end):
            entry = bound.entries[position]
            if entry.columns is not None:
                columns = tuple(replace(c, nullable=True) for c in entry.columns)
                bound.entries[position] = replace(entry, columns=columns, index=entry.index)


def _using_condition(
    join: ast.Join, bound: From, first: int, right_start: int, env: Environment
) -> plan.Expr | None:
    """`USING (a, b)`: `left.a = right.a AND ...`; the right's columns are hidden."""
    left = local_scope(bound, first, right_start)
    right = local_scope(bound, right_start, len(bound.entries), base=first)
    equalities: list[plan.Expr] = []
    failed = False
    for name in join.using:
        refs: list[plan.Expr | None] = []
        for side in (left, right):
            column = ast.ColumnRef((name,), name.span)
            # One message for a name missing on both sides.
            found = resolve_column(side, column, env.diagnostics, env.suggestions)
            refs.append(found)
            if found is None:
                break
        if len(refs) < 2:
            failed = True
            continue
        left_ref, right_ref = refs
        if left_ref is None or right_ref is None:
            failed = True
            continue
        if not types.comparable(left_ref.type, right_ref.type):
            env.report(
                error(
                    Code.TYPE_MISMATCH,
                    f"USING column '{name.value}' is {left_ref.type} on the left "
                    f"and {right_ref.type} on the right",
                    name.span,
                )
            )
            failed = True
            continue
        nullable = left_ref.nullable or right_ref.nullable
        equalities.append(
            plan.Call("eq", (left_ref, right_ref), types.BOOLEAN, nullable, name.span)
        )
    for position in range(right_start, len(bound.entries)):
        entry = bound.entries[position]
        hidden = entry.hidden | {name.value for name in join.using}
        bound.entries[position] = replace(entry, hidden=hidden, index=entry.index)
    if failed or not equalities:
        return None
    condition = equalities[0]
    for equality in equalities[1:]:
        nullable = condition.nullable or equality.nullable
        condition = plan.Call("and", (condition, equality), types.BOOLEAN, nullable, equality.span)
    return condition


def add_entry(
    env: Environment,
    bound: From,
    alias: ast.Identifier,
    description: str,
    columns: tuple[plan.Field, ...] | None,
    broken: frozenset[str] = frozenset(),
    index: Mapping[str, int] | None = None,
) -> None:
    if alias.value:
        for entry in bound.entries:
            if entry.alias == alias.value:
                env.report(
                    error(
                        Code.DUPLICATE_RELATION,
                        f"'{alias.value}' appears twice in FROM",
                        alias.span,
                        notes=(Note(f"'{alias.value}' first appears here", entry.alias_span),),
                        hint="give one of them an alias, as in FROM t AS t2",
                    )
                )
                break
    entry = ScopeEntry(alias.value, alias.span, description, columns, bound.width, broken, index)
    bound.entries.append(entry)


def describe(relation: Relation) -> str:
    return f"{relation.kind.value} '{relation.name}'"
