"""ORDER BY and LIMIT / OFFSET / FETCH of a query, bound over the query's output.

A key is an output column (by name or alias), its 1-based position, or an
expression of output columns. LIMIT and OFFSET take non-negative integer
constants. The result is one `Sort` node above the query (plan/nodes.py).
"""

from __future__ import annotations

from backend.compiler.diagnostics import Code, error
from backend.compiler.plan import nodes as plan
from backend.compiler.semantic.environment import Environment
from backend.compiler.semantic.expressions import ExprContext, bind_expr
from backend.compiler.semantic.scope import Scope, ScopeEntry
from backend.compiler.source import Span
from backend.compiler.syntax import ast


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


def sort_key(expr: plan.Expr, item: ast.OrderItem) -> plan.SortKey:
    """`expr` ordered as `item` says; unsaid, NULLs sort as if larger than any value."""
    nulls_first = item.descending if item.nulls is None else item.nulls == "first"
    return plan.SortKey(expr, item.descending, nulls_first)


def _bind_key(item: ast.OrderItem, rel: plan.Rel, env: Environment) -> plan.SortKey | None:
    if isinstance(item.expr, ast.NumberLiteral) and item.expr.kind == "integer":
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
        Scope((entry,)), env.diagnostics, env.suggestions, aggregate_clause="ORDER BY"
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
