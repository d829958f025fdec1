"""LATERAL subqueries in FROM, and Feldera's CROSS APPLY and OUTER APPLY (the same:
`a CROSS APPLY (q)` is `a CROSS JOIN LATERAL (q)`, `a OUTER APPLY (q)` is `a LEFT
JOIN LATERAL (q) ON TRUE`).

A LATERAL subquery that names no column of the items left of it is an ordinary
subquery. One whose WHERE relates it to them by equalities (`inner = outer`, joined
by AND) is decorrelated, as correlated scalar subqueries are (scalar_subqueries.py):

    a CROSS APPLY (SELECT x, y FROM b WHERE b.k = a.k AND b.y > 0)

is bound as the subquery without the equalities, their inner sides kept as hidden
key columns, joined to `a` on them:

    a JOIN (SELECT x, y, b.k AS key$0 FROM b WHERE b.y > 0) AS s ON a.k = s.key$0

A GROUP BY of the subquery groups by the keys too, so that each row of `a` sees the
groups of its own rows. An aggregate without GROUP BY has one row for each row of
`a`, also where no row matches: it is left-joined, and a bare COUNT of no rows is 0.

A subquery without aggregates or DISTINCT may relate its rows to `a`'s otherwise too
(`b.y < a.x`): those parts of its WHERE become conditions of the join, over the
columns of its FROM, kept as more hidden columns after the keys. Its select list may
name `a`'s columns too (`a.x || b.y`): then its rows are its keys and its FROM's
columns, and its own columns are computed over the joined row. A subquery with
aggregates or DISTINCT that names `a`'s columns outside equalities is computed for
each distinct value of those columns (scalar_subqueries.per_outer_value) and joined
back on them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from backend.compiler.plan import nodes as plan
from backend.compiler.semantic import types
from backend.compiler.semantic.correlation import all_of, syntax_nodes
from backend.compiler.semantic.environment import Environment
from backend.compiler.semantic.expressions import ExprContext, bind_expr
from backend.compiler.semantic.scalar_subqueries import (
    Correlation,
    column_name,
    correlation_of,
    has_aggregates,
    hint_unknown_names,
    is_count,
    per_outer_value,
    written_conjunction,
)
from backend.compiler.semantic.scope import Scope
from backend.compiler.semantic.subqueries import BindFrom, BindQuery, names_outer
from backend.compiler.source import Span
from backend.compiler.syntax import ast

HINT = (
    "a LATERAL subquery names the columns of the items left of it in its WHERE, and in "
    "its select list when it has no aggregate or DISTINCT"
)


@dataclass(frozen=True, slots=True)
class PendingLateral:
    """A correlated LATERAL subquery, decorrelated but not yet joined to the items left of
    it: its rows, each with its keys (the inner sides of the equalities) last."""

    rows: plan.Rel  # its own columns, its keys, then `hidden` columns of its FROM
    outer: tuple[plan.Expr, ...]  # the outer sides of the equalities, over the left's row
    counts: frozenset[int]  # its bare COUNTs, when `always_one`: 0 where no row matches
    always_one: bool  # an aggregate without GROUP BY: a row for every row left of it
    span: Span
    hidden: int = 0  # the columns of its FROM that `conditions` or `items` read
    conditions: tuple[plan.Expr, ...] = ()  # over the left's row, then `rows`'
    # Its own columns when its select list names the left's columns: computed over the
    # left's row, then `rows` (which then are its keys and its FROM's columns only)
    items: tuple[tuple[str, plan.Expr], ...] = ()
    null_safe: bool = False  # keys match IS NOT DISTINCT FROM (`per_outer_value`'s)

    @property
    def own(self) -> int:
        """How many of `rows`' columns are the subquery's own (before its keys)."""
        return len(self.rows.columns) - len(self.outer) - self.hidden

    @property
    def columns(self) -> tuple[plan.Field, ...]:
        """The subquery's own columns (not its keys)."""
        if self.items:
            return tuple(plan.Field(name, expr.type, True) for name, expr in self.items)
        visible = self.rows.columns[: self.own]
        if not self.always_one:
            return visible
        return tuple(replace(f, nullable=i not in self.counts) for i, f in enumerate(visible))


