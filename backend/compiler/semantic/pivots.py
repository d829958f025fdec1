"""PIVOT in FROM (Calcite's and Feldera's): a GROUP BY query written for the user.

    emp PIVOT (SUM(sal) AS ss, COUNT(*) AS c FOR job IN ('CLERK' AS cl, 'MANAGER'))

is bound as

    SELECT <emp's other columns>,
           SUM(sal) FILTER (WHERE job = 'CLERK') AS cl_ss,
           COUNT(*) FILTER (WHERE job = 'CLERK') AS cl_c,
           SUM(sal) FILTER (WHERE job = 'MANAGER') AS "'MANAGER'_ss", ...
    FROM emp GROUP BY <emp's other columns>

The other columns are those that neither a measure nor the FOR list reads, in the
source's order. A value without a name is named by its text as written; a measure
without a name adds nothing to its value's name (Calcite's naming). A value matches
with `=`: a NULL value matches no row.
"""

from __future__ import annotations

import dataclasses

from backend.compiler.diagnostics import Code, error
from backend.compiler.plan import nodes as plan
from backend.compiler.semantic import aggregates
from backend.compiler.semantic.correlation import syntax_nodes
from backend.compiler.semantic.environment import Environment
from backend.compiler.semantic.table_functions import BindQuery
from backend.compiler.syntax import ast


def bind_pivot(
    pivot: ast.Pivot, source: plan.Rel | None, env: Environment, bind_query: BindQuery
) -> plan.Rel | None:
    """The plan of `pivot` over its bound `source` (None: reported, or unknown)."""
    if not _is_valid(pivot, env) or source is None:
        return None
    if not pivot.values and all(f.name in _read_columns(pivot) for f in source.columns):
        message = "This PIVOT has no column: no value in its IN list, no other column"
        env.report(error(Code.COLUMN_COUNT, message, pivot.span))
        return None
    name = _source_name(pivot.source)
    saved = env.ctes.get(name)
    had = name in env.ctes
    env.ctes[name] = (source, tuple(pivot.source.span for _ in source.columns))
    try:
        bound = bind_query(_grouped_query(pivot, source, name), env)
    finally:
        if had:
            env.ctes[name] = saved
        else:
            del env.ctes[name]
    return None if bound is None else bound[0]


def _is_valid(pivot: ast.Pivot, env: Environment) -> bool:
    valid = True
    for measure in pivot.measures:
        call = measure.expr
        if not (
            isinstance(call, ast.FunctionCall)
            and call.over is None
            and call.filter is None
            and call.name.value.lower() in aggregates.COMPILED
        ):
            message = "A measure of PIVOT must be an aggregate call, as SUM(x)"
            env.report(error(Code.AGGREGATE_MISUSE, message, call.span))
            valid = False
    for value in pivot.values:
        if len(value.exprs) != len(pivot.axes):
            message = (
                f"PIVOT's value {value.written} has {_count(len(value.exprs), 'part')}, "
                f"but FOR names {_count(len(pivot.axes), 'column')}"
            )
            env.report(error(Code.COLUMN_COUNT, message, value.span))
            valid = False
    return valid


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _source_name(source: ast.FromItem) -> str:
    """The name the source is read by in the written query: a table's name or alias
    (so that `t.x` still reads it), else a name no query can spell."""
    if isinstance(source, ast.TableRef):
        return (source.alias or source.name).value
    return ""


def _read_columns(pivot: ast.Pivot) -> set[str]:
    """The names of the columns the measures and the FOR list read."""
    return {
        node.parts[-1].value
        for expr in (*(m.expr for m in pivot.measures), *pivot.axes)
        for node in syntax_nodes(expr)
        if isinstance(node, ast.ColumnRef)
    }


def _grouped_query(pivot: ast.Pivot, source: plan.Rel, name: str) -> ast.Query:
    span = pivot.span
    read = _read_columns(pivot)
    groups = tuple(
        ast.ColumnRef((ast.Identifier(f.name, True, span),), span)
        for f in source.columns
        if f.name not in read
    )
    items: list[ast.SelectItem] = [ast.ExprItem(g, None, span) for g in groups]
    for value in pivot.values:
        matches: ast.Expr | None = None
        for axis, expr in zip(pivot.axes, value.exprs, strict=True):
            equal = ast.BinaryOp("=", axis, expr, value.span, value.span)
            matches = equal if matches is None else ast.BinaryOp("and", matches, equal, span, span)
        for measure in pivot.measures:
            assert isinstance(measure.expr, ast.FunctionCall)
            call = dataclasses.replace(measure.expr, filter=matches)
            column = value.name if measure.alias is None else f"{value.name}_{measure.alias.value}"
            items.append(ast.ExprItem(call, ast.Identifier(column, True, measure.span), span))
    table = ast.TableRef(ast.Identifier(name, True, pivot.source.span), None, (), None, None, span)
    group_by = ast.Clause(groups, span) if groups else None
    select = ast.Select(
        False, None, tuple(items), (table,), None, group_by, None, (), None, None, span
    )
    return ast.Query((), None, select, (), None, None, span)
