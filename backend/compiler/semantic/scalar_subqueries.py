"""Scalar subqueries: `(SELECT MAX(x) FROM t)` as a value in WHERE, the SELECT list
or HAVING; and EXISTS as a value there (not a part of WHERE joined by AND, which is
a semi-join: subqueries.py): `(SELECT COUNT(*) FROM ... WHERE ...) > 0`.

One that names no column of the outer query (uncorrelated) is bound on its own,
and must return one column and at most one row: an aggregate without GROUP BY, a
query with LIMIT 1, one row of VALUES. Unless it always has exactly one row (an
aggregate without GROUP BY or HAVING), its rows are left-joined to one empty row,
so that the value is NULL when the subquery has no row, as in SQL. That one row is
joined to every row of the FROM as one more column, after the FROM's own; the
subquery in the expression is a reference to that column. When the value
changes, every row that uses it changes with it.

In a SELECT with GROUP BY, the value is one more (hidden) grouping key where the
select list or HAVING uses it: it is the same in every row, so the groups stay
the same.

A correlated one, an aggregate whose WHERE relates its columns to the outer
query's by equalities (`(SELECT MAX(y) FROM u WHERE u.k = t.k AND y > 0)`), is
decorrelated: the subquery grouped by its sides of the equalities
(`SELECT u.k, MAX(y) FROM u WHERE y > 0 GROUP BY u.k`) is left-joined to the
FROM's rows on them, so a row that matches no group has NULL, as the aggregate of
no rows is; a bare COUNT is 0 then instead.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any, TypeGuard

from backend.compiler.diagnostics import Code, error
from backend.compiler.plan import nodes as plan
from backend.compiler.semantic import aggregates, types
from backend.compiler.semantic.correlation import all_of, syntax_nodes
from backend.compiler.semantic.environment import Environment
from backend.compiler.semantic.expressions import ExprContext, bind_expr
from backend.compiler.semantic.named_rows import bind_reading
from backend.compiler.semantic.scope import Scope, resolve_column
from backend.compiler.semantic.subqueries import (
    BindFrom,
    BindQuery,
    compared_value,
    conjuncts,
    correlated_tests,
    names_outer,
)
from backend.compiler.source import Span
from backend.compiler.syntax import ast

Scalars = dict[Span, plan.Expr]  # a subquery's span -> its value, over the joined row


# A subquery with a value in an expression: a scalar subquery, EXISTS, and x [NOT] IN
# (SELECT ...), x op ANY | ALL (SELECT ...) (subqueries.compared_value).


def scalar_subqueries(exprs: list[ast.Expr | None]) -> list[ast.QueryValue]:
    """The subqueries with a value written in `exprs` (not those inside other
    subqueries)."""
    return [node for expr in exprs if expr is not None for node in _subqueries(expr)]


def _subqueries(expr: ast.Expr) -> Iterator[ast.QueryValue]:
    for node in syntax_nodes(expr):
        if isinstance(node, ast.QueryValue):
            yield node


def _exists(
    exists: ast.Exists,
    rel: plan.Rel,
    scope: Scope,
    env: Environment,
    binders: tuple[BindQuery, BindFrom],
) -> tuple[plan.Rel, plan.Expr, tuple[plan.Expr, ...]] | None:
    """`rel` joined with the count of `exists`'s rows; whether that count is above 0;
    the outer row's values it compares with (none when uncorrelated)."""
    counted = _counted(exists)
    if counted is None:
        env.not_supported(
            "EXISTS as a value over a query with GROUP BY, DISTINCT or LIMIT", exists.span
        )
        return None
    joined = join_scalars([counted], rel, scope, env, binders)
    if joined is None:
        return None
    zero = plan.Literal(0, types.BIGINT, False, exists.span)
    count = joined.values[counted.span]
    exists_value = plan.Call("gt", (count, zero), types.BOOLEAN, False, exists.span)
    return joined.rel, exists_value, joined.outer.get(counted.span, ())


