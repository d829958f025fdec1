"""Window functions: `f(...) OVER (PARTITION BY ... ORDER BY ... frame)` in a SELECT list.

`OVER w` names a window of the SELECT's WINDOW clause; `OVER (w ...)` and
`OVER w (...)` refine it (a refinement adds ORDER BY or a frame to the named
one). Each call becomes one column of a `Window` node placed between the FROM
(and WHERE) and the SELECT list, which refers to it by position; in a SELECT that
groups, between the groups (and HAVING) and the SELECT list.

Without a frame, a window with ORDER BY runs from the partition's start to the
current row (RANGE, so peers are included); without ORDER BY it is the whole
partition. RANGE offsets are INTERVALs for a time key (kept in microseconds)
or numbers for a numeric key.

A window without ORDER BY over a FROM with a `rowtime` column is ordered by
rowtime: SQLstream's windows over a stream are (`AVG(price) OVER (RANGE INTERVAL
'1' HOUR PRECEDING)`), and so is Calcite's cascading window, `SUM(units) OVER
(PARTITION BY FLOOR(rowtime TO HOUR))`, a running total since the top of the hour.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from backend.compiler.diagnostics import Code, Diagnostic, error
from backend.compiler.plan import nodes as plan
from backend.compiler.semantic import aggregates, types
from backend.compiler.semantic.expressions import ExprContext, bind_expr, sort_key
from backend.compiler.semantic.scope import Scope, quiet_column
from backend.compiler.source import Span
from backend.compiler.syntax import ast

if TYPE_CHECKING:
    from backend.compiler.semantic.grouping import Grouping

ROWTIME = "rowtime"
# Functions of a row's position in its partition, without arguments: BIGINT, but
# PERCENT_RANK and CUME_DIST are DOUBLE fractions.
RANKING = frozenset({"row_number", "rank", "dense_rank", "percent_rank", "cume_dist"})
FRACTIONS = frozenset({"percent_rank", "cume_dist"})
# LAG/LEAD(x [, offset [, default]]): x of the row `offset` rows before / after.
OFFSETS = frozenset({"lag", "lead"})
# FIRST_VALUE/LAST_VALUE(x): x of the first / last row of the frame; NTH_VALUE(x, n)
# (Calcite's) x of its n-th row, NULL where it has fewer.
FRAME_VALUES = frozenset({"first_value", "last_value", "nth_value"})


@dataclass
class WindowCalls:
    """The window calls of one SELECT list; call k is the column `base + k`.

    In a SELECT that groups, the calls are over the groups (`over_groups`): their
    arguments, partitions and orders may be aggregates, and the Window node comes
    after the aggregate (and HAVING)."""

    base: int
    named: dict[str, ast.WindowSpec]
    grouped: bool = False  # the SELECT groups: no ORDER BY rowtime default (no such column)
    calls: list[plan.WindowCall] = field(default_factory=list)

    def bind(self, call: ast.FunctionCall, ctx: ExprContext, depth: int) -> plan.Expr | None:
        inner = replace(ctx, windows=None, aggregate_clause="a window")
        spec = self._spec(call, ctx.diagnostics)
        bound = _bind_call(call, spec, inner, depth, self.grouped) if spec is not None else None
        ctx.too_deep_reported = inner.too_deep_reported
        if bound is None:
            return None
        # The same call twice (in the select list and by its name in QUALIFY) is one.
        shapes = [_shape(known) for known in self.calls]
        if _shape(bound) in shapes:
            position = shapes.index(_shape(bound))
        else:
            self.calls.append(bound)
            position = len(self.calls) - 1
        index = self.base + position
        return plan.ColumnRef(index, call.name.value, bound.type, bound.nullable, call.span)

    def node(
        self, rel: plan.Rel, span: Span, calls: list[plan.WindowCall] | None = None
    ) -> plan.Window:
        """The Window node of `calls` (the calls as bound when not given) over `rel`."""
        calls = self.calls if calls is None else calls
        fields = tuple(
            plan.Field(f"{c.function}_{k}", c.type, c.nullable) for k, c in enumerate(calls)
        )
        return plan.Window(rel, tuple(calls), rel.columns + fields, span)

    def over_groups(self, grouping: Grouping) -> list[plan.WindowCall] | None:
        """The calls over the aggregate's output (its keys, aggregates), or None when one
        reads a column that is not grouped (reported)."""
        lifted = []
        for call in self.calls:
            args = [grouping.lift(arg) for arg in call.args]
            partition = [grouping.lift(expr) for expr in call.partition]
            order = [grouping.lift(key.expr) for key in call.order]
            if None in args or None in partition or None in order:
                return None
            keys = tuple(
                replace(key, expr=expr)
                for key, expr in zip(call.order, order, strict=True)
                if expr is not None
            )
            lifted.append(
                replace(
                    call,
                    args=tuple(a for a in args if a is not None),
                    partition=tuple(p for p in partition if p is not None),
                    order=keys,
                )
            )
        return lifted

    @property
    def columns(self) -> range:
        """The positions the calls' values have in the SELECT list's expressions."""
        return range(self.base, self.base + len(self.calls))

    def _spec(self, call: ast.FunctionCall, found: list[Diagnostic]) -> ast.WindowSpec | None:
        over = call.over
        if isinstance(over, ast.Identifier):
            return self._named(over, found)
        assert over is not None
        if over.base is None:
            return over
        base = self._named(over.base, found)
        if base is None:
            return None
        return _refined(over, base)

    def _named(self, name: ast.Identifier, found: list[Diagnostic]) -> ast.WindowSpec | None:
        spec = self.named.get(name.value)
        if spec is None:
            known = ", ".join(sorted(self.named)) or "none"
            found.append(
                error(
                    Code.INVALID_WINDOW,
                    f"Unknown window '{name.value}' (windows of this SELECT: {known})",
                    name.span,
                    hint="define it in the SELECT's WINDOW clause",
                )
            )
        return spec


def _shape(call: plan.WindowCall) -> object:
    """A window call without its spans, to compare calls."""
    order = tuple((aggregates.shape(k.expr), k.descending, k.nulls_first) for k in call.order)
    return (
        call.function,
        tuple(map(aggregates.shape, call.args)),
        tuple(map(aggregates.shape, call.partition)),
        order,
        (call.unit, call.start, call.end),
        call.ignore_nulls,
    )


def named_windows(select: ast.Select, found: list[Diagnostic]) -> dict[str, ast.WindowSpec]:
    """The WINDOW clause's windows, each resolved against the ones it refines."""
    named: dict[str, ast.WindowSpec] = {}
    for window in select.windows:
        spec = window.spec
        if window.name.value in named:
            found.append(
                error(
                    Code.INVALID_WINDOW,
                    f"Window '{window.name.value}' is defined twice",
                    window.name.span,
                )
            )
            continue
        if spec.base is not None and spec.base.value in named:
            spec = _refined(spec, named[spec.base.value])
        named[window.name.value] = spec
    return named


