"""Monotonicity of expressions: does an expression keep a waterline of its input?

An expression is monotone here when it is a non-decreasing function of
columns that have waterlines and of constants: `FLOOR(ts TO HOUR)`,
`ts + INTERVAL '1' HOUR`, `TIMESTAMPADD(HOUR, 1, ts)`, `YEAR(ts)`, `EXTRACT(EPOCH FROM ts)`,
`TUMBLE_START(ts, ...)`, `ROUND(x, 2)`, a window bound, a widening cast. Then a waterline of
its input gives it one too.
"""

from __future__ import annotations

from backend.compiler.plan import nodes as plan
from backend.compiler.semantic import types

# Non-decreasing: time to the year and the coarser units it counts (ISO years too),
# FLOOR and CEIL of a number.
_COUNTED_YEARS = ("year", "isoyear", "decade", "century", "millennium")
_ORDER_PRESERVING = frozenset(
    {"floor_time", "ceil_time", "tumble_start", "tumble_end", "extract_epoch"}
    | {f"extract_{unit}" for unit in _COUNTED_YEARS}
    | {"floor", "ceil"}
)
# Non-decreasing in x for a constant number of places n, not in n (ROUND(1.6, 0) = 2 is
# above ROUND(1.6, 1) = 1.6), and TRUNCATE(-1.6, 0) = -1 above TRUNCATE(-1.6, 1).
_TO_PLACES = frozenset({"round", "bround", "truncate"})


def is_monotone(expr: plan.Expr, waterlines: tuple[bool, ...]) -> bool:
    """Whether `expr` has a waterline, given which input columns have one."""
    match expr:
        case plan.ColumnRef():
            return 0 <= expr.index < len(waterlines) and waterlines[expr.index]
        case plan.Call() if expr.function in _ORDER_PRESERVING:
            return is_monotone(expr.args[0], waterlines)
        case plan.Call() if expr.function == "add" and len(expr.args) == 2:
            left, right = expr.args
            return (is_monotone(left, waterlines) and is_constant(right)) or (
                is_constant(left) and is_monotone(right, waterlines)
            )
        case plan.Call() if expr.function == "sub" and len(expr.args) == 2:
            return is_monotone(expr.args[0], waterlines) and is_constant(expr.args[1])
        case plan.Call() if expr.function in _TO_PLACES:  # ROUND(x [, n]) for a constant n
            places_constant = len(expr.args) == 1 or is_constant(expr.args[1])
            return places_constant and is_monotone(expr.args[0], waterlines)
        case plan.Call() if expr.function == "timestampadd":  # (unit, n, t)
            return is_constant(expr.args[1]) and is_monotone(expr.args[2], waterlines)
        case plan.Cast():
            target = expr.type
            widening = types.is_datetime(target) or types.is_numeric(target)
            return widening and is_monotone(expr.operand, waterlines)
    return False


def is_constant(expr: plan.Expr) -> bool:
    match expr:
        case plan.Literal():
            return True
        case plan.Cast():
            return is_constant(expr.operand)
        case plan.Call() if expr.function in ("neg", "add", "sub", "mul"):
            return all(is_constant(arg) for arg in expr.args)
    return False