def _decided(
    written: ast.InSubquery | ast.QuantifiedComparison,
    tests: tuple[ast.Exists, ast.Exists],
    rel: plan.Rel,
    scope: Scope,
    env: Environment,
    binders: tuple[BindQuery, BindFrom],
) -> tuple[plan.Rel, plan.Expr, tuple[plan.Expr, ...]] | None:
    """A correlated IN, ANY or ALL as a value: TRUE (ALL: FALSE) where a row decides it,
    else NULL where a row makes the comparison UNKNOWN, else FALSE (ALL: TRUE); NOT IN
    is NOT of IN."""
    deciding, unknown = tests
    first = _exists(deciding, rel, scope, env, binders)
    if first is None:
        return None
    second = _exists(unknown, first[0], scope, env, binders)
    if second is None:
        return None
    every = isinstance(written, ast.QuantifiedComparison) and written.quantifier == "all"
    span = written.span
    decided = plan.Literal(not every, types.BOOLEAN, False, span)
    open_ = plan.Literal(None, types.BOOLEAN, True, span)
    otherwise = plan.Literal(every, types.BOOLEAN, False, span)
    value: plan.Expr = plan.Case(
        ((first[1], decided), (second[1], open_)), otherwise, types.BOOLEAN, True, span
    )
    if isinstance(written, ast.InSubquery) and written.negated:
        value = plan.Call("not", (value,), types.BOOLEAN, True, span)
    return second[0], value, (*first[2], *second[2])


def _array_of(
    array: ast.ArraySubquery,
    rel: plan.Rel,
    scope: Scope,
    env: Environment,
    binders: tuple[BindQuery, BindFrom],
) -> tuple[plan.Rel, plan.Expr, tuple[plan.Expr, ...]] | None:
    """`rel` joined with the values of `ARRAY(SELECT x ...)` aggregated into an ARRAY (an
    empty one where the query has no row); the outer row's values it compares with. Of
    several columns, `ARRAY(SELECT a, b ...)`, it is an ARRAY of ROWs with their names."""
    aggregated = _aggregated(array)
    if aggregated is None:
        env.not_supported(
            "ARRAY(subquery) of other than plain columns or expressions (no aggregate, "
            "GROUP BY, DISTINCT or LIMIT)",
            array.span,
        )
        return None
    subquery, names = aggregated
    joined = join_scalars([subquery], rel, scope, env, binders)
    if joined is None:
        return None
    values = joined.values[subquery.span]
    element = values.type.element
    if names and element is not None:  # the ROWs' fields named as the query's columns
        fields = tuple(
            types.RowField(name, field.type, field.nullable)
            for name, field in zip(names, element.fields, strict=True)
        )
        named = types.array_of(types.row(fields))
        values = plan.Cast(values, named, values.nullable, array.span)
    empty = plan.Call("array", (), values.type, False, array.span)
    value = plan.Call("coalesce", (values, empty), values.type, False, array.span)
    return joined.rel, value, joined.outer.get(subquery.span, ())


def _aggregated(array: ast.ArraySubquery) -> tuple[ast.Subquery, tuple[str, ...]] | None:
    """`ARRAY(SELECT x FROM ... [ORDER BY k])` as the scalar subquery `(SELECT
    ARRAY_AGG(x [ORDER BY k]) FROM ...)`, and of several columns `ARRAY_AGG((a, b))` with
    the columns' names (none for one); None for a query not of that form."""
    query, body = array.query, _plain_select(array.query)
    if body is None:
        return None
    items = [item for item in body.items if isinstance(item, ast.ExprItem)]
    if len(items) < len(body.items) or any(has_aggregates(item.expr) for item in items):
        return None
    span = Span(items[0].span.start, items[-1].span.end)
    names: tuple[str, ...] = ()
    if len(items) == 1:
        arg = items[0].expr
    else:
        arg = ast.RowConstructor(tuple(item.expr for item in items), span)
        names = tuple(column_name(item, index) for index, item in enumerate(items))
    aggregate = _call("array_agg", (arg,), span, order_by=query.order_by)
    body = replace(body, items=(ast.ExprItem(aggregate, None, span),))
    unordered = replace(query, body=body, order_by=(), order_by_span=None)
    return ast.Subquery(unordered, array.span), names


