"""ORDER BY and LIMIT / OFFSET / FETCH of a query, bound over the query's output.

A key is an output column (by name or alias), its 1-based position, or an
expression of output columns. LIMIT and OFFSET take non-negative integer
constants. The result is one `Sort` node above the query (plan/nodes.py).

Of a SELECT without DISTINCT, a key may also be an expression of its FROM
columns (`SELECT id FROM t ORDER BY x`), or of its groups and aggregates
(`... GROUP BY g ORDER BY MAX(x)`), as in standard SQL: `keys_from_the_from`
adds such a key to the select list as a hidden column, which the query sorts
by and then leaves out.
"""

from __future__ import annotations

import dataclasses
from dataclasses import replace

from backend.compiler.diagnostics import Code, Diagnostic, error
from backend.compiler.plan import nodes as plan
from backend.compiler.semantic.environment import Environment
from backend.compiler.semantic.expressions import ExprContext, bind_expr, sort_key
from backend.compiler.semantic.scope import Scope, ScopeEntry
from backend.compiler.source import Span
from backend.compiler.suggest import Budget
from backend.compiler.syntax import ast

HIDDEN = "__order_"  # the names of hidden ORDER BY columns: __order_1, __order_2, ...


def bind_sort(
    order_by: tuple[ast.OrderItem, ...],
    limit: ast.Limit | None,
    rel: plan.Rel,
    span: Span,
    env: Environment,
) -> plan.Sort | None:
    keys = [_bind_key(item, rel, env) for item in order_by]
    count = _constant(limit.count, "LIMIT", env) if limit and limit.count else None
    offset = _constant(limit.offset, "OFFSET", env) if limit and limit.offset else 0
    if any(key is None for key in keys) or count is False or offset is False:
        return None
    return plan.Sort(
        rel,
        tuple(key for key in keys if key is not None),
        None if count is None else int(count),
        int(offset or 0),
        rel.columns,
        span,
    )


def keys_from_the_from(
    select: ast.Select, order_by: tuple[ast.OrderItem, ...], rel: plan.Rel, env: Environment
) -> tuple[ast.Select, tuple[ast.OrderItem, ...], int]:
    """`select` with a hidden column for each ORDER BY key that is not one of its
    output's (`rel`), the keys naming those columns, and how many were added."""
    items = list(select.items)
    keys = []
    for item in order_by:
        if _is_position(item) or _binds_to_output(item, rel, env):
            keys.append(item)
            continue
        span = item.expr.span
        alias = ast.Identifier(f"{HIDDEN}{len(items) - len(select.items) + 1}", False, span)
        items.append(ast.ExprItem(item.expr, alias, span))
        keys.append(replace(item, expr=ast.ColumnRef((alias,), span)))
    return replace(select, items=tuple(items)), tuple(keys), len(items) - len(select.items)


def keys_of_the_output(
    select: ast.Select, order_by: tuple[ast.OrderItem, ...]
) -> tuple[ast.OrderItem, ...]:
    """With DISTINCT, a key written as an expression of the select list is that item's
    column: `SELECT DISTINCT g, COUNT(*) ... ORDER BY COUNT(*)` (Calcite's SortHrTests)."""
    positions = {
        _written(item.expr): position
        for position, item in enumerate(select.items, start=1)
        if isinstance(item, ast.ExprItem)
    }
    keys = []
    for item in order_by:
        position = positions.get(_written(item.expr))
        if position is None or isinstance(item.expr, ast.ColumnRef | ast.NumberLiteral):
            keys.append(item)
        else:
            number = ast.NumberLiteral(str(position), "integer", item.expr.span)
            keys.append(replace(item, expr=number))
    return tuple(keys)


def _written(node: object) -> object:
    """An expression as written, without where: to compare two."""
    if isinstance(node, Span):
        return None
    if dataclasses.is_dataclass(node):
        return (
            type(node).__name__,
            *(_written(getattr(node, f.name)) for f in dataclasses.fields(node)),
        )
    if isinstance(node, tuple):
        return tuple(_written(part) for part in node)
    return node


def without_hidden(rel: plan.Rel, hidden: int) -> plan.Rel:
    """`rel` without its last `hidden` columns (see `keys_from_the_from`)."""
    if not hidden:
        return rel
    fields = rel.columns[:-hidden]
    refs = tuple(
        plan.ColumnRef(i, f.name, f.type, f.nullable, rel.span) for i, f in enumerate(fields)
    )
    return plan.Project(rel, refs, fields, rel.span)


def _binds_to_output(item: ast.OrderItem, rel: plan.Rel, env: Environment) -> bool:
    entry = ScopeEntry("", item.span, "the query's output", rel.columns, 0)
    scratch: list[Diagnostic] = []
    ctx = ExprContext(
        Scope((entry,)), scratch, Budget(0), aggregate_clause="ORDER BY", functions=env
    )
    return bind_expr(item.expr, ctx) is not None and not scratch


def _is_position(item: ast.OrderItem) -> bool:
    return isinstance(item.expr, ast.NumberLiteral) and item.expr.kind == "integer"


def _bind_key(item: ast.OrderItem, rel: plan.Rel, env: Environment) -> plan.SortKey | None:
    if _is_position(item):
        assert isinstance(item.expr, ast.NumberLiteral)
        position = int(item.expr.text)
        if not 1 <= position <= len(rel.columns):
            env.report(
                error(
                    Code.UNKNOWN_COLUMN,
                    f"ORDER BY position {position} is not in the select list, which has "
                    f"{len(rel.columns)} columns",
                    item.expr.span,
                )
            )
            return None
        column = rel.columns[position - 1]
        ref = plan.ColumnRef(position - 1, column.name, column.type, column.nullable, item.span)
        return sort_key(ref, item)
    entry = ScopeEntry("", item.span, "the query's output", rel.columns, 0)
    ctx = ExprContext(
        Scope((entry,)),
        env.diagnostics,
        env.suggestions,
        aggregate_clause="ORDER BY",
        functions=env,
    )
    key = bind_expr(item.expr, ctx)
    if key is None:
        return None
    return sort_key(key, item)


def _constant(expr: ast.Expr, clause: str, env: Environment) -> int | bool:
    """The clause's non-negative integer, or False after reporting that it is not one."""
    if isinstance(expr, ast.NumberLiteral) and expr.kind == "integer":
        return int(expr.text)
    env.report(
        error(
            Code.INVALID_LIMIT,
            f"{clause} takes a non-negative integer constant",
            expr.span,
            hint=f"write {clause} 10",
        )
    )
    return False