def bind_lateral(
    item: ast.DerivedTable,
    left: Scope,
    left_rel: plan.Rel | None,
    env: Environment,
    binders: tuple[BindQuery, BindFrom],
) -> plan.Rel | PendingLateral | None:
    """The subquery of `item`, over the items left of it (named by `left`; `left_rel`
    their plan, when they have one)."""
    bind_query, bind_from = binders
    query = item.query
    correlation = correlation_of(query, len(left.columns), left, env, bind_from, ordered=True)
    if correlation is None:  # names none of the left's columns (else reported as unknown)
        mark = len(env.diagnostics)
        bound = bind_query(query, env)
        hint_unknown_names(env, mark, HINT)
        return None if bound is None else bound[0]
    body = query.body
    assert isinstance(body, ast.Select)  # correlation_of takes nothing else
    grouped = body.group_by is not None
    aggregated = grouped or any(
        has_aggregates(i.expr) for i in body.items if isinstance(i, ast.ExprItem)
    )
    always_one = aggregated and not grouped
    selected = [i.expr for i in body.items if isinstance(i, ast.ExprItem)]
    outer_items = names_outer(selected, body.from_, left, env, bind_from)
    if (correlation.others or outer_items) and (aggregated or body.distinct is not None):
        return _per_left_value(
            item, left, left_rel, counts(body, always_one), always_one, env, binders
        )
    refused = _refused(body, outer_items)
    if refused is not None:
        env.not_supported(*refused)
        return None
    keys = tuple(
        ast.ExprItem(inner, ast.Identifier(f"key${i}", True, inner.span), inner.span)
        for i, inner in enumerate(correlation.inner)
    )
    group_span = body.where.span if body.where is not None else body.span
    group_by = (
        None
        if not aggregated
        else ast.Clause(
            (*correlation.inner, *(body.group_by.exprs if body.group_by else ())),
            body.group_by.span if body.group_by else group_span,
        )
    )
    if query.limit is not None:
        top = _top_rows(query, correlation, aggregated, body, env)
        if top is None:
            return None
        body = replace(body, qualify=top)
    query = replace(query, order_by=(), order_by_span=None, limit=None)  # each left row's
    from_columns = (ast.StarItem(None, body.span),) if correlation.others or outer_items else ()
    own_items = () if outer_items else body.items
    rewritten = replace(
        body,
        items=(*own_items, *keys, *from_columns),
        where=written_conjunction(correlation.rest),
        group_by=group_by,
    )
    mark = len(env.diagnostics)
    bound = bind_query(replace(query, body=rewritten), env)
    hint_unknown_names(env, mark, HINT)
    if bound is None:
        return None
    lateral = PendingLateral(
        bound[0], correlation.outer, counts(body, always_one), always_one, item.span
    )
    if not from_columns:
        return lateral
    items = [i for i in body.items if isinstance(i, ast.ExprItem)] if outer_items else []
    bound_parts = _over_the_join(
        lateral, (*correlation.others, *(i.expr for i in items)), body.from_, left, env, bind_from
    )
    if bound_parts is None:
        return None
    hidden, parts = bound_parts
    conditions = parts[: len(correlation.others)]
    names = [column_name(i, index) for index, i in enumerate(items)]
    own = tuple(zip(names, parts[len(correlation.others) :], strict=True))
    return replace(lateral, hidden=hidden, conditions=conditions, items=own)


def counts(body: ast.Select, always_one: bool) -> frozenset[int]:
    """The places of a subquery's bare COUNTs: 0 where no row matches, when it has a row
    for every left row."""
    return frozenset(
        index
        for index, i in enumerate(body.items)
        if always_one and isinstance(i, ast.ExprItem) and is_count(i.expr)
    )