def _refined(spec: ast.WindowSpec, base: ast.WindowSpec) -> ast.WindowSpec:
    """`spec` written over the named window `base`: what it leaves out comes from `base`."""
    return ast.WindowSpec(
        None,
        spec.partition_by or base.partition_by,
        spec.order_by or base.order_by,
        spec.frame or base.frame,
        spec.span,
    )


def _bind_call(
    call: ast.FunctionCall, spec: ast.WindowSpec, ctx: ExprContext, depth: int, grouped: bool
) -> plan.WindowCall | None:
    name = call.name.value.lower()
    shown = name.upper()
    known = RANKING | OFFSETS | FRAME_VALUES | {"ntile"}
    if name not in known and name not in aggregates.COMPILED:
        ctx.not_supported(f"window function {shown}", call.span)
        return None
    if (call.distinct and name != "count") or call.filter is not None:
        ctx.not_supported(f"{shown}(DISTINCT or FILTER ...) OVER", call.span)
        return None
    if call.ignore_nulls and name not in OFFSETS | FRAME_VALUES:
        message = (
            f"IGNORE NULLS applies to LAG, LEAD, FIRST_VALUE, LAST_VALUE and NTH_VALUE, not {shown}"
        )
        ctx.report(Code.INVALID_WINDOW, message, call.span)
        return None
    if name in aggregates.NOT_OVER_WINDOWS:
        ctx.not_supported(f"{shown}(...) OVER", call.span)
        return None
    if not spec.order_by and not grouped:
        spec = replace(spec, order_by=_by_rowtime(spec, ctx.scope))
    args = [bind_expr(arg, ctx, depth) for arg in call.args]
    partition = [bind_expr(expr, ctx, depth) for expr in spec.partition_by]
    order = [bind_expr(item.expr, ctx, depth) for item in spec.order_by]
    if None in args or None in partition or None in order:
        return None
    keys = tuple(
        sort_key(expr, item)
        for expr, item in zip(order, spec.order_by, strict=True)
        if expr is not None
    )
    present = tuple(a for a in args if a is not None)
    if name in RANKING or name == "ntile":
        wanted = 1 if name == "ntile" else 0
        if len(present) != wanted or call.star:
            takes = "1 argument" if wanted else "no arguments"
            ctx.report(Code.UNKNOWN_FUNCTION, f"{shown} takes {takes}", call.span)
            return None
        if not keys:
            ctx.report(
                Code.INVALID_WINDOW,
                f"{shown} needs a window with ORDER BY",
                spec.span,
                hint="add ORDER BY to the window",
            )
            return None
        if name == "ntile" and not _positive_constant(present[0]):
            message = "NTILE's number of buckets must be a positive integer constant"
            ctx.report(Code.INVALID_WINDOW, message, present[0].span)
            return None
        result = types.DOUBLE if name in FRACTIONS else types.BIGINT
        function, nullable = name, False
    elif name in FRAME_VALUES:
        wanted = 2 if name == "nth_value" else 1
        if len(present) != wanted or call.star:
            takes = "2 arguments" if wanted == 2 else "1 argument"
            ctx.report(Code.UNKNOWN_FUNCTION, f"{shown} takes {takes}", call.span)
            return None
        if name == "nth_value" and not _positive_constant(present[1]):
            message = "NTH_VALUE's place must be a positive integer constant"
            ctx.report(Code.INVALID_WINDOW, message, present[1].span)
            return None
        function, result, nullable = name, present[0].type, True
    elif name in OFFSETS:
        offset_args = _offset_args(call, present, keys, spec, ctx)
        if offset_args is None:
            return None
        present = offset_args
        function, result, nullable = name, present[0].type, True
    else:
        agg, problem = aggregates.agg_call(call, present)
        if agg is None:
            ctx.report(Code.TYPE_MISMATCH, str(problem), call.span)
            return None
        function, result, nullable = agg.function, agg.type, agg.nullable
        present = agg.args  # as the aggregate takes them (COUNTIF(c): a CASE of c)
        if call.distinct and len(present) > 1:
            ctx.not_supported("COUNT(DISTINCT a, b, ...) OVER", call.span)
            return None
        if call.distinct:  # COUNT(DISTINCT x) OVER: the distinct non-NULL values
            function = "count_distinct"
    frame = _frame(spec, keys, ctx.diagnostics)
    if frame is None:
        return None
    unit, start, end = frame
    return plan.WindowCall(
        function,
        present,
        tuple(p for p in partition if p is not None),
        keys,
        unit,
        start,
        end,
        result,
        nullable,
        call.span,
        call.ignore_nulls,
    )