def column_name(item: ast.ExprItem, index: int) -> str:
    """A select item's name: its alias, or the column it is, or Calcite's EXPR$n."""
    if item.alias is not None:
        return item.alias.value
    if isinstance(item.expr, ast.ColumnRef):
        return item.expr.parts[-1].value
    return f"EXPR${index}"


def _counted(exists: ast.Exists) -> ast.Subquery | None:
    """`EXISTS (SELECT ... FROM ... WHERE ...)` as the count of its rows,
    `(SELECT COUNT(*) FROM ... WHERE ...)`; None for a query that is not of that form."""
    query, body = exists.query, _plain_select(exists.query)
    if body is None:
        return None
    item = ast.ExprItem(_call("count", (), body.span, star=True), None, body.span)
    return ast.Subquery(replace(query, body=replace(body, items=(item,))), exists.span)


def _call(
    name: str,
    args: tuple[ast.Expr, ...],
    span: Span,
    star: bool = False,
    order_by: tuple[ast.OrderItem, ...] = (),
) -> ast.FunctionCall:
    """A call a subquery is rewritten with (`COUNT(*)`, `ARRAY_AGG(x ORDER BY k)`, ...)."""
    identifier = ast.Identifier(name, False, span)
    return ast.FunctionCall(identifier, args, False, star, None, None, span, order_by)


def _plain_select(query: ast.Query) -> ast.Select | None:
    """The query's SELECT when it has no WITH, LIMIT, DISTINCT, GROUP BY, HAVING or WINDOW:
    rows of its FROM and WHERE, each as it is."""
    body = query.body
    plain = (
        isinstance(body, ast.Select)
        and not query.with_
        and query.limit is None
        and body.distinct is None
        and body.group_by is None
        and body.having is None
        and not body.windows
    )
    return body if plain and isinstance(body, ast.Select) else None


@dataclass(frozen=True, slots=True)
class JoinedScalars:
    """A FROM joined with the values of its subqueries."""

    rel: plan.Rel
    values: Scalars  # each value, as an expression over `rel`'s row
    # A subquery's span -> the outer row's values it compares with (a correlated one's,
    # and x of x IN (SELECT ...)): its value depends on them (in a grouped SELECT, they
    # must be grouping keys).
    outer: dict[Span, tuple[plan.Expr, ...]]


def join_scalars(
    subqueries: list[ast.QueryValue],
    source: plan.Rel,
    scope: Scope,
    env: Environment,
    binders: tuple[BindQuery, BindFrom],
) -> JoinedScalars | None:
    """`source` (whose names are `scope`) joined with the value of each subquery; None
    after reporting a subquery that cannot be a value."""
    rel = source
    scalars: Scalars = {}
    outer: dict[Span, tuple[plan.Expr, ...]] = {}
    complete = True
    for written in subqueries:
        joined = _value_joined(written, rel, scope, env, binders)
        if joined is None:
            complete = False
        else:
            rel, scalars[written.span], outer[written.span] = joined
    return JoinedScalars(rel, scalars, outer) if complete else None


def _value_joined(
    written: ast.QueryValue,
    rel: plan.Rel,
    scope: Scope,
    env: Environment,
    binders: tuple[BindQuery, BindFrom],
) -> tuple[plan.Rel, plan.Expr, tuple[plan.Expr, ...]] | None:
    """`rel` joined with what the value of one subquery needs, the value over the joined
    row, and the outer row's values it depends on; None after a report."""
    if isinstance(written, ast.Exists):  # an aggregate's value, then
        return _exists(written, rel, scope, env, binders)
    if isinstance(written, ast.ArraySubquery):
        return _array_of(written, rel, scope, env, binders)
    if isinstance(written, ast.InSubquery | ast.QuantifiedComparison):
        tests = correlated_tests(written, scope, env, binders[1])
        if tests is not None:
            return _decided(written, tests, rel, scope, env, binders)
        valued = compared_value(written, rel, scope, env, binders[0])
        if valued is None:
            return None
        joined, value, compared = valued
        return joined, value, (compared,)
    correlation = correlation_of(written.query, len(rel.columns), scope, env, binders[1])
    if correlation is not None:
        return _decorrelated(written, rel, scope, correlation, env, binders)
    subquery = _value(written, env, binders[0])
    if subquery is None:
        return None
    field = subquery.columns[0]
    value = plan.ColumnRef(len(rel.columns), field.name, field.type, field.nullable, written.span)
    joined = plan.Join("inner", rel, subquery, None, (*rel.columns, field), written.span)
    return joined, value, ()


