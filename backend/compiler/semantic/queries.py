"""Binding queries: SELECT, set operations, VALUES and WITH into plan relations.

A SELECT becomes FROM (scans, joins, subqueries) -> Filter (WHERE) ->
Aggregate (GROUP BY, aggregates) -> Filter (HAVING) -> Project -> Distinct.
Constructs not compiled yet are reported as SQL401 at their own span, and their
parts are still bound so that unknown names and type errors inside are reported.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from backend.compiler.diagnostics import Code, Diagnostic, error
from backend.compiler.plan import nodes as plan
from backend.compiler.semantic import types
from backend.compiler.semantic.aliases import grouping_key, with_aliases, with_earlier_aliases
from backend.compiler.semantic.environment import Environment
from backend.compiler.semantic.expressions import ExprContext, bind_expr
from backend.compiler.semantic.from_clause import bind_from
from backend.compiler.semantic.grouping import (
    Grouping,
    distinct_keys,
    grouped_only_calls,
    hopped,
    needs_grouping,
    written_keys,
)
from backend.compiler.semantic.pushdown import pushed_into_joins
from backend.compiler.semantic.recursion import bind_recursive, reads_itself
from backend.compiler.semantic.rows import row_fields
from backend.compiler.semantic.scalar_subqueries import (
    Scalars,
    has_aggregates,
    in_aggregate_arguments,
    join_scalars,
    scalar_subqueries,
)
from backend.compiler.semantic.scope import (
    Scope,
    ScopeEntry,
    report_unknown_qualifier,
    row_column,
)
from backend.compiler.semantic.sessions import sessioned
from backend.compiler.semantic.set_operations import bind_set_operation, bind_values
from backend.compiler.semantic.sorting import (
    bind_sort,
    keys_from_the_from,
    keys_of_the_output,
    without_hidden,
)
from backend.compiler.semantic.subqueries import (
    bind_subquery_condition,
    conjuncts,
    is_subquery_condition,
)
from backend.compiler.semantic.windows import WindowCalls, named_windows
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
    saved = dict(env.ctes)
    _bind_with(query, env)
    body = _bind_body(query.body, env)
    order_by, hidden = query.order_by, 0
    if body is not None and isinstance(query.body, ast.Select) and query.body.distinct is None:
        select, order_by, hidden = keys_from_the_from(query.body, order_by, body.rel, env)
        if hidden:  # bound again, with a column for each key its output does not have
            body = _bind_select(select, env)
    elif body is not None and isinstance(query.body, ast.Select):  # SELECT DISTINCT
        order_by = keys_of_the_output(query.body, order_by)
    env.ctes = saved
    if body is not None and (order_by or query.limit is not None):
        if order_by and is_stream(query):
            _check_order_later(order_by[0], body, env)
        sort = bind_sort(order_by, query.limit, body.rel, query.span, env)
        spans = body.spans[: len(body.spans) - hidden]
        body = None if sort is None else BoundQuery(without_hidden(sort, hidden), spans)
    return None if env.has_errors_since(mark) else body


# The passes after binding recurse over the plan: deeper plans are reported (SQL105).
MAX_PLAN_DEPTH = 200
MAX_PLAN_SIZE = 20_000


def bind_statement_query(query: ast.Query, env: Environment) -> BoundQuery | None:
    """`bind_query` for a whole statement's query, with the plan's depth and size checked."""
    bound = bind_query(query, env)
    if bound is None:
        return None
    depth, size = _depth_and_size(bound.rel)
    if depth > MAX_PLAN_DEPTH:
        message = f"Query nested deeper than {MAX_PLAN_DEPTH} operators"
    elif size > MAX_PLAN_SIZE:
        message = f"Query of more than {MAX_PLAN_SIZE} operators (WITH queries are inlined)"
    else:
        return bound
    env.report(error(Code.TOO_DEEP, message, query.span))
    return None


def _depth_and_size(root: plan.Rel) -> tuple[int, int]:
    """The plan's depth and its size as a tree, without recursion; a shared
    subplan (a WITH query used twice) is visited once."""
    done: dict[int, tuple[int, int]] = {}
    stack: list[tuple[plan.Rel, bool]] = [(root, False)]
    while stack:
        rel, expanded = stack.pop()
        if id(rel) in done:
            continue
        children = plan.children(rel)
        if expanded:
            results = [done[id(child)] for child in children]
            depth = 1 + max((d for d, _ in results), default=0)
            done[id(rel)] = (depth, min(1 + sum(s for _, s in results), MAX_PLAN_SIZE + 1))
            continue
        stack.append((rel, True))
        stack.extend((child, False) for child in children if id(child) not in done)
    return done[id(root)]


def is_stream(query: ast.Query) -> bool:
    """Whether the query is written `SELECT STREAM` (any SELECT of a set operation)."""
    stack: list[ast.QueryBody] = [query.body]
    while stack:
        body = stack.pop()
        match body:
            case ast.Select():
                if body.stream:
                    return True
            case ast.SetOperation():
                stack.extend((body.left, body.right))
            case ast.Query():
                stack.append(body.body)
    return False


def _check_order_later(item: ast.OrderItem, body: BoundQuery, env: Environment) -> None:
    """Record the leading ORDER BY key of a streaming query, bound over its output
    columns, for the streaming pass (SQL306). A key that does not bind is skipped."""
    entry = ScopeEntry("", item.span, "the query", body.columns, 0)
    scratch: list[Diagnostic] = []
    key = bind_expr(
        item.expr, ExprContext(Scope((entry,)), scratch, env.suggestions, functions=env)
    )
    if key is not None and not scratch:
        env.order_checks.append(plan.OrderCheck(body.rel, key, item.expr.span))


def _bind_subquery(query: ast.Query, env: Environment) -> tuple[plan.Rel, tuple[Span, ...]] | None:
    bound = bind_query(query, env)
    return None if bound is None else (bound.rel, bound.spans)


def _bind_with(query: ast.Query, env: Environment) -> None:
    """Each WITH query is visible to the later ones and to the body."""
    for cte in query.with_:
        if cte.recursive and reads_itself(cte):
            recursive = bind_recursive(cte, env, _bind_body_parts)
            env.ctes[cte.name.value] = recursive
            continue
        bound = bind_query(cte.query, env)
        if bound is not None and cte.columns:
            if len(cte.columns) != len(bound.columns):
                env.report(
                    error(
                        Code.COLUMN_COUNT,
                        f"'{cte.name.value}' names {len(cte.columns)} columns "
                        f"but its query produces {len(bound.columns)}",
                        cte.columns[0].span.to(cte.columns[-1].span),
                    )
                )
                bound = None
            else:
                bound = with_column_names(bound, tuple(c.value for c in cte.columns))
        env.ctes[cte.name.value] = None if bound is None else (bound.rel, bound.spans)


def _bind_body(body: ast.QueryBody, env: Environment) -> BoundQuery | None:
    match body:
        case ast.Select():
            return _bind_select(body, env)
        case ast.Query():
            return bind_query(body, env)
        case ast.SetOperation():
            bound = bind_set_operation(body, env, _bind_body_parts)
            return None if bound is None else BoundQuery(*bound)
        case ast.Values():
            values = bind_values(body, env)
            return None if values is None else BoundQuery(*values)


def _bind_body_parts(
    body: ast.QueryBody, env: Environment
) -> tuple[plan.Rel, tuple[Span, ...]] | None:
    bound = _bind_body(body, env)
    return None if bound is None else (bound.rel, bound.spans)


# ---------------------------------------------------------------- SELECT


def _bind_select(select: ast.Select, env: Environment) -> BoundQuery | None:
    mark = len(env.diagnostics)
    named = named_windows(select, env.diagnostics)
    from_ = bind_from(select.from_, env, _bind_subquery, named)
    if not select.from_:
        # SELECT without FROM reads one row of no columns (a constant, like VALUES).
        select_keyword = Span(select.span.start, select.span.start + len("select"))
        from_.source = plan.Values(((),), (), select_keyword)
    scope = from_.scope
    select = with_earlier_aliases(select, scope)
    condition: list[plan.Expr] | None = None  # WHERE's parts, bound
    where_parts = conjuncts(select.where) if select.where is not None else []
    plain = [part for part in where_parts if not is_subquery_condition(part)]
    having_exprs = list(select.having.exprs) if select.having is not None else []
    selected = [item.expr for item in select.items if not isinstance(item, ast.StarItem)]
    in_output = scalar_subqueries([*selected, *having_exprs])
    in_where = scalar_subqueries(list(plain))
    over_aggregates = [
        q
        for q in in_output
        if isinstance(q, ast.InSubquery | ast.QuantifiedComparison) and has_aggregates(q.operand)
    ]
    if over_aggregates:  # x is bound over the FROM's rows, then grouped by (a hidden key)
        construct = "IN, ANY or ALL (subquery) of an aggregate"
        env.not_supported(construct, over_aggregates[0].span)
        return None
    scalars: Scalars = {}
    correlated: dict[Span, tuple[plan.Expr, ...]] = {}
    from_width = len(from_.source.columns) if from_.source is not None else 0
    if from_.source is not None and (in_where or in_output):
        joined = join_scalars(
            [*in_where, *in_output],
            from_.source,
            scope,
            env,
            (_bind_subquery, _bind_inner_from),
        )
        if joined is None:
            return None
        from_.source, scalars, correlated = joined.rel, joined.values, joined.outer
    semi_joins: list[plan.SemiJoin | None] = []
    if plain:
        ctx = ExprContext(
            scope,
            env.diagnostics,
            env.suggestions,
            aggregate_clause="WHERE",
            scalars=scalars,
            functions=env,
        )
        bound_parts = [bind_expr(part, ctx) for part in plain]
        if None not in bound_parts:
            present = [p for p in bound_parts if p is not None]
            for part in present:
                _check_condition(part, "WHERE", env)
            condition = present
    if from_.source is not None:
        for written in where_parts:
            if is_subquery_condition(written):
                semi_joins.append(
                    bind_subquery_condition(
                        written, from_.source, scope, env, _bind_subquery, _bind_inner_from
                    )
                )
    keys: list[plan.Expr | None] = []
    sets: list[list[int]] | None = None
    if select.group_by is not None:
        ctx = ExprContext(
            scope,
            env.diagnostics,
            env.suggestions,
            aggregate_clause="GROUP BY",
            group_by=True,
            functions=env,
        )
        grouped_by, sets = written_keys(select.group_by.exprs)
        for written in grouped_by:
            meant = grouping_key(written, select.items, scope, env.diagnostics)
            keys.append(None if meant is None else bind_expr(meant, ctx))
    collected: list[plan.AggCall] = []
    width = len(from_.source.columns) if from_.source is not None else 0
    # Whether the SELECT groups, as written: its windows are then over its groups. (Once
    # bound, `grouped` below says it from the aggregates found.)
    groups_as_written = select.group_by is not None or select.having is not None
    groups_as_written = groups_as_written or any(map(has_aggregates, selected))
    windows = WindowCalls(width, named, groups_as_written)
    ctx = ExprContext(
        scope,
        env.diagnostics,
        env.suggestions,
        aggregates=collected,
        windows=windows,
        scalars=scalars,
        functions=env,
    )
    items = _bind_items(select.items, ctx, env)
    qualify = None
    if select.qualify is not None:
        written = with_aliases(select.qualify, select.items, scope)
        qualify = bind_expr(written, replace(ctx, aggregate_clause="QUALIFY"))
        if qualify is not None:
            _check_condition(qualify, "QUALIFY", env)
    having = None
    if select.having is not None:
        having_ctx = replace(ctx, windows=None)  # HAVING is before the window functions
        having = bind_expr(select.having.exprs[0], having_ctx) if select.having.exprs else None
        if having is not None:
            _check_condition(having, "HAVING", env)
    # Parts can also fail silently (a name of an unknown relation): check them all.
    if env.has_errors_since(mark) or from_.source is None or items is None:
        return None
    if (bool(plain) != (condition is not None)) or None in keys or None in semi_joins:
        return None
    if (select.having is None) != (having is None) or (select.qualify is None) != (qualify is None):
        return None
    # WHERE's conditions that join two inputs of the FROM become those joins' conditions.
    rel, kept = pushed_into_joins(from_.source, condition or [], from_width)
    for semi_join in semi_joins:
        assert semi_join is not None
        rel = replace(semi_join, left=rel)
    if kept:
        where = _all_of(kept)
        rel = plan.Filter(rel, where, rel.columns, where.span)
    exprs, names, spans = items
    grouped = select.group_by is not None or bool(collected) or having is not None
    if windows.calls and not grouped:
        rel = windows.node(rel, select.span)
    if qualify is not None and not grouped:
        rel = plan.Filter(rel, qualify, rel.columns, qualify.span)
    if grouped:
        # A value inside an aggregate's arguments is one of each row it reads; one outside
        # is a value of the groups.
        read_by_aggregates = in_aggregate_arguments([*selected, *having_exprs])
        in_output = [q for q in in_output if q.span not in read_by_aggregates]
        if select.group_by is None and in_output:
            env.not_supported(
                "a scalar subquery in the SELECT list or HAVING of an aggregate without GROUP BY",
                in_output[0].span,
            )
            return None
        # A scalar subquery's value is the same in every row of a group (an uncorrelated
        # one's in every row; a correlated one's where the outer values it compares
        # with are grouping keys, checked below): grouping by it changes no group, and
        # lets the select list and HAVING use it.
        for subquery in in_output:
            if sets is not None:  # in every set
                sets = [[*chosen, len(keys)] for chosen in sets]
            keys.append(scalars[subquery.span])
        distinct_sets = select.group_by is not None and select.group_by.distinct
        unique, unique_sets = distinct_keys([k for k in keys if k is not None], sets, distinct_sets)
        hopping = hopped(rel, unique, env.diagnostics)
        if hopping is None:
            return None
        rel, unique, hop_key = hopping
        in_sessions = sessioned(rel, unique, unique_sets is not None, env.diagnostics)
        if in_sessions is None:
            return None
        rel, unique, session_keys = in_sessions
        window_keys = {**hop_key, **session_keys}
        grouping = Grouping(
            unique, collected, env.diagnostics, unique_sets, window_keys, windows.columns
        )
        for subquery in in_output:  # reports an outer value that is not a grouping key
            for outer_value in correlated.get(subquery.span, ()):
                grouping.lift(outer_value)
        over_groups = windows.over_groups(grouping)
        lifted = [grouping.lift(expr) for expr in exprs]
        lifted_having = None if having is None else grouping.lift(having)
        lifted_qualify = None if qualify is None else grouping.lift(qualify)
        if env.has_errors_since(mark) or over_groups is None:
            return None
        rel = grouping.node(rel, select.group_by.span if select.group_by else select.span)
        if lifted_having is not None:
            rel = plan.Filter(rel, lifted_having, rel.columns, lifted_having.span)
        if over_groups:
            rel = windows.node(rel, select.span, over_groups)
        if lifted_qualify is not None:
            kept_rows = grouping.placed(lifted_qualify)
            rel = plan.Filter(rel, kept_rows, rel.columns, kept_rows.span)
        exprs = [grouping.placed(expr) for expr in lifted if expr is not None]
    else:
        for call in (call for expr in exprs for call in grouped_only_calls(expr)):
            env.report(needs_grouping(call))
        if env.has_errors_since(mark):
            return None
    fields = tuple(
        plan.Field(name, e.type, e.nullable) for e, name in zip(exprs, names, strict=True)
    )
    if not _is_identity(exprs, fields, rel.columns):
        rel = plan.Project(rel, tuple(exprs), fields, select.span)
    if select.distinct is not None:
        rel = plan.Distinct(rel, rel.columns, select.distinct)
    return BoundQuery(rel, tuple(spans))


def _all_of(parts: list[plan.Expr]) -> plan.Expr:
    """The conjunction of WHERE's parts (kept as one balanced `and`)."""
    if len(parts) == 1:
        return parts[0]
    middle = len(parts) // 2
    left, right = _all_of(parts[:middle]), _all_of(parts[middle:])
    nullable = left.nullable or right.nullable
    return plan.Call("and", (left, right), types.BOOLEAN, nullable, left.span.to(right.span))


