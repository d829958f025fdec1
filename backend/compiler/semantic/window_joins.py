"""Windowed stream joins (SQLstream): `FROM s1 OVER (RANGE ...) AS a JOIN s2 AS b ON ...`.

A window on a side of a JOIN of two streams says which rows of that side a row
arriving on the other side meets: at base time T (the arriving row's rowtime) the
window holds the side's rows with rowtime in [T - preceding, T + following]. A side
written without OVER is RANGE CURRENT ROW (SQLstream's default): the rows at T.

| written                                        | preceding, following |
|------------------------------------------------|----------------------|
| RANGE CURRENT ROW (or no OVER)                 | 0, 0                 |
| RANGE INTERVAL '10' MINUTE PRECEDING           | 10 min, 0            |
| RANGE INTERVAL '10' MINUTE FOLLOWING           | 0, 10 min            |
| RANGE BETWEEN i PRECEDING AND j FOLLOWING      | i, j                 |

The rules Weir implements are in docs/dialect.md ("Windowed stream joins").
"""

from __future__ import annotations

from collections.abc import Mapping

from backend.compiler.diagnostics import Code, error
from backend.compiler.plan import nodes as plan
from backend.compiler.semantic import types
from backend.compiler.semantic.catalog import RelationKind
from backend.compiler.semantic.environment import Environment
from backend.compiler.semantic.windows import interval_micros
from backend.compiler.source import Span
from backend.compiler.syntax import ast

ROWTIME = "rowtime"
OUTPUT_ROWTIME = plan.Field(ROWTIME, types.TIMESTAMP, False)
CURRENT_ROW = plan.JoinWindow(0, 0)
NamedWindows = Mapping[str, ast.WindowSpec]


def is_windowed(join: ast.Join) -> bool:
    """Whether a side of `join` is a FROM item with OVER: a windowed stream join."""
    return any(isinstance(side, ast.TableRef) and side.over is not None for side in _sides(join))


def window_join(
    join: ast.Join,
    kind: str,
    sides: tuple[plan.Rel, plan.Rel],
    condition: plan.Expr | None,
    columns: tuple[plan.Field, ...],
    env: Environment,
    named: NamedWindows,
) -> plan.WindowJoin | None:
    """The plan of a windowed join whose sides are bound (`sides`; `columns`: theirs, NULLs
    of an outer join counted, then the output rowtime); None after a report."""
    windows: list[plan.JoinWindow | None] = []
    times: list[int | None] = []
    for item, rel in zip(_sides(join), sides, strict=True):
        times.append(_stream_time(item, rel, env))
        over = item.over if isinstance(item, ast.TableRef) else None
        windows.append(CURRENT_ROW if over is None else join_window(over, named, env))
    left_time, right_time = times
    left_window, right_window = windows
    if left_time is None or right_time is None or left_window is None or right_window is None:
        return None
    left, right = sides
    return plan.WindowJoin(
        kind,
        left,
        right,
        left_time,
        right_time,
        left_window,
        right_window,
        condition,
        columns,
        join.span,
    )


def join_window(
    over: ast.WindowSpec | ast.Identifier, named: NamedWindows, env: Environment
) -> plan.JoinWindow | None:
    """The window of `s OVER (...)` or `s OVER w` (w from the SELECT's WINDOW clause)."""
    spec = _resolved(over, named, env)
    if spec is None:
        return None
    if spec.partition_by:
        span = spec.partition_by[0].span.to(spec.partition_by[-1].span)
        _invalid("A join window cannot be partitioned", span, env)
        return None
    for item in spec.order_by:
        if not (isinstance(item.expr, ast.ColumnRef) and item.expr.parts[-1].value == ROWTIME):
            _invalid("A join window is ordered by ROWTIME only", item.span, env)
            return None
    frame = spec.frame
    if frame is None:
        message = "A join window needs a frame: RANGE ... PRECEDING, FOLLOWING or CURRENT ROW"
        _invalid(message, spec.span, env)
        return None
    if frame.unit == "rows":
        env.not_supported(
            "ROWS windows in a join (a row-count window; write RANGE with an INTERVAL)",
            frame.span,
        )
        return None
    bounds = (frame.start,) if frame.end is None else (frame.start, frame.end)
    offsets = [_offset(bound, env) for bound in bounds]
    if None in offsets:
        return None
    if frame.end is None:
        # SQLstream: one bound is the window between it and the current row.
        offsets = sorted([offsets[0], 0])  # type: ignore[type-var]
    start, end = offsets
    assert start is not None and end is not None
    if start > end:
        _invalid("The window frame ends before it starts", frame.span, env)
        return None
    if start > 0 or end < 0:
        env.not_supported(
            "a join window that does not contain the current row (SQLstream's offset windows)",
            frame.span,
        )
        return None
    return plan.JoinWindow(-start, end)