@dataclass(frozen=True, slots=True)
class Correlation:
    """How a subquery's WHERE relates it to the outer row: `inner[i] = outer[i]`, and
    the parts that name only its own columns (`rest`); the parts that relate them
    otherwise (`others`: `t.y < x.k`)."""

    inner: tuple[ast.Expr, ...]  # as written, over the subquery's FROM
    outer: tuple[plan.Expr, ...]  # bound, over the outer row
    rest: tuple[ast.Expr, ...]
    others: tuple[ast.Expr, ...]

    @property
    def problem(self) -> ast.Expr | None:
        """The first part that is no equality of an inner and an outer side."""
        return self.others[0] if self.others else None


def correlation_of(
    query: ast.Query,
    width: int,
    scope: Scope,
    env: Environment,
    bind_from: BindFrom,
    ordered: bool = False,
) -> Correlation | None:
    """How `query` names the outer row's columns (`scope`, of `width` columns); None if
    it names none (or is not of the form `SELECT e FROM ... WHERE ...` whose WHERE
    could). `ordered`: the query may have ORDER BY and LIMIT (a LATERAL subquery's)."""
    body = query.body
    if not (
        isinstance(body, ast.Select)
        and not query.with_
        and (ordered or (not query.order_by and _no_limit(query.limit)))
        and body.from_
        and body.where is not None
        and (body.group_by is None or not body.group_by.distinct)
        and not body.windows
    ):
        return None
    # A trial binding, silent: the query is bound for real (and reports) later.
    trial = replace(env, diagnostics=[])
    inner_scope, inner = bind_from(body.from_, trial)
    if inner is None:
        return None
    shifted = tuple(replace(e, offset=e.offset + width) for e in inner_scope.entries)
    ctx = ExprContext(
        Scope(shifted), trial.diagnostics, trial.suggestions, outer=scope, functions=trial
    )
    inner_sides: list[ast.Expr] = []
    outer_sides: list[plan.Expr] = []
    rest: list[ast.Expr] = []
    others: list[ast.Expr] = []
    for part in conjuncts(body.where):
        bound = bind_expr(part, ctx)
        if bound is None:
            return None
        sides = _sides(bound, width)
        if "outer" not in sides:
            rest.append(part)
        elif isinstance(part, ast.BinaryOp) and part.op == "=" and isinstance(bound, plan.Call):
            left, right = bound.args
            if _sides(left, width) == {"inner"} and _sides(right, width) == {"outer"}:
                inner_sides.append(part.left)
                outer_sides.append(right)
            elif _sides(left, width) == {"outer"} and _sides(right, width) == {"inner"}:
                inner_sides.append(part.right)
                outer_sides.append(left)
            else:
                others.append(part)
        else:
            others.append(part)
    if not inner_sides and not others:
        return None
    return Correlation(tuple(inner_sides), tuple(outer_sides), tuple(rest), tuple(others))


def _no_limit(limit: ast.Limit | None) -> bool:
    """No LIMIT, or one that keeps the one value of an aggregate (`LIMIT 1`: Calcite's
    FoodmartBaseTests.limitTests)."""
    if limit is None:
        return True
    count = limit.count
    return (
        limit.offset is None
        and isinstance(count, ast.NumberLiteral)
        and count.kind == "integer"
        and int(count.text) >= 1
    )


def _same_column(a: ast.Expr, b: ast.Expr) -> bool:
    """Whether two column names written in the subquery name one column (by its name,
    `deptno` and `emp.deptno`)."""
    return (
        isinstance(a, ast.ColumnRef)
        and isinstance(b, ast.ColumnRef)
        and a.parts[-1].value == b.parts[-1].value
        and (len(a.parts) == 1 or len(b.parts) == 1 or a.parts[-2].value == b.parts[-2].value)
    )