def _per_left_value(
    item: ast.DerivedTable,
    left: Scope,
    left_rel: plan.Rel | None,
    counted: frozenset[int],
    always_one: bool,
    env: Environment,
    binders: tuple[BindQuery, BindFrom],
) -> PendingLateral | None:
    """A subquery with aggregates or DISTINCT that names the left's columns outside
    equalities: its rows for each distinct value of those columns (`per_outer_value`),
    joined back on them."""
    query = item.query
    body = query.body
    assert isinstance(body, ast.Select)
    refused = (
        "LIMIT"
        if query.limit is not None
        else "*"
        if not _all_expressions(body.items)
        else "a window function"
        if _windowed(body) is not None
        else None
    )
    if refused is not None or left_rel is None:
        construct = (
            f"{refused or 'this'} in a LATERAL subquery with aggregates or DISTINCT that "
            "names the items left of it outside equalities"
        )
        env.not_supported(construct, item.span)
        return None
    unordered = replace(query, order_by=(), order_by_span=None)
    per_value = per_outer_value(unordered, left_rel, left, env, binders)
    if per_value is None:
        return None
    rows, values = per_value
    return PendingLateral(rows, values, counted, always_one, item.span, null_safe=True)


def _windowed(body: ast.Select) -> ast.FunctionCall | None:
    return next(
        (
            node
            for i in body.items
            if isinstance(i, ast.ExprItem)
            for node in syntax_nodes(i.expr)
            if isinstance(node, ast.FunctionCall) and node.over is not None
        ),
        None,
    )


def _refused(body: ast.Select, outer_items: bool) -> tuple[str, Span] | None:
    """What of a correlated LATERAL subquery is not supported yet, and where."""
    windowed = _windowed(body)
    if windowed is not None:
        return "a window function in a correlated LATERAL subquery", windowed.span
    if body.having is not None and body.group_by is None:
        # Its one row may fail HAVING, also where no row matches: not a join on the keys
        return "HAVING in a correlated LATERAL subquery without GROUP BY", body.having.span
    if outer_items and not _all_expressions(body.items):
        return "* in a LATERAL subquery whose select list names the items left of it", body.span
    return None


def _all_expressions(items: tuple[ast.SelectItem, ...]) -> bool:
    return all(isinstance(i, ast.ExprItem) for i in items)


def _top_rows(
    query: ast.Query,
    correlation: Correlation,
    aggregated: bool,
    body: ast.Select,
    env: Environment,
) -> ast.Expr | None:
    """LIMIT n [OFFSET m] of a correlated LATERAL subquery, each left row's first rows in
    its ORDER BY: QUALIFY ROW_NUMBER() OVER (PARTITION BY its keys ORDER BY ...) in
    (m, m + n]."""
    limit = query.limit
    assert limit is not None
    refused = (
        "LIMIT in a correlated LATERAL subquery with aggregates, DISTINCT, QUALIFY or "
        "relations to the items left of it other than equalities"
        if aggregated or body.distinct or body.qualify or correlation.others
        else None
    )
    if refused is not None:
        env.not_supported(refused, limit.span)
        return None
    count = None if limit.count is None else _whole_number(limit.count)
    offset = 0 if limit.offset is None else _whole_number(limit.offset)
    if (limit.count is not None and count is None) or offset is None:
        env.not_supported(
            "LIMIT or OFFSET of a correlated LATERAL subquery that is not a number", limit.span
        )
        return None
    span = limit.span
    number = ast.FunctionCall(
        ast.Identifier("row_number", False, span),
        (),
        False,
        False,
        None,
        ast.WindowSpec(None, correlation.inner, query.order_by, None, span),
        span,
    )
    first = ast.BinaryOp(">", number, ast.NumberLiteral(str(offset), "integer", span), span, span)
    if count is None:  # OFFSET alone
        return first
    last = ast.BinaryOp(
        "<=", number, ast.NumberLiteral(str(offset + count), "integer", span), span, span
    )
    return ast.BinaryOp("and", first, last, span, span)


def _whole_number(part: ast.Expr) -> int | None:
    """A LIMIT's or OFFSET's number; None for another expression."""
    if isinstance(part, ast.NumberLiteral) and part.kind == "integer":
        return int(part.text)
    return None