def _positive_constant(expr: plan.Expr) -> bool:
    value = expr.value if isinstance(expr, plan.Literal) else None
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def _by_rowtime(spec: ast.WindowSpec, scope: Scope) -> tuple[ast.OrderItem, ...]:
    """`ORDER BY rowtime` (at the window) when the FROM has a time column of that name."""
    name = ast.Identifier(ROWTIME, False, spec.span)
    found = quiet_column(scope, name)
    if found is None or not types.is_datetime(found.type):
        return ()
    return (ast.OrderItem(ast.ColumnRef((name,), spec.span), False, None, spec.span),)


def _offset_args(
    call: ast.FunctionCall,
    args: tuple[plan.Expr, ...],
    keys: tuple[plan.SortKey, ...],
    spec: ast.WindowSpec,
    ctx: ExprContext,
) -> tuple[plan.Expr, ...] | None:
    """LAG/LEAD's (value, offset[, default]): the offset a non-negative integer constant
    (1 when left out), the default cast to the value's type; None after an error."""
    shown = call.name.value.upper()
    problem = None
    if not 1 <= len(args) <= 3 or call.star:
        problem = f"{shown} expects 1 to 3 arguments, got {len(args)}"
    elif not keys:
        problem = f"{shown} needs a window with ORDER BY"
    elif spec.frame is not None:
        problem = f"{shown} takes no window frame (ROWS or RANGE)"
    if problem is not None:
        ctx.report(Code.INVALID_WINDOW, problem, call.span)
        return None
    value = args[0]
    offset: plan.Expr = plan.Literal(1, types.INTEGER, False, call.span)
    if len(args) > 1:
        offset = args[1]
        count = offset.value if isinstance(offset, plan.Literal) else None
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            message = f"{shown}'s offset must be a non-negative integer constant"
            ctx.report(Code.INVALID_WINDOW, message, offset.span)
            return None
    if len(args) < 3:
        return (value, offset)
    default = args[2]
    if default.type != value.type:
        if not types.can_cast(default.type, value.type):
            message = f"{shown}'s default must be a {value.type}, found {default.type}"
            ctx.report(Code.TYPE_MISMATCH, message, default.span)
            return None
        default = plan.Cast(default, value.type, default.nullable, default.span)
    return (value, offset, default)