def _sides(expr: plan.Expr, width: int) -> set[str]:
    """Which rows `expr` reads: the outer row's columns come first, then the subquery's."""
    return {"outer" if index < width else "inner" for index in plan.columns_read(expr)}


def _decorrelated(
    subquery: ast.Subquery,
    rel: plan.Rel,
    scope: Scope,
    correlation: Correlation,
    env: Environment,
    binders: tuple[BindQuery, BindFrom],
) -> tuple[plan.Rel, plan.Expr, tuple[plan.Expr, ...]] | None:
    """`rel` left-joined to the subquery grouped by its correlated columns; the value;
    the outer values it depends on."""
    subquery = _single_valued(subquery) or subquery
    body = subquery.query.body
    assert isinstance(body, ast.Select)
    item = body.items[0] if len(body.items) == 1 else None
    if not isinstance(item, ast.ExprItem) or not has_aggregates(item.expr):
        env.not_supported(
            "a correlated scalar subquery that is not one aggregate value", subquery.span
        )
        return None
    if correlation.problem is not None or names_outer(
        [item.expr], body.from_, scope, env, binders[1]
    ):
        return _decorrelated_by_rows(subquery, body, item, rel, scope, env, binders)
    if body.group_by is not None and not all(
        any(_same_column(key, side) for side in correlation.inner) for key in body.group_by.exprs
    ):
        env.not_supported(
            "a correlated scalar subquery grouped by other than its correlated columns",
            body.group_by.span,
        )
        return None
    # Grouped by its correlated columns, it has one group per outer row, as without GROUP
    # BY, but none (NULL, not a count of 0) where no row matches.
    a_count = is_count(item.expr)
    counted = a_count and body.group_by is None
    if body.having is not None and body.group_by is None:
        # Its one row may fail HAVING: no value (NULL), where no row matching is a count
        env.not_supported(
            "HAVING in a correlated scalar subquery without GROUP BY", body.having.span
        )
        return None
    if not a_count and any(is_count(node) for node in syntax_nodes(item.expr)):
        env.not_supported("COUNT inside an expression of a correlated scalar subquery", item.span)
        return None
    keys = tuple(
        ast.ExprItem(expr, ast.Identifier(f"key${i}", True, expr.span), expr.span)
        for i, expr in enumerate(correlation.inner)
    )
    grouped = replace(
        body,
        items=(*keys, item),
        where=written_conjunction(correlation.rest),
        group_by=ast.Clause(correlation.inner, body.where.span if body.where else body.span),
    )
    bound = binders[0](replace(subquery.query, body=grouped, limit=None), env)
    if bound is None:
        return None
    groups = bound[0]
    width = len(rel.columns)
    condition = all_of(
        [
            plan.Call(
                "eq",
                (outer, plan.ColumnRef(width + i, field.name, field.type, True, outer.span)),
                types.BOOLEAN,
                True,
                outer.span,
            )
            for i, (outer, field) in enumerate(zip(correlation.outer, groups.columns, strict=False))
        ]
    )
    joined, value = _joined_value(rel, groups, condition, counted, -1, subquery.span)
    return joined, value, correlation.outer


def _joined_value(
    rel: plan.Rel,
    groups: plan.Rel,
    condition: plan.Expr | None,
    counted: bool,
    at: int,
    span: Span,
) -> tuple[plan.Rel, plan.Expr]:
    """`rel` left-joined to the subquery's groups on `condition`; the value, the groups'
    column `at` (for a bare COUNT, 0 where no group matches)."""
    fields = (*rel.columns, *(replace(f, nullable=True) for f in groups.columns))
    joined = plan.Join("left", rel, groups, condition, fields, span)
    field = groups.columns[at]
    index = len(rel.columns) + at % len(groups.columns)
    value: plan.Expr = plan.ColumnRef(index, field.name, field.type, True, span)
    if counted:  # the count of no rows
        zero = plan.Literal(0, types.BIGINT, False, span)
        value = plan.Call("coalesce", (value, zero), types.BIGINT, False, span)
    return joined, value


