"""Binding queries: a SELECT over one relation becomes Scan -> Filter -> Project.

Everything else the parser accepts (joins, GROUP BY, set operations, ...) is
reported as not supported yet (SQL401) at its own span, but its parts are still
bound so that unknown names and type errors inside it are reported too.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from backend.compiler.diagnostics import Code, Note, error
from backend.compiler.plan import nodes as plan
from backend.compiler.semantic import types
from backend.compiler.semantic.catalog import Relation
from backend.compiler.semantic.environment import Environment
from backend.compiler.semantic.expressions import ExprContext, bind_expr
from backend.compiler.semantic.scope import Scope, ScopeEntry, report_unknown_qualifier
from backend.compiler.source import Span
from backend.compiler.syntax import ast


@dataclass(frozen=True, slots=True)
class BoundQuery:
    rel: plan.Rel
    spans: tuple[Span, ...]  # for each output column, the select item defining it

    @property
    def columns(self) -> tuple[plan.Field, ...]:
        return self.rel.columns


def bind_query(query: ast.Query, env: Environment) -> BoundQuery | None:
    """The plan of `query`, or None when it has errors or unsupported parts (reported)."""
    mark = len(env.diagnostics)
    hidden = _bind_with(query, env)
    body = _bind_body(query.body, env)
    env.unresolvable -= hidden
    if query.order_by_span is not None:
        env.not_supported("ORDER BY", query.order_by_span)
    if query.limit is not None:
        env.not_supported("LIMIT, OFFSET and FETCH", query.limit.span)
    return None if env.has_errors_since(mark) else body


def _bind_with(query: ast.Query, env: Environment) -> set[str]:
    """Report WITH and bind its queries; returns the names it hides from lookup."""
    if query.with_span is None:
        return set()
    env.not_supported("WITH", query.with_span)
    hidden = set()
    for cte in query.with_:
        bind_query(cte.query, env)
        if cte.name.value not in env.relations and cte.name.value not in env.unresolvable:
            hidden.add(cte.name.value)
            env.unresolvable.add(cte.name.value)
    return hidden


def _bind_body(body: ast.QueryBody, env: Environment) -> BoundQuery | None:
    match body:
        case ast.Select():
            return _bind_select(body, env)
        case ast.Query():
            return bind_query(body, env)
        case ast.SetOperation():
            env.not_supported(f"{body.op.upper()}{' ALL' * body.all}", body.op_span)
            _bind_body(body.left, env)
            _bind_body(body.right, env)
            return None
        case ast.Values():
            env.not_supported("VALUES", body.span)
            return None


# ---------------------------------------------------------------- FROM


@dataclass
class _From:
    """The FROM clause being bound: its scope entries, and its plan when it has one."""

    entries: list[ScopeEntry]
    source: plan.Rel | None = None

    @property
    def scope(self) -> Scope:
        return Scope(tuple(self.entries))

    @property
    def width(self) -> int:
        return sum(entry.width for entry in self.entries)


def _bind_from(items: tuple[ast.FromItem, ...], env: Environment) -> _From:
    bound = _From([])
    for position, item in enumerate(items):
        if position == 1:
            env.not_supported("several relations in FROM (use JOIN)", item.span)
        _bind_from_item(item, env, bound)
    if len(items) == 1 and isinstance(items[0], ast.TableRef) and bound.scope.is_complete:
        columns = bound.entries[0].columns or ()
        bound.source = plan.Scan(items[0].name.value, columns, items[0].span)
    return bound


def _bind_from_item(item: ast.FromItem, env: Environment, bound: _From) -> None:
    match item:
        case ast.TableRef():
            relation = env.lookup(item.name)
            if item.column_aliases:
                env.not_supported(
                    "column aliases in FROM",
                    item.column_aliases[0].span.to(item.column_aliases[-1].span),
                )
            if item.over is not None:
                env.not_supported("OVER on a FROM item (windowed joins)", item.over.span)
            if item.as_of is not None:
                env.not_supported("FOR SYSTEM_TIME AS OF", item.as_of.span)
            alias = item.alias or item.name
            description = _describe(relation) if relation else f"'{item.name.value}'"
            columns, index = env.shape_of(relation) if relation else (None, None)
            broken = env.broken_columns.get(item.name.value, frozenset())
            _add_entry(env, bound, alias, description, columns, broken, index)
        case ast.DerivedTable():
            env.not_supported(f"{'LATERAL ' * item.lateral}subqueries in FROM", item.span)
            inner = bind_query(item.query, env)
            alias = item.alias or ast.Identifier("", False, item.span)
            columns = inner.columns if inner else None
            _add_entry(env, bound, alias, f"subquery '{alias.value}'", columns)
        case ast.TableFunction():
            name = item.call.name
            env.not_supported(f"table function {name.value.upper()}", item.span)
            alias = item.alias or name
            _add_entry(env, bound, alias, f"'{alias.value}'", None)
        case ast.Join():
            _bind_join(item, env, bound)


def _bind_join(join: ast.Join, env: Environment, bound: _From) -> None:
    kind = "" if join.kind == "inner" else f"{join.kind.upper()} "
    env.not_supported(f"{'NATURAL ' * join.natural}{kind}JOIN", join.keyword_span)
    first_entry = len(bound.entries)
    _bind_from_item(join.left, env, bound)
    left_entries = Scope(tuple(bound.entries[first_entry:]))
    right_start = len(bound.entries)
    _bind_from_item(join.right, env, bound)
    right_entries = Scope(tuple(bound.entries[right_start:]))
    for name in join.using:
        for side in (left_entries, right_entries):
            if not side.is_opaque and all(e.find(name.value) is None for e in side.entries):
                where = ", ".join(f"'{entry.alias}'" for entry in side.entries)
                env.report(
                    error(
                        Code.UNKNOWN_COLUMN, f"Unknown column '{name.value}' in {where}", name.span
                    )
                )
    if join.condition is not None:
        ctx = ExprContext(
            Scope(tuple(bound.entries[first_entry:])), env.diagnostics, env.suggestions
        )
        condition = bind_expr(join.condition, ctx)
        if condition is not None:
            _check_condition(condition, "ON", env)


def _add_entry(
    env: Environment,
    bound: _From,
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


def _describe(relation: Relation) -> str:
    return f"{relation.kind.value} '{relation.name}'"


# ---------------------------------------------------------------- SELECT


def _bind_select(select: ast.Select, env: Environment) -> BoundQuery | None:
    mark = len(env.diagnostics)
    if select.distinct is not None:
        env.not_supported("SELECT DISTINCT", select.distinct)
    if not select.from_:
        select_keyword = Span(select.span.start, select.span.start + len("select"))
        env.not_supported("SELECT without FROM", select_keyword)
    from_ = _bind_from(select.from_, env)
    ctx = ExprContext(from_.scope, env.diagnostics, env.suggestions)
    condition = None
    if select.where is not None:
        condition = bind_expr(select.where, ctx)
        if condition is not None:
            _check_condition(condition, "WHERE", env)
    for clause, construct in ((select.group_by, "GROUP BY"), (select.having, "HAVING")):
        if clause is not None:
            env.not_supported(construct, clause.span)
    if select.windows_span is not None:
        env.not_supported("WINDOW", select.windows_span)
    items = _bind_items(select.items, ctx, env)
    # Parts can also fail silently (a name of an unknown relation): check them all.
    if env.has_errors_since(mark) or from_.source is None or items is None:
        return None
    if (select.where is None) != (condition is None):
        return None
    rel: plan.Rel = from_.source
    if condition is not None:
        rel = plan.Filter(rel, condition, rel.columns, condition.span)
    exprs, names, spans = items
    fields = tuple(
        plan.Field(name, e.type, e.nullable) for e, name in zip(exprs, names, strict=True)
    )
    if not _is_identity(exprs, fields, rel.columns):
        rel = plan.Project(rel, tuple(exprs), fields, select.span)
    return BoundQuery(rel, tuple(spans))


def _check_condition(condition: plan.Expr, clause: str, env: Environment) -> None:
    if condition.type not in (types.BOOLEAN, types.NULL):
        env.report(
            error(
                Code.TYPE_MISMATCH,
                f"{clause} condition must be BOOLEAN, found {condition.type}",
                condition.span,
            )
        )


def _bind_items(
    items: tuple[ast.SelectItem, ...], ctx: ExprContext, env: Environment
) -> tuple[list[plan.Expr], list[str], list[Span]] | None:
    """The select list's expressions, names and spans; None if any item failed."""
    exprs: list[plan.Expr] = []
    names: list[str] = []
    spans: list[Span] = []
    complete = True
    for item in items:
        if isinstance(item, ast.StarItem):
            refs = _expand_star(item, ctx.scope, env)
            if refs is None:
                complete = False
                continue
            exprs.extend(refs)
            names.extend(ref.name for ref in refs)
            spans.extend(item.span for _ in refs)
            continue
        expr = bind_expr(item.expr, ctx)
        if expr is None:
            complete = False
            continue
        if item.alias is not None:
            name = item.alias.value
        elif isinstance(item.expr, ast.ColumnRef):
            name = item.expr.parts[-1].value
        else:
            name = f"EXPR${len(exprs)}"  # Calcite's name for an unnamed expression
        exprs.append(expr)
        names.append(name)
        spans.append(item.span)
    return (exprs, names, spans) if complete else None


