"""Scalar subqueries: `(SELECT MAX(x) FROM t)` as a value in WHERE, the SELECT list
or HAVING.

Each one is bound on its own (uncorrelated: it names no column of the outer query)
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
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from backend.compiler.diagnostics import Code, error
from backend.compiler.plan import nodes as plan
from backend.compiler.semantic.correlation import syntax_nodes
from backend.compiler.semantic.environment import Environment
from backend.compiler.semantic.subqueries import BindQuery
from backend.compiler.source import Span
from backend.compiler.syntax import ast

Scalars = dict[Span, plan.ColumnRef]  # a subquery's span -> the column of its value


def scalar_subqueries(exprs: list[ast.Expr | None]) -> list[ast.Subquery]:
    """The scalar subqueries written in `exprs` (not those inside other subqueries)."""
    return [node for expr in exprs if expr is not None for node in _subqueries(expr)]


def _subqueries(expr: ast.Expr) -> Iterator[ast.Subquery]:
    for node in syntax_nodes(expr):
        if isinstance(node, ast.Subquery):
            yield node


def join_scalars(
    subqueries: list[ast.Subquery], source: plan.Rel, env: Environment, bind_query: BindQuery
) -> tuple[plan.Rel, Scalars] | None:
    """`source` joined with the value of each subquery, and where each value is; None
    after reporting a subquery that cannot be a value."""
    rel = source
    scalars: Scalars = {}
    complete = True
    for subquery in subqueries:
        value = _value(subquery, env, bind_query)
        if value is None:
            complete = False
            continue
        field = value.columns[0]
        scalars[subquery.span] = plan.ColumnRef(
            len(rel.columns), field.name, field.type, field.nullable, subquery.span
        )
        rel = plan.Join("inner", rel, value, None, (*rel.columns, field), subquery.span)
    return (rel, scalars) if complete else None


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


def _hint_correlation(env: Environment, mark: int) -> None:
    """An unknown name in a scalar subquery may be the outer query's: say why it is
    not found."""
    for index in range(mark, len(env.diagnostics)):
        found = env.diagnostics[index]
        if found.code in (Code.UNKNOWN_RELATION, Code.UNKNOWN_COLUMN) and found.hint is None:
            hint = (
                "a scalar subquery sees only its own FROM: "
                "one that names the outer query's columns is not supported yet"
            )
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
