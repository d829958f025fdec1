"""Set operations (UNION ALL, UNION) and VALUES.

The sides of a UNION are cast to their common column types; a chain of them is
bound left to right without recursion and kept flat (one `union` node, DISTINCT
absorbed). INTERSECT and EXCEPT [ALL] unify their sides' types the same way and
become one `SetDifference` node each.
"""

from __future__ import annotations

from collections.abc import Callable

from backend.compiler.diagnostics import Code, Note, error
from backend.compiler.plan import nodes as plan
from backend.compiler.semantic import types
from backend.compiler.semantic.environment import Environment
from backend.compiler.semantic.expressions import ExprContext, bind_expr
from backend.compiler.semantic.scope import Scope
from backend.compiler.source import Span
from backend.compiler.syntax import ast

# A bound query: its plan and, per output column, the span that defines it.
Bound = tuple[plan.Rel, tuple[Span, ...]]
BindBody = Callable[[ast.QueryBody, Environment], "Bound | None"]


def bind_set_operation(
    body: ast.SetOperation, env: Environment, bind_body: BindBody
) -> Bound | None:
    """A chain of set operations, bound left to right without recursion (chains can be long)."""
    chain: list[ast.SetOperation] = []
    node: ast.QueryBody = body
    while isinstance(node, ast.SetOperation):
        chain.append(node)
        node = node.left
    result = bind_body(node, env)
    for operation in reversed(chain):
        right = bind_body(operation.right, env)
        if result is None or right is None:
            result = None
            continue
        if operation.op == "union":
            result = _union(operation, result, right, env)
        else:
            result = _set_difference(operation, result, right, env)
    return result


def _set_difference(
    body: ast.SetOperation, left: Bound, right: Bound, env: Environment
) -> Bound | None:
    columns = common_columns(body, left, right, env)
    if columns is None:
        return None
    rel = plan.SetDifference(
        body.op,
        body.all,
        cast_to(left[0], columns),
        cast_to(right[0], columns),
        columns,
        body.span,
    )
    return rel, left[1]


def common_columns(
    body: ast.SetOperation, left: Bound, right: Bound, env: Environment
) -> tuple[plan.Field, ...] | None:
    """The columns both sides are cast to, or None after reporting why there are none."""
    left_rel, left_spans = left
    right_rel, right_spans = right
    name = body.op.upper()
    if len(left_rel.columns) != len(right_rel.columns):
        env.report(
            error(
                Code.SET_OPERATION_SHAPE,
                f"{name} sides have different numbers of columns: "
                f"{len(left_rel.columns)} and {len(right_rel.columns)}",
                body.op_span,
                notes=(
                    Note(f"{len(left_rel.columns)} columns here", body.left.span),
                    Note(f"{len(right_rel.columns)} columns here", body.right.span),
                ),
            )
        )
        return None
    fields: list[plan.Field] = []
    for position, (a, b) in enumerate(zip(left_rel.columns, right_rel.columns, strict=True)):
        common = types.common_type(a.type, b.type)
        if common is None:
            env.report(
                error(
                    Code.SET_OPERATION_SHAPE,
                    f"{name} column {position + 1} ('{a.name}') is {a.type} on the left "
                    f"but {b.type} on the right",
                    right_spans[position],
                    notes=(Note(f"the left side's column is {a.type}", left_spans[position]),),
                )
            )
            return None
        fields.append(plan.Field(a.name, common, a.nullable or b.nullable))
    return tuple(fields)


def _union(body: ast.SetOperation, left: Bound, right: Bound, env: Environment) -> Bound | None:
    columns = common_columns(body, left, right, env)
    if columns is None:
        return None
    left_rel, left_spans = left
    right_rel = right[0]
    inputs: list[plan.Rel] = []
    for position, side in enumerate((left_rel, right_rel)):
        side = cast_to(side, columns)
        # DISTINCT of (DISTINCT a) and b is DISTINCT of a and b: chains stay flat.
        if position == 0 and not body.all and isinstance(side, plan.Distinct):
            side = side.input
        if isinstance(side, plan.Union) and side.columns == columns:
            inputs.extend(side.inputs)
        else:
            inputs.append(side)
    rel: plan.Rel = plan.Union(tuple(inputs), columns, body.span)
    if not body.all:
        rel = plan.Distinct(rel, columns, body.span)
    return rel, left_spans


def cast_to(rel: plan.Rel, columns: tuple[plan.Field, ...]) -> plan.Rel:
    """`rel` with its columns cast to `columns`' types (and renamed) where they differ."""
    if tuple((c.name, c.type) for c in rel.columns) == tuple((c.name, c.type) for c in columns):
        return rel
    exprs: list[plan.Expr] = []
    for index, (have, want) in enumerate(zip(rel.columns, columns, strict=True)):
        ref: plan.Expr = plan.ColumnRef(index, have.name, have.type, have.nullable, rel.span)
        if have.type != want.type and not types.is_null(want.type):
            ref = plan.Cast(ref, want.type, have.nullable, rel.span)
        exprs.append(ref)
    fields = tuple(
        plan.Field(want.name, want.type, have.nullable)
        for have, want in zip(rel.columns, columns, strict=True)
    )
    return plan.Project(rel, tuple(exprs), fields, rel.span)


def bind_values(body: ast.Values, env: Environment) -> Bound | None:
    ctx = ExprContext(
        Scope(), env.diagnostics, env.suggestions, aggregate_clause="VALUES", functions=env
    )
    rows = [[bind_expr(expr, ctx) for expr in row] for row in body.rows]
    width = len(body.rows[0])
    for written in body.rows[1:]:
        if len(written) != width:
            env.report(
                error(
                    Code.SET_OPERATION_SHAPE,
                    f"VALUES rows have different numbers of columns: {width} and {len(written)}",
                    written[0].span.to(written[-1].span),
                )
            )
            return None
    if any(expr is None for row in rows for expr in row):
        return None
    column_types: list[types.SqlType] = []
    for position in range(width):
        result: types.SqlType = types.NULL
        for row in rows:
            value = row[position]
            assert value is not None
            common = types.common_type(result, value.type)
            if common is None:
                env.report(
                    error(
                        Code.SET_OPERATION_SHAPE,
                        f"VALUES column {position + 1} mixes {result} and {value.type}",
                        value.span,
                    )
                )
                return None
            result = common
        column_types.append(result)
    bound_rows: list[tuple[plan.Expr, ...]] = []
    for row in rows:
        cells: list[plan.Expr] = []
        for cell, wanted in zip(row, column_types, strict=True):
            assert cell is not None
            if cell.type != wanted and not types.is_null(wanted):
                cell = plan.Cast(cell, wanted, cell.nullable, cell.span)
            cells.append(cell)
        bound_rows.append(tuple(cells))
    columns = tuple(
        plan.Field(f"EXPR${i}", t, any(row[i].nullable for row in bound_rows))
        for i, t in enumerate(column_types)
    )
    spans = tuple(expr.span for expr in body.rows[0])
    return plan.Values(tuple(bound_rows), columns, body.span), spans