def _resolved(
    over: ast.WindowSpec | ast.Identifier, named: NamedWindows, env: Environment
) -> ast.WindowSpec | None:
    name = over if isinstance(over, ast.Identifier) else over.base
    if name is None:
        assert isinstance(over, ast.WindowSpec)
        return over
    base = named.get(name.value)
    if base is None:
        known = ", ".join(sorted(named)) or "none"
        env.report(
            error(
                Code.INVALID_WINDOW,
                f"Unknown window '{name.value}' (windows of this SELECT: {known})",
                name.span,
                hint="define it in the SELECT's WINDOW clause",
            )
        )
        return None
    if isinstance(over, ast.Identifier):
        return base
    return ast.WindowSpec(
        None,
        over.partition_by or base.partition_by,
        over.order_by or base.order_by,
        over.frame or base.frame,
        over.span,
    )


def _offset(bound: ast.FrameBound, env: Environment) -> int | None:
    """A frame bound in signed microseconds (negative: preceding); None after a report."""
    if bound.kind == "current row":
        return 0
    if bound.kind in ("unbounded preceding", "unbounded following"):
        env.report(
            error(
                Code.UNBOUNDED_JOIN_WINDOW,
                "A join window must end: with UNBOUNDED every row of the stream stays in "
                "the join's state forever",
                bound.span,
                hint="bound the window, as in RANGE INTERVAL '1' HOUR PRECEDING",
            )
        )
        return None
    micros = None
    if isinstance(bound.offset, ast.IntervalLiteral):
        micros = interval_micros(bound.offset)
    if micros is None:
        message = "A join window's RANGE offset must be a day-time INTERVAL literal"
        env.report(error(Code.TYPE_MISMATCH, message, bound.span))
        return None
    if micros < 0:
        _invalid("A join window's offset cannot be negative", bound.span, env)
        return None
    return -micros if bound.kind == "preceding" else micros


def _stream_time(item: ast.FromItem, rel: plan.Rel, env: Environment) -> int | None:
    """The rowtime column of a side that names a stream; None after a report."""
    if not isinstance(item, ast.TableRef) or item.as_of is not None:
        env.not_supported(
            "a windowed join of something other than a stream named in FROM", item.span
        )
        return None
    name = item.name
    if name.value in env.ctes:
        env.not_supported("a windowed join of a WITH query", name.span)
        return None
    relation = env.relation(name.value)
    if relation is None:
        return None  # reported where the name was resolved
    if relation.kind is RelationKind.VIEW:
        env.not_supported(f"a windowed join of view '{name.value}'", name.span)
        return None
    if relation.kind is not RelationKind.STREAM:
        span = item.over.span if item.over is not None else name.span
        env.report(
            error(
                Code.JOIN_WINDOW_MISUSE,
                f"'{name.value}' is a table: a windowed join relates two streams",
                span,
                hint="declare it with CREATE STREAM, or join the table without OVER",
            )
        )
        return None
    return next(i for i, column in enumerate(rel.columns) if column.name == ROWTIME)


def _sides(join: ast.Join) -> tuple[ast.FromItem, ast.FromItem]:
    return join.left, join.right


def _invalid(message: str, span: Span, env: Environment) -> None:
    env.report(error(Code.INVALID_WINDOW, message, span))