def _bind_inner_from(
    items: tuple[ast.FromItem, ...], env: Environment
) -> tuple[Scope, plan.Rel | None]:
    inner = bind_from(items, env, _bind_subquery)
    return inner.scope, inner.source


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
            expanded = _expand_star(item, ctx.scope, env)
            if expanded is None:
                complete = False
                continue
            exprs.extend(expr for expr, _ in expanded)
            names.extend(name for _, name in expanded)
            spans.extend(item.span for _ in expanded)
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


def _expand_star(
    item: ast.StarItem, scope: Scope, env: Environment
) -> list[tuple[plan.Expr, str]] | None:
    """The columns `*` or `t.*` stands for, or the fields of a ROW column for
    `payload.*`, with their names; None if they are not all known."""
    if item.qualifier is None:
        entries = scope.entries
    else:
        entry = scope.entry(item.qualifier.value)
        if entry is None:
            column = row_column(scope, item.qualifier)
            if column is not None:
                return row_fields(column, item.span)
            report_unknown_qualifier(scope, item.qualifier, env.diagnostics, env.suggestions)
            return None
        entries = (entry,)
    if not Scope(entries).is_complete:
        return None
    columns = [
        (entry, index, column)
        for entry in entries
        for index, column in enumerate(entry.columns or ())
        if item.qualifier is not None or column.name not in entry.hidden
    ]
    excluded = set()
    for ref in item.excluded:  # `* EXCLUDE (a, t.b)`: a name may come twice
        name, qualifier = ref.parts[-1].value, ref.parts[:-1]
        named = {
            position
            for position, (entry, _, column) in enumerate(columns)
            if column.name == name and (not qualifier or qualifier[-1].value == entry.alias)
        }
        if not named:
            message = f"No column '{ref.parts[-1].value}' for * to leave out"
            env.report(error(Code.UNKNOWN_COLUMN, message, ref.span))
            return None
        excluded |= named
    columns = [c for position, c in enumerate(columns) if position not in excluded]
    return [
        (
            plan.ColumnRef(
                entry.offset + index, column.name, column.type, column.nullable, item.span
            ),
            column.name,
        )
        for entry, index, column in columns
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
