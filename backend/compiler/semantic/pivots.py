"""PIVOT and UNPIVOT in FROM (Calcite's; Feldera's PIVOT): queries written for the user.

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

    emp UNPIVOT (pay FOR kind IN (comm AS 'commission', sal AS 'salary'))

is bound as

    SELECT <emp's other columns>, 'commission' AS kind, comm AS pay FROM emp
        WHERE comm IS NOT NULL
    UNION ALL
    SELECT <emp's other columns>, 'salary' AS kind, sal AS pay FROM emp WHERE sal IS NOT NULL

(INCLUDE NULLS: without the WHERE; of several measures, a row where one is not NULL).
An item without a label is labelled by its columns' names.
"""

from __future__ import annotations

import dataclasses

from backend.compiler.diagnostics import Code, error
from backend.compiler.plan import nodes as plan
from backend.compiler.semantic import aggregates, types
from backend.compiler.semantic.correlation import syntax_nodes
from backend.compiler.semantic.environment import Environment
from backend.compiler.semantic.named_rows import bind_reading
from backend.compiler.semantic.table_functions import BindQuery
from backend.compiler.source import Span
from backend.compiler.syntax import ast


def bind_rotation(
    item: ast.Pivot | ast.Unpivot, source: plan.Rel | None, env: Environment, bind_query: BindQuery
) -> plan.Rel | None:
    """The plan of a PIVOT or UNPIVOT over its bound `source` (None: reported, or
    unknown): the query written for it, reading `source` by the source's name."""
    if source is None:
        return None
    name = _source_name(item.source)
    if isinstance(item, ast.Pivot):
        query = _grouped_query(item, source, name, env)
    else:
        query = _unpivoted_query(item, source, name, env)
    if query is None:
        return None
    return bind_reading(query, name, source, item.source.span, env, bind_query)


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


def _grouped_query(
    pivot: ast.Pivot, source: plan.Rel, name: str, env: Environment
) -> ast.Query | None:
    if not _is_valid(pivot, env):
        return None
    span = pivot.span
    read = _read_columns(pivot)
    if not pivot.values and all(f.name in read for f in source.columns):
        message = "This PIVOT has no column: no value in its IN list, no other column"
        env.report(error(Code.COLUMN_COUNT, message, pivot.span))
        return None
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
    table = _read_by_name(pivot.source, name, span)
    group_by = ast.Clause(groups, span) if groups else None
    select = ast.Select(
        False, None, tuple(items), (table,), None, group_by, None, (), None, None, span
    )
    return ast.Query((), None, select, (), None, None, span)


def _read_by_name(source: ast.FromItem, name: str, span: Span) -> ast.TableRef:
    return ast.TableRef(ast.Identifier(name, True, source.span), None, (), None, None, span)


def _unpivoted_query(
    unpivot: ast.Unpivot, source: plan.Rel, name: str, env: Environment
) -> ast.Query | None:
    """UNION ALL of a SELECT per IN item: the source's other columns, the item's labels,
    its columns' values (EXCLUDE NULLS: where one of them is not NULL)."""
    span = unpivot.span
    if not _is_valid_unpivot(unpivot, env) or not _measures_typed(unpivot, source, env):
        return None
    read = {ref.parts[-1].value for item in unpivot.items for ref in item.columns}
    others = [
        ast.ExprItem(ast.ColumnRef((ast.Identifier(f.name, True, span),), span), None, span)
        for f in source.columns
        if f.name not in read
    ]
    body: ast.QueryBody | None = None
    for item in unpivot.items:
        labels = item.labels or tuple(
            ast.StringLiteral(ref.parts[-1].value, ref.span) for ref in item.columns
        )
        selected: list[ast.SelectItem] = [*others]
        selected += [
            ast.ExprItem(label, axis, label.span)
            for label, axis in zip(labels, unpivot.axes, strict=True)
        ]
        selected += [
            ast.ExprItem(ref, measure, ref.span)
            for ref, measure in zip(item.columns, unpivot.measures, strict=True)
        ]
        some_value = None
        if not unpivot.include_nulls:
            for ref in item.columns:
                not_null: ast.Expr = ast.IsNull(ref, True, ref.span)
                some_value = (
                    not_null
                    if some_value is None
                    else ast.BinaryOp("or", some_value, not_null, span, span)
                )
        table = _read_by_name(unpivot.source, name, span)
        select = ast.Select(
            False,
            None,
            tuple(selected),
            (table,),
            some_value,
            None,
            None,
            (),
            None,
            None,
            item.span,
        )
        body = select if body is None else ast.SetOperation("union", True, body, select, span, span)
    assert body is not None  # the parser reads at least one item
    return ast.Query((), None, body, (), None, None, span)


def _is_valid_unpivot(unpivot: ast.Unpivot, env: Environment) -> bool:
    valid = True
    for item in unpivot.items:
        if len(item.columns) != len(unpivot.measures):
            message = (
                f"UNPIVOT's item has {_count(len(item.columns), 'column')}, but it names "
                f"{_count(len(unpivot.measures), 'measure')}"
            )
            env.report(error(Code.COLUMN_COUNT, message, item.span))
            valid = False
        labels = len(item.labels) if item.labels else len(item.columns)
        if labels != len(unpivot.axes):
            message = (
                f"UNPIVOT's item has {_count(labels, 'label')}, but FOR names "
                f"{_count(len(unpivot.axes), 'column')}"
            )
            env.report(error(Code.COLUMN_COUNT, message, item.span))
            valid = False
    names = [n.value for n in (*unpivot.measures, *unpivot.axes)]
    for duplicate in sorted({n for n in names if names.count(n) > 1}):
        message = f"Duplicate column name '{duplicate}' in UNPIVOT"
        env.report(error(Code.DUPLICATE_COLUMN, message, unpivot.keyword_span))
        valid = False
    return valid


def _measures_typed(unpivot: ast.Unpivot, source: plan.Rel, env: Environment) -> bool:
    """Whether each measure's columns (one per IN item) are the source's, of a common type."""
    typed = {f.name: f.type for f in source.columns}
    for position, measure in enumerate(unpivot.measures):
        refs = [item.columns[position] for item in unpivot.items]
        common = None
        for ref in refs:
            found = typed.get(ref.parts[-1].value)
            if found is None:
                message = f"Unknown column '{ref.parts[-1].value}' in UNPIVOT's source"
                env.report(error(Code.UNKNOWN_COLUMN, message, ref.span))
                return False
            joined = found if common is None else types.common_type(common, found)
            if joined is None:
                message = (
                    f"UNPIVOT's measure '{measure.value}' has columns of types {common} and "
                    f"{found}, which have no common type"
                )
                env.report(error(Code.TYPE_MISMATCH, message, ref.span))
                return False
            common = joined
    return True