def _expand_star(item: ast.StarItem, scope: Scope, env: Environment) -> list[plan.ColumnRef] | None:
    """The columns `*` or `t.*` stands for; None if they are not all known."""
    if item.qualifier is None:
        entries = scope.entries
    else:
        entry = scope.entry(item.qualifier.value)
        if entry is None:
            report_unknown_qualifier(scope, item.qualifier, env.diagnostics, env.suggestions)
            return None
        entries = (entry,)
    if not Scope(entries).is_complete:
        return None
    return [
        plan.ColumnRef(entry.offset + index, column.name, column.type, column.nullable, item.span)
        for entry in entries
        for index, column in enumerate(entry.columns or ())
    ]


def _is_identity(
    exprs: list[plan.Expr], fields: tuple[plan.Field, ...], inputs: tuple[plan.Field, ...]
) -> bool:
    """A projection that selects every input column, in order, under the same names."""
    return fields == inputs and all(
        isinstance(expr, plan.ColumnRef) and expr.index == position
        for position, expr in enumerate(exprs)
    )


def with_column_names(bound: BoundQuery, names: tuple[str, ...]) -> BoundQuery:
    """Rename the output columns (a view's column list), keeping the plan's shape."""
    fields = tuple(replace(f, name=n) for f, n in zip(bound.columns, names, strict=True))
    rel = bound.rel
    if isinstance(rel, plan.Project):
        return BoundQuery(replace(rel, columns=fields), bound.spans)
    refs = tuple(
        plan.ColumnRef(index, column.name, column.type, column.nullable, rel.span)
        for index, column in enumerate(rel.columns)
    )
    return BoundQuery(plan.Project(rel, refs, fields, rel.span), bound.spans)
