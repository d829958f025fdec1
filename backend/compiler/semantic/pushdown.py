"""WHERE's join conditions moved into the joins they belong to.

`FROM a, b WHERE a.k = b.k` joins a and b with no condition (a cross join) and
filters after. Run incrementally, a cross join keeps and computes every pair of
rows, and the rows of a join over it grow with the product of its inputs. A
conjunct of WHERE that reads both sides of an inner join is the same as that
join's ON condition, so it is moved there (ANDed with the one it has). A
conjunct that reads one side only stays in WHERE, as do those the joins'
shapes keep out: the null-supplying side of an outer join, and anything below a
node that is not a plain join.
"""

from __future__ import annotations

from dataclasses import replace

from backend.compiler.plan import nodes as plan
from backend.compiler.semantic import types


def pushed_into_joins(
    rel: plan.Rel, conjuncts: list[plan.Expr], width: int
) -> tuple[plan.Rel, list[plan.Expr]]:
    """`rel` with each conjunct that joins two of its inputs in that join's condition;
    the conjuncts left for WHERE. Only conjuncts over the first `width` columns (the
    FROM's; scalar subqueries' values come after them) move."""
    left_over = []
    for conjunct in conjuncts:
        used = set(plan.columns_read(conjunct))
        movable = used and max(used) < width
        pushed = _pushed(rel, conjunct, used) if movable else None
        if pushed is None:
            left_over.append(conjunct)
        else:
            rel = pushed
    return rel, left_over


def _pushed(rel: plan.Rel, condition: plan.Expr, used: set[int]) -> plan.Rel | None:
    """`rel` with `condition` (over rel's columns) in one of its joins, or None."""
    if not isinstance(rel, plan.Join) or len(rel.columns) != len(rel.left.columns) + len(
        rel.right.columns
    ):
        return None
    width = len(rel.left.columns)
    if max(used) < width:
        if rel.kind not in ("inner", "left"):
            return None
        left = _pushed(rel.left, condition, used)
        return None if left is None else replace(rel, left=left)
    if min(used) >= width:
        if rel.kind not in ("inner", "right"):
            return None
        moved = _shifted(condition, -width)
        right = _pushed(rel.right, moved, {i - width for i in used})
        return None if right is None else replace(rel, right=right)
    if rel.kind != "inner":
        return None
    if rel.condition is not None:
        nullable = rel.condition.nullable or condition.nullable
        span = rel.condition.span.to(condition.span)
        condition = plan.Call("and", (rel.condition, condition), types.BOOLEAN, nullable, span)
    return replace(rel, condition=condition)


def _shifted(expr: plan.Expr, by: int) -> plan.Expr:
    match expr:
        case plan.ColumnRef():
            return replace(expr, index=expr.index + by)
        case plan.Call():
            return replace(expr, args=tuple(_shifted(arg, by) for arg in expr.args))
        case plan.Cast():
            return replace(expr, operand=_shifted(expr.operand, by))
        case plan.Case():
            whens = tuple((_shifted(c, by), _shifted(r, by)) for c, r in expr.whens)
            else_ = None if expr.else_ is None else _shifted(expr.else_, by)
            return replace(expr, whens=whens, else_=else_)
    return expr