OUTER_ROWS = "outer$rows"


def _decorrelated_by_rows(
    subquery: ast.Subquery,
    body: ast.Select,
    item: ast.ExprItem,
    rel: plan.Rel,
    scope: Scope,
    env: Environment,
    binders: tuple[BindQuery, BindFrom],
) -> tuple[plan.Rel, plan.Expr, tuple[plan.Expr, ...]] | None:
    """A subquery related to the outer row otherwise than by equalities (`u.y < t.x`), or
    whose value names the outer row's columns: its value for each distinct outer value
    (`per_outer_value`), left-joined to `rel` on those values."""
    if body.group_by is not None or body.having is not None or body.distinct is not None:
        env.not_supported(
            "a scalar subquery with GROUP BY, HAVING or DISTINCT related to the outer query "
            "other than by equalities (inner = outer)",
            subquery.span,
        )
        return None
    if not is_count(item.expr) and any(is_count(n) for n in syntax_nodes(item.expr)):
        env.not_supported("COUNT inside an expression of a correlated scalar subquery", item.span)
        return None
    per_value = per_outer_value(
        replace(subquery.query, body=replace(body, items=(item,)), limit=None),
        rel,
        scope,
        env,
        binders,
    )
    if per_value is None:
        return None
    groups, refs = per_value
    condition = same_values(refs, groups, 1, len(rel.columns))
    joined, result = _joined_value(rel, groups, condition, is_count(item.expr), 0, subquery.span)
    return joined, result, refs


def per_outer_value(
    query: ast.Query,
    rel: plan.Rel,
    scope: Scope,
    env: Environment,
    binders: tuple[BindQuery, BindFrom],
) -> tuple[plan.Rel, tuple[plan.ColumnRef, ...]] | None:
    """A correlated subquery's rows for each distinct value of the outer columns it names
    (in `rel`, named by `scope`): its own columns, then those values; and the outer
    columns. Its GROUP BY groups by the values too.

        SELECT MAX(y), outer$rows.outer$0 FROM outer$rows, u
            WHERE u.y < outer$rows.outer$0 GROUP BY outer$rows.outer$0

    where outer$rows are the distinct values.
    """
    bind_query, bind_from = binders
    body = query.body
    assert isinstance(body, ast.Select)
    inner_scope, inner = bind_from(body.from_, replace(env, diagnostics=[]))
    if inner is None:
        bind_from(body.from_, env)  # its own errors, reported
        return None
    used: dict[int, str] = {}  # outer column -> its name among the outer rows

    def outer_column(ref: ast.ColumnRef) -> ast.ColumnRef | None:
        if resolve_column(inner_scope, ref, [], env.suggestions) is not None:
            return None  # the subquery's own
        found = resolve_column(scope, ref, [], env.suggestions)
        if not isinstance(found, plan.ColumnRef):
            return None
        return _outer_row_column(used.setdefault(found.index, f"outer${len(used)}"), ref.span)

    def replaced(expr: ast.Expr) -> ast.Expr:
        return _columns_replaced(expr, outer_column)

    items = tuple(
        replace(i, expr=replaced(i.expr)) if isinstance(i, ast.ExprItem) else i for i in body.items
    )
    where = None if body.where is None else replaced(body.where)
    having = (
        None
        if body.having is None
        else replace(body.having, exprs=tuple(replaced(e) for e in body.having.exprs))
    )
    span = query.span
    refs = tuple(
        plan.ColumnRef(index, rel.columns[index].name, rel.columns[index].type, True, span)
        for index in used
    )
    names = list(used.values())
    fields = tuple(plan.Field(n, r.type, True) for n, r in zip(names, refs, strict=True))
    keys = tuple(_outer_row_column(n, span) for n in names)
    outer_values = ast.TableRef(ast.Identifier(OUTER_ROWS, True, span), None, (), None, None, span)
    group_by = (
        None
        if body.group_by is None and not has_aggregates_in(items)
        else ast.Clause((*keys, *(body.group_by.exprs if body.group_by else ())), span)
    )
    grouped = replace(
        body,
        items=(*items, *(ast.ExprItem(k, None, span) for k in keys)),
        from_=(outer_values, *body.from_),
        where=where,
        group_by=group_by,
        having=having,
    )
    outer_rows = plan.Project(_without_joined_values(rel, len(scope.columns)), refs, fields, span)
    rows = plan.Distinct(outer_rows, fields, span)
    groups = bind_reading(replace(query, body=grouped), OUTER_ROWS, rows, span, env, bind_query)
    return None if groups is None else (groups, refs)


