"""Subqueries as conditions of WHERE: `x [NOT] IN (SELECT y ...)`, `[NOT] EXISTS (...)`,
`x op ANY | ALL (SELECT y ...)`.

Each such condition, as a top-level conjunct of WHERE (`a AND x IN (...)`),
becomes a `SemiJoin` of the FROM's rows with the subquery: `semi` keeps the rows
with a match, `anti` those without, and `not_in` follows SQL's NULL rule for
NOT IN (a row passes when the subquery is empty, or when its value is not NULL,
equals no value of the subquery, and the subquery holds no NULL).

An EXISTS subquery of the form SELECT ... FROM ... [WHERE ...] may refer to
the outer query's columns (correlation): its WHERE becomes the join condition.
IN, ANY and ALL subqueries are uncorrelated.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from backend.compiler.diagnostics import Code, error
from backend.compiler.plan import nodes as plan
from backend.compiler.semantic import types
from backend.compiler.semantic.environment import Environment
from backend.compiler.semantic.expressions import COMPARISONS, ExprContext, bind_expr
from backend.compiler.semantic.scope import Scope
from backend.compiler.syntax import ast

BindQuery = Callable[[ast.Query, Environment], "tuple[plan.Rel, object] | None"]
BindFrom = Callable[[tuple[ast.FromItem, ...], Environment], "tuple[Scope, plan.Rel | None]"]


def conjuncts(condition: ast.Expr) -> list[ast.Expr]:
    """`a AND b AND c` as [a, b, c] (without recursion: chains can be long)."""
    found: list[ast.Expr] = []
    stack = [condition]
    while stack:
        expr = stack.pop()
        if isinstance(expr, ast.BinaryOp) and expr.op == "and":
            stack.extend((expr.right, expr.left))
        else:
            found.append(expr)
    return found


def is_subquery_condition(expr: ast.Expr) -> bool:
    if isinstance(expr, ast.UnaryOp) and expr.op == "not":
        return isinstance(expr.operand, ast.Exists)
    return isinstance(expr, ast.InSubquery | ast.Exists | ast.QuantifiedComparison)


def bind_subquery_condition(
    expr: ast.Expr,
    left: plan.Rel,
    scope: Scope,
    env: Environment,
    bind_query: BindQuery,
    bind_from: BindFrom,
) -> plan.SemiJoin | None:
    if isinstance(expr, ast.InSubquery | ast.QuantifiedComparison):
        return _compared(expr, left, scope, env, bind_query)
    negated = isinstance(expr, ast.UnaryOp)
    exists = expr.operand if isinstance(expr, ast.UnaryOp) else expr
    assert isinstance(exists, ast.Exists)
    return _exists(exists, negated, left, scope, env, bind_query, bind_from)


def _compared(
    expr: ast.InSubquery | ast.QuantifiedComparison,
    left: plan.Rel,
    scope: Scope,
    env: Environment,
    bind_query: BindQuery,
) -> plan.SemiJoin | None:
    """`x [NOT] IN (SELECT y ...)`, `x op ANY (...)` and `x op ALL (...)`.

    IN and ANY keep the rows for which some y makes the comparison TRUE (a semi
    join); ALL keeps those for which no y makes it FALSE or UNKNOWN (an anti join
    on `(x op y) IS NOT TRUE`), so ALL over no rows is TRUE."""
    shown = "IN" if isinstance(expr, ast.InSubquery) else f"{expr.op} {expr.quantifier.upper()}"
    ctx = ExprContext(scope, env.diagnostics, env.suggestions, aggregate_clause="WHERE")
    operand = bind_expr(expr.operand, ctx)
    bound = bind_query(expr.query, env)
    if operand is None or bound is None:
        return None
    right = bound[0]
    if len(right.columns) != 1:
        env.report(
            error(
                Code.SET_OPERATION_SHAPE,
                f"The subquery of {shown} must return one column, not {len(right.columns)}",
                expr.query.span,
            )
        )
        return None
    column = right.columns[0]
    if not types.comparable(operand.type, column.type):
        env.report(
            error(
                Code.TYPE_MISMATCH,
                f"{shown} compares {operand.type} with a subquery of {column.type}",
                expr.query.span,
            )
        )
        return None
    width = len(left.columns)
    value = plan.ColumnRef(width, column.name, column.type, column.nullable, expr.query.span)
    if isinstance(expr, ast.InSubquery):
        condition = plan.Call("eq", (operand, value), types.BOOLEAN, True, expr.span)
        kind = "not_in" if expr.negated else "semi"
        return plan.SemiJoin(kind, left, right, condition, left.columns, expr.span)
    compared = plan.Call(COMPARISONS[expr.op], (operand, value), types.BOOLEAN, True, expr.span)
    if expr.quantifier == "any":
        return plan.SemiJoin("semi", left, right, compared, left.columns, expr.span)
    false = plan.Literal(False, types.BOOLEAN, False, expr.span)
    holds = plan.Call("coalesce", (compared, false), types.BOOLEAN, False, expr.span)
    fails = plan.Call("not", (holds,), types.BOOLEAN, False, expr.span)
    return plan.SemiJoin("anti", left, right, fails, left.columns, expr.span)


def _exists(
    expr: ast.Exists,
    negated: bool,
    left: plan.Rel,
    scope: Scope,
    env: Environment,
    bind_query: BindQuery,
    bind_from: BindFrom,
) -> plan.SemiJoin | None:
    kind = "anti" if negated else "semi"
    body = expr.query.body
    simple = (
        isinstance(body, ast.Select)
        and not expr.query.with_
        and not expr.query.order_by
        and expr.query.limit is None
        and body.from_
        and body.group_by is None
        and body.having is None
        and not body.windows
    )
    if not simple:
        bound = bind_query(expr.query, env)  # uncorrelated: any query
        if bound is None:
            return None
        return plan.SemiJoin(kind, left, bound[0], None, left.columns, expr.span)
    assert isinstance(body, ast.Select)
    inner_scope, right = bind_from(body.from_, env)
    if right is None:
        return None
    condition = None
    if body.where is not None:
        # The subquery's columns come after the outer query's in the join's row.
        shifted = tuple(
            replace(entry, offset=entry.offset + len(left.columns)) for entry in inner_scope.entries
        )
        ctx = ExprContext(
            Scope(shifted), env.diagnostics, env.suggestions, aggregate_clause="WHERE"
        )
        ctx = replace(ctx, outer=scope)
        condition = bind_expr(body.where, ctx)
        if condition is None:
            return None
    return plan.SemiJoin(kind, left, right, condition, left.columns, expr.span)