def _over_the_join(
    lateral: PendingLateral,
    parts: tuple[ast.Expr, ...],
    from_: tuple[ast.FromItem, ...],
    left: Scope,
    env: Environment,
    bind_from: BindFrom,
) -> tuple[int, tuple[plan.Expr, ...]] | None:
    """`parts` (conditions of the join, select items) bound over the join's row: the
    left's columns, then the subquery's rows, whose last columns (the `*`) are its
    FROM's, as many as the number returned. Those columns may be NULL: an outer join's."""
    inner_scope, inner = bind_from(from_, replace(env, diagnostics=[]))  # bound already
    if inner is None:
        return None
    if any(entry.hidden for entry in inner_scope.entries):  # `*` leaves them out
        env.not_supported(
            "a LATERAL subquery joined with USING that names the items left of it outside "
            "equalities",
            parts[0].span,
        )
        return None
    hidden = len(inner_scope.columns)
    offset = len(left.columns) + len(lateral.rows.columns) - hidden
    shifted = Scope(
        tuple(
            replace(
                e,
                offset=e.offset + offset,
                columns=(
                    None
                    if e.columns is None
                    else tuple(replace(c, nullable=True) for c in e.columns)
                ),
                index=e.index,
            )
            for e in inner_scope.entries
        )
    )
    ctx = ExprContext(shifted, env.diagnostics, env.suggestions, outer=left, functions=env)
    bound = [bind_expr(part, ctx) for part in parts]
    if any(expr is None for expr in bound):
        return None
    return hidden, tuple(expr for expr in bound if expr is not None)


def lateral_join(
    kind: str,
    left: plan.Rel,
    lateral: PendingLateral,
    condition: plan.Expr | None,
    columns: tuple[plan.Field, ...],
    span: Span,
    env: Environment,
) -> plan.Rel | None:
    """The rows left of a LATERAL subquery (`kind` inner or left) joined to its rows of
    the same keys."""
    if isinstance(condition, plan.Literal) and condition.value is True:
        condition = None  # ON TRUE
    if lateral.always_one and kind == "left" and condition is not None:
        env.not_supported(
            "LEFT JOIN LATERAL of an aggregate with an ON condition other than TRUE", span
        )
        return None
    width, own = len(left.columns), lateral.own
    keys = lateral.rows.columns[own : own + len(lateral.outer)]
    same = "is_not_distinct_from" if lateral.null_safe else "eq"
    equalities: list[plan.Expr] = [
        plan.Call(
            same,
            (outer, plan.ColumnRef(width + own + i, key.name, key.type, True, outer.span)),
            types.BOOLEAN,
            not lateral.null_safe,
            outer.span,
        )
        for i, (outer, key) in enumerate(zip(lateral.outer, keys, strict=True))
    ]
    outer_join = kind == "left" or lateral.always_one
    parts = [*equalities, *lateral.conditions]
    if condition is not None and kind == "left":  # ON's: a row matching none is kept
        parts.append(condition)
    on = all_of(parts)
    right = (
        lateral.rows.columns
        if not outer_join
        else tuple(replace(f, nullable=True) for f in lateral.rows.columns)
    )
    rel: plan.Rel = plan.Join(
        "left" if outer_join else "inner", left, lateral.rows, on, (*left.columns, *right), span
    )
    if condition is not None and kind == "inner":
        rel = plan.Filter(rel, condition, rel.columns, span)
    exprs: list[plan.Expr] = []
    for index, field in enumerate(rel.columns[: width + own]):
        ref: plan.Expr = plan.ColumnRef(index, field.name, field.type, field.nullable, span)
        if index - width in lateral.counts:
            zero = plan.Literal(0, field.type, False, span)
            ref = plan.Call("coalesce", (ref, zero), field.type, False, span)
        exprs.append(ref)
    exprs.extend(expr for _, expr in lateral.items)
    return plan.Project(rel, tuple(exprs), columns, span)