def _without_joined_values(rel: plan.Rel, width: int) -> plan.Rel:
    """`rel` without the values of subqueries joined to it before (each joined on its
    right, after the `width` columns of the FROM): the outer rows read again for the
    distinct values of another, without the plans of those before (which would double
    with each subquery)."""
    while isinstance(rel, plan.Join) and len(rel.left.columns) >= width:
        rel = rel.left
    return rel


def has_aggregates_in(items: tuple[ast.SelectItem, ...]) -> bool:
    return any(has_aggregates(i.expr) for i in items if isinstance(i, ast.ExprItem))


def same_values(
    outer: tuple[plan.Expr, ...], groups: plan.Rel, at: int, width: int
) -> plan.Expr | None:
    """`outer[k]` IS NOT DISTINCT FROM the groups' column `at + k` (after `width` columns
    of the outer rows): a NULL value finds its own group."""
    return all_of(
        [
            plan.Call(
                "is_not_distinct_from",
                (value, plan.ColumnRef(width + at + k, f.name, f.type, True, value.span)),
                types.BOOLEAN,
                False,
                value.span,
            )
            for k, (value, f) in enumerate(zip(outer, groups.columns[at:], strict=False))
        ]
    )


def _outer_row_column(name: str, span: Span) -> ast.ColumnRef:
    return ast.ColumnRef(
        (ast.Identifier(OUTER_ROWS, True, span), ast.Identifier(name, True, span)), span
    )


def _columns_replaced(
    expr: ast.Expr, replacement: Callable[[ast.ColumnRef], ast.ColumnRef | None]
) -> ast.Expr:
    """`expr` with each column name `replacement` gives another for replaced (not inside
    subqueries)."""

    def rewritten(node: Any) -> Any:
        if isinstance(node, ast.ColumnRef):
            return replacement(node) or node
        if isinstance(node, tuple):
            items = tuple(rewritten(n) for n in node)
            return items if any(a is not b for a, b in zip(items, node, strict=True)) else node
        if not dataclasses.is_dataclass(node) or isinstance(node, type | ast.Query):
            return node
        changed = {
            f.name: new
            for f in dataclasses.fields(node)
            if (new := rewritten(getattr(node, f.name))) is not getattr(node, f.name)
        }
        return dataclasses.replace(node, **changed) if changed else node

    result: ast.Expr = rewritten(expr)
    return result


def has_aggregates(expr: ast.Expr) -> bool:
    """Whether `expr` calls an aggregate (not over a window)."""
    return any(_is_aggregate_call(node) for node in syntax_nodes(expr))


def _is_aggregate_call(node: object) -> TypeGuard[ast.FunctionCall]:
    return (
        isinstance(node, ast.FunctionCall)
        and node.over is None
        and node.name.value.lower() in aggregates.COMPILED
    )


def in_aggregate_arguments(exprs: list[ast.Expr]) -> set[Span]:
    """The spans of the subqueries with a value written inside an aggregate's arguments
    (`SUM((SELECT MIN(x) FROM u))`): a value of each row the aggregate reads, not of
    its groups."""
    return {
        subquery.span
        for expr in exprs
        for node in syntax_nodes(expr)
        if _is_aggregate_call(node)
        for arg in (*node.args, node.filter)
        if arg is not None
        for subquery in _subqueries(arg)
    }


def is_count(expr: object) -> bool:
    return (
        isinstance(expr, ast.FunctionCall)
        and expr.over is None
        and expr.name.value.lower() == "count"
    )