Frame = tuple[str, int | float | None, int | float | None]


def _frame(
    spec: ast.WindowSpec, keys: tuple[plan.SortKey, ...], found: list[Diagnostic]
) -> Frame | None:
    frame = spec.frame
    if frame is None:
        return ("range", None, 0) if keys else ("rows", None, None)
    start = _offset(frame.start, frame.unit, keys, found)
    end = (0,) if frame.end is None else _offset(frame.end, frame.unit, keys, found)
    if start is None or end is None:
        return None
    if start[0] is not None and end[0] is not None and start[0] > end[0]:
        found.append(
            error(Code.INVALID_WINDOW, "The window frame ends before it starts", frame.span)
        )
        return None
    return frame.unit, start[0], end[0]


def _offset(
    bound: ast.FrameBound, unit: str, keys: tuple[plan.SortKey, ...], found: list[Diagnostic]
) -> tuple[int | float | None] | None:
    """The bound as a signed offset (negative: preceding), in a 1-tuple; None on error."""
    if bound.kind == "current row":
        return (0,)
    if bound.kind in ("unbounded preceding", "unbounded following"):
        return (None,)
    sign = -1 if bound.kind == "preceding" else 1
    offset = bound.offset
    # `2::INT8 PRECEDING` (PostgreSQL's window tests): a whole number cast is that number.
    while isinstance(offset, ast.Cast) and isinstance(offset.operand, ast.NumberLiteral | ast.Cast):
        if isinstance(offset.operand, ast.NumberLiteral) and offset.operand.kind != "integer":
            break
        offset = offset.operand
    if unit == "rows":
        if isinstance(offset, ast.NumberLiteral) and offset.kind == "integer":
            return (sign * int(offset.text),)
        found.append(
            error(
                Code.INVALID_WINDOW,
                "ROWS takes a non-negative integer constant",
                bound.span,
                hint="write ROWS 3 PRECEDING",
            )
        )
        return None
    if len(keys) != 1:
        found.append(
            error(Code.INVALID_WINDOW, "A RANGE offset needs exactly one ORDER BY key", bound.span)
        )
        return None
    key_type = keys[0].expr.type
    if isinstance(offset, ast.IntervalLiteral) and types.is_datetime(key_type):
        micros = interval_micros(offset)
        if micros is not None:
            return (sign * micros,)
    if isinstance(offset, ast.NumberLiteral) and types.is_numeric(key_type):
        value = float(offset.text) if offset.kind != "integer" else int(offset.text)
        return (sign * value,)
    found.append(
        error(
            Code.TYPE_MISMATCH,
            f"A RANGE offset over a {key_type} key must be "
            + ("a day-time INTERVAL" if types.is_datetime(key_type) else "a number"),
            bound.span,
        )
    )
    return None


UNIT_MICROS = {
    "day": 86_400_000_000,
    "hour": 3_600_000_000,
    "minute": 60_000_000,
    "second": 1_000_000,
}


def interval_micros(interval: ast.IntervalLiteral) -> int | None:
    """`INTERVAL '2' HOUR` in microseconds (day-time intervals with one unit)."""
    if interval.end_unit is not None or interval.start_unit not in UNIT_MICROS:
        return None
    try:
        amount = float(interval.value.strip())
    except ValueError:
        return None
    micros = int(amount * UNIT_MICROS[interval.start_unit])
    return -micros if interval.negative else micros