def written_conjunction(parts: tuple[ast.Expr, ...]) -> ast.Expr | None:
    if not parts:
        return None
    result = parts[0]
    for part in parts[1:]:
        result = ast.BinaryOp("and", result, part, part.span, result.span.to(part.span))
    return result


def _value(subquery: ast.Subquery, env: Environment, bind_query: BindQuery) -> plan.Rel | None:
    """The subquery as exactly one row of one nullable column."""
    mark = len(env.diagnostics)
    bound = bind_query(subquery.query, env)
    if bound is None:
        _hint_correlation(env, mark)
        return None
    rows = bound[0]
    if len(rows.columns) != 1:
        message = f"A scalar subquery must return one column, not {len(rows.columns)}"
        env.report(error(Code.SET_OPERATION_SHAPE, message, subquery.span))
        return None
    single = _single_valued(subquery)
    if not at_most_one_row(rows) and single is not None:
        return _value(single, env, bind_query)
    if not at_most_one_row(rows):
        env.not_supported(
            "a scalar subquery that can return more than one row "
            "(an aggregate without GROUP BY, or LIMIT 1, returns one)",
            subquery.span,
        )
        return None
    if _one_row(rows):
        return rows
    field = plan.Field(rows.columns[0].name, rows.columns[0].type, True)
    one_row = plan.Values(((),), (), subquery.span)
    return plan.Join("left", one_row, rows, None, (field,), subquery.span)


def _single_valued(subquery: ast.Subquery) -> ast.Subquery | None:
    """A subquery of a plain value per row (`SELECT y FROM u WHERE ...`: no aggregate,
    GROUP BY, DISTINCT or LIMIT) as the aggregate of its one row, ELEMENT(ARRAY_AGG(y)):
    y of its one row, NULL of none, and more than one fails the step, as SQL's scalar
    subquery does (Calcite's SINGLE_VALUE). None for another subquery."""
    query = subquery.query
    body = query.body
    if not isinstance(body, ast.Select) or len(body.items) != 1 or query.limit is not None:
        return None
    [item] = body.items
    plain = body.distinct is None and body.group_by is None and body.having is None
    if not plain or not isinstance(item, ast.ExprItem) or has_aggregates(item.expr):
        return None
    span = item.expr.span
    one = replace(item, expr=_call("element", (_call("array_agg", (item.expr,), span),), span))
    body = replace(body, items=(one,), windows=(), qualify=None)
    return replace(subquery, query=replace(query, body=body, order_by=(), order_by_span=None))


def _hint_correlation(env: Environment, mark: int) -> None:
    """An unknown name in a scalar subquery may be the outer query's: say why it is
    not found."""
    hint_unknown_names(
        env,
        mark,
        "a scalar subquery names the outer query's columns only in its WHERE, "
        "in equalities (inner = outer) of an aggregate subquery",
    )


def hint_unknown_names(env: Environment, mark: int, hint: str) -> None:
    """Gives the unknown names reported since `mark` (without a hint of their own) `hint`."""
    for index in range(mark, len(env.diagnostics)):
        found = env.diagnostics[index]
        if found.code in (Code.UNKNOWN_RELATION, Code.UNKNOWN_COLUMN) and found.hint is None:
            env.diagnostics[index] = replace(found, hint=hint)


def _one_row(rel: plan.Rel) -> bool:
    """Whether `rel` always holds exactly one row, by its shape: an aggregate without
    GROUP BY (or HAVING), or a projection of one."""
    while isinstance(rel, plan.Project):
        rel = rel.input
    return isinstance(rel, plan.Aggregate) and not rel.keys


def at_most_one_row(rel: plan.Rel) -> bool:
    """Whether `rel` never holds more than one row, by its shape."""
    match rel:
        case plan.Project() | plan.Filter() | plan.Distinct():
            return at_most_one_row(rel.input)
        case plan.Aggregate():
            return not rel.keys
        case plan.Sort():
            return rel.limit is not None and rel.limit <= 1
        case plan.Values():
            return len(rel.rows) <= 1
    return False
