"""Time bucketing: FLOOR/CEIL(ts TO unit), TUMBLE_START/TUMBLE_END, EXTRACT.

Windows are aligned to 1970-01-01 00:00:00. `TUMBLE(ts, INTERVAL ...)` is only
allowed in GROUP BY, where it stands for the window start. So is Calcite's
`HOP(ts, slide, size)`, whose rows are in several windows each: a query grouped by
it reads its FROM through a `Hop` node (semantic/grouping.py), and HOP_START /
HOP_END mean nothing outside such a query; and of `SESSION(ts, gap)`, whose windows
depend on the rows (semantic/sessions.py).
"""

from __future__ import annotations

import datetime as dt

from backend.compiler.diagnostics import Code, Diagnostic, error
from backend.compiler.plan import nodes as plan
from backend.compiler.semantic import types
from backend.compiler.semantic.functions import CANONICAL
from backend.compiler.source import Span
from backend.compiler.syntax import ast

# A WEEK starts on Sunday (Calcite's, Feldera's), an ISOWEEK on Monday (PostgreSQL's
# DATE_TRUNC('week', ts)); a DECADE, CENTURY or MILLENNIUM at a multiple of its years.
FLOOR_UNITS = (
    "microsecond", "millisecond", "second", "minute", "hour", "day", "week", "isoweek",
    "month", "quarter", "year", "decade", "century", "millennium",
)  # fmt: skip
TIME_FLOOR_UNITS = ("microsecond", "millisecond", "second", "minute", "hour")
# EXTRACT's units, as Calcite names them: WEEK is the ISO week (1-53), DOW the day of
# the week from 1 (Sunday) to 7 (Saturday), DOY the day of the year (1-366);
# MILLISECOND, MICROSECOND and NANOSECOND the seconds with their fraction, in those
# units (0 to 59,999, 0 to 59,999,999 and 0 to 59,999,999,000); EPOCH the seconds
# since 1970-01-01 00:00:00. ISODOW is the day of the week from 1 (Monday) to 7
# (Sunday), ISOYEAR the year of the ISO week; DECADE the year / 10, CENTURY and
# MILLENNIUM count from 1 (2000 is in the 20th century and the 2nd millennium, 2001
# in the 21st and the 3rd), as PostgreSQL's.
DATE_UNITS = (
    "year", "quarter", "month", "week", "day", "dow", "doy",
    "isodow", "isoyear", "decade", "century", "millennium",
)  # fmt: skip
TIME_UNITS = ("hour", "minute", "second", "millisecond", "microsecond", "nanosecond")
EXTRACT_UNITS = DATE_UNITS + TIME_UNITS + ("epoch",)
# Functions that are EXTRACT of one unit: YEAR(ts) is EXTRACT(YEAR FROM ts).
DATE_PART_FUNCTIONS = {
    **{unit: unit for unit in ("year", "quarter", "month", "week", "hour", "minute", "second")},
    "dayofmonth": "day",
    "dayofweek": "dow",
    "dayofyear": "doy",
}
WINDOW_FUNCTIONS = (
    "tumble", "tumble_start", "tumble_end", "hop", "hop_start", "hop_end",
    "session", "session_start", "session_end",
)  # fmt: skip
GROUP_WINDOWS = ("tumble", "hop", "session")  # in GROUP BY, each is its window's start
# Windows a row is in depending on other rows (HOP: several; SESSION: its neighbours'):
# their _START and _END mean something only in a query grouped by them.
GROUPED_WINDOWS = ("hop", "session")
SIZES = {"tumble": ("size",), "hop": ("slide", "size"), "session": ("gap",)}
# A window's end: its start plus its size (the argument at that position).
WINDOW_ENDS = {"tumble_end": ("tumble_start", 1), "hop_end": ("hop_start", 2)}
# TIMESTAMPADD(unit, n, t) and TIMESTAMPDIFF(unit, t1, t2), as Calcite has them;
# DATEDIFF is TIMESTAMPDIFF and DATEADD TIMESTAMPADD (functions.CANONICAL).
TIMESTAMP_ARITHMETIC = ("timestampadd", "timestampdiff", "datediff", "dateadd")
ARITHMETIC_UNITS = (
    "microsecond", "millisecond", "second", "minute", "hour",
    "day", "week", "month", "quarter", "year",
)  # fmt: skip


def plain_unit(word: str) -> str:
    """A time unit's plain name: SQL_TSI_HOUR (JDBC's, Calcite's and Feldera's) is HOUR.

    >>> plain_unit("sql_tsi_day"), plain_unit("hour")
    ('day', 'hour')
    """
    return word.removeprefix("sql_tsi_")


def floor_ceil(
    expr: ast.FloorCeil, operand: plan.Expr, diagnostics: list[Diagnostic]
) -> plan.Expr | None:
    unit = plain_unit(expr.unit.lower())
    unit = unit[:-1] if unit.endswith("s") and unit[:-1] in FLOOR_UNITS else unit  # HOURS
    if unit not in FLOOR_UNITS:
        units = ", ".join(u.upper() for u in FLOOR_UNITS)
        message = f"Unknown time unit {expr.unit.upper()}: expected one of {units}"
        diagnostics.append(error(Code.INVALID_LITERAL, message, expr.span))
        return None
    of_time = operand.type.kind is types.TypeKind.TIME and unit in TIME_FLOOR_UNITS
    if operand.type.kind not in (types.TypeKind.TIMESTAMP, types.TypeKind.DATE) and not of_time:
        message = f"{expr.function.upper()}(... TO {unit.upper()}) expects a TIMESTAMP or DATE"
        diagnostics.append(
            error(Code.TYPE_MISMATCH, f"{message}, found {operand.type}", operand.span)
        )
        return None
    literal = plan.Literal(unit.upper(), types.VARCHAR, False, expr.span)
    function = f"{expr.function}_time"
    return plan.Call(function, (operand, literal), operand.type, operand.nullable, expr.span)


# DATE_TRUNC('hour', ts) as PostgreSQL, DuckDB and Spark write it; DATE_TRUNC(d, MONTH),
# TIMESTAMP_TRUNC(ts, HOUR) and TIME_TRUNC(tm, MINUTE) as Feldera and BigQuery do. Each
# is FLOOR(ts TO HOUR); the week of the first spelling starts on Monday (ISOWEEK), of
# the second on Sunday.
TRUNCATIONS = ("date_trunc", "timestamp_trunc", "time_trunc")
# DATE_ADD(t, interval) and DATE_SUB(t, interval): t + interval and t - interval
# (Feldera's); an integer for the interval is that many days (MySQL's, Spark's).
DATE_SHIFTS = {"date_add": "+", "date_sub": "-"}


def truncation(call: ast.FunctionCall, diagnostics: list[Diagnostic]) -> ast.FloorCeil | None:
    """DATE_TRUNC / TIMESTAMP_TRUNC as the FLOOR(x TO unit) it is, or None after an error."""
    shown = call.name.value.upper()
    args = call.args
    word = unit_word(args[1]) if len(args) == 2 else None
    if word is not None and _is_unit(word):  # DATE_TRUNC(d, MONTH), Feldera's
        unit, operand = word, args[0]
        if isinstance(operand, ast.StringLiteral):  # DATE_TRUNC('2020-01-10', MONTH)
            typed = ast.TypeName((_TRUNCATED[call.name.value.lower()],), (), operand.span)
            operand = ast.Cast(operand, typed, operand.span)
    elif len(args) == 2 and isinstance(args[0], ast.StringLiteral):
        unit, operand = args[0].value, args[1]
        unit = "isoweek" if unit.lower() in ("week", "weeks") else unit
    elif word is not None:
        unit, operand = word, args[0]
    else:
        message = f"{shown} expects a unit and a value: {shown}('hour', ts) or {shown}(ts, HOUR)"
        diagnostics.append(error(Code.UNKNOWN_FUNCTION, message, call.span))
        return None
    return ast.FloorCeil("floor", operand, unit, call.span)


_TRUNCATED = {"date_trunc": "date", "timestamp_trunc": "timestamp", "time_trunc": "time"}


def unit_word(expr: ast.Expr | None) -> str | None:
    """The time unit a bare word names (HOUR in TIMESTAMPADD(HOUR, ...), MONTH in
    DATE_TRUNC(d, MONTH)), in lower case; None for anything else."""
    parts = expr.parts if isinstance(expr, ast.ColumnRef) else ()
    if len(parts) != 1 or parts[0].quoted:
        return None
    return plain_unit(parts[0].value.lower())


def _is_unit(word: str) -> bool:
    return word in FLOOR_UNITS or (word.endswith("s") and word[:-1] in FLOOR_UNITS)


def extract(
    expr: ast.Extract, operand: plan.Expr, diagnostics: list[Diagnostic]
) -> plan.Expr | None:
    unit = plain_unit(expr.unit.lower())
    if unit not in EXTRACT_UNITS:
        units = ", ".join(u.upper() for u in EXTRACT_UNITS)
        message = f"Cannot EXTRACT {expr.unit.upper()}: expected one of {units}"
        diagnostics.append(error(Code.INVALID_LITERAL, message, expr.span))
        return None
    return date_part(unit, f"EXTRACT {unit.upper()}", operand, expr.span, diagnostics)


def date_part(
    unit: str, shown: str, operand: plan.Expr, span: Span, diagnostics: list[Diagnostic]
) -> plan.Expr | None:
    """EXTRACT(unit FROM operand) (`shown` names it in errors), or None after an error."""
    allowed = {
        types.TypeKind.TIMESTAMP: EXTRACT_UNITS,
        types.TypeKind.DATE: EXTRACT_UNITS,
        types.TypeKind.TIME: TIME_UNITS,
    }
    if unit not in allowed.get(operand.type.kind, ()):
        message = f"Cannot {shown} from {operand.type}"
        diagnostics.append(error(Code.TYPE_MISMATCH, message, operand.span))
        return None
    if operand.type == types.DATE and unit in TIME_UNITS:  # of its midnight: 0, as Feldera
        operand = plan.Cast(operand, types.TIMESTAMP, operand.nullable, operand.span)
    return plan.Call(f"extract_{unit}", (operand,), types.BIGINT, operand.nullable, span)


def window_call(
    call: ast.FunctionCall,
    args: tuple[plan.Expr, ...],
    group_by: bool,
    selecting: bool,
    diagnostics: list[Diagnostic],
) -> plan.Expr | None:
    """TUMBLE_START(ts, size), TUMBLE_END(...), and TUMBLE(ts, size) in GROUP BY; the
    same for HOP(ts, slide, size) and SESSION(ts, gap) (semantic/sessions.py). TUMBLE
    and HOP may end with the windows' alignment. `selecting`: in a SELECT list or
    HAVING, where HOP_START, HOP_END, SESSION_START and SESSION_END can be."""
    name = call.name.value.lower()
    shown = name.upper()
    family = name.split("_")[0]  # tumble, hop or session
    if family in GROUPED_WINDOWS and name != family and not (selecting or group_by):
        message = f"{shown}(...) is a group's window: it can be in a SELECT list or HAVING"
        hint = f"group by {family.upper()}(...) with the same arguments"
        diagnostics.append(error(Code.AGGREGATE_MISUSE, message, call.span, hint=hint))
        return None
    if name in GROUP_WINDOWS and not group_by:
        message = f"Not supported yet: {shown}(...) outside GROUP BY"
        hint = f"use it in GROUP BY and {shown}_START(...) in the select list"
        if name != "session":
            written = "INTERVAL ..." if name == "tumble" else "slide, size"
            hint += f", or FROM TABLE({shown}(TABLE t, DESCRIPTOR(ts), {written}))"
        diagnostics.append(error(Code.NOT_SUPPORTED, message, call.span, hint=hint))
        return None
    roles = SIZES[family]
    sizes = len(roles)
    aligned = family != "session"  # a session starts at its first row
    if call.star or call.distinct or len(args) not in (1 + sizes, 1 + sizes + aligned):
        intervals = "an INTERVAL literal" if sizes == 1 else "two INTERVAL literals (slide, size)"
        if not aligned:
            message = f"{shown} expects 2 arguments: a TIMESTAMP and an INTERVAL literal (gap)"
        else:
            message = (
                f"{shown} expects {1 + sizes} or {2 + sizes} arguments: a TIMESTAMP, "
                f"{intervals} and optionally the windows' alignment (an INTERVAL offset or a "
                "TIME of day)"
            )
        diagnostics.append(error(Code.UNKNOWN_FUNCTION, message, call.span))
        return None
    time, *lengths = args[: 1 + sizes]
    align = args[1 + sizes :]
    if time.type != types.TIMESTAMP:
        message = f"{shown} expects a TIMESTAMP, found {time.type}"
        diagnostics.append(error(Code.TYPE_MISMATCH, message, time.span))
        return None
    for length, role in zip(lengths, roles, strict=True):
        if interval_micros(length) is None:
            message = f"{shown} expects a positive INTERVAL DAY TO SECOND literal as its {role}"
            diagnostics.append(error(Code.TYPE_MISMATCH, message, length.span))
            return None
    offsets = [window_offset(a) for a in align]
    if None in offsets:
        message = f"{shown} expects an INTERVAL DAY TO SECOND or TIME literal as its alignment"
        diagnostics.append(error(Code.TYPE_MISMATCH, message, align[0].span))
        return None
    function = name if name.endswith("_end") else f"{family}_start"  # TUMBLE: its start
    arguments = (time, *lengths, *(o for o in offsets if o is not None))
    return plan.Call(function, arguments, types.TIMESTAMP, time.nullable, call.span)


def window_offset(expr: plan.Expr) -> plan.Literal | None:
    """A window's alignment as an INTERVAL DAY TO SECOND literal: windows start at
    offset + k * size. An interval literal is taken as it is; a TIME literal is the
    time of day windows are aligned at (Calcite's `TUMBLE(ts, size, TIME '0:30')`)."""
    if not isinstance(expr, plan.Literal):
        return None
    if expr.type == types.INTERVAL_DAY_TIME and isinstance(expr.value, int):
        return expr
    if expr.type == types.TIME and isinstance(expr.value, str):
        clock = dt.time.fromisoformat(expr.value)
        micros = ((clock.hour * 60 + clock.minute) * 60 + clock.second) * 10**6
        micros += clock.microsecond
        return plan.Literal(micros, types.INTERVAL_DAY_TIME, False, expr.span)
    return None


def interval_micros(expr: plan.Expr) -> int | None:
    """The length of a positive DAY TO SECOND interval literal, in microseconds."""
    if (
        isinstance(expr, plan.Literal)
        and expr.type == types.INTERVAL_DAY_TIME
        and isinstance(expr.value, int)
        and not isinstance(expr.value, bool)
        and expr.value > 0
    ):
        return expr.value
    return None


def timestamp_arithmetic(
    name: str, unit: str, args: tuple[plan.Expr, plan.Expr], span: Span, found: list[Diagnostic]
) -> plan.Expr | None:
    """TIMESTAMPADD(unit, n, t): t moved by n units (a DATE stays a DATE for units of a
    day or more; a TIME, moved by units of an hour or less, stays a TIME, around the
    clock). TIMESTAMPDIFF(unit, t1, t2): the whole units from t1 to t2, an INTEGER.
    None after reporting an error."""
    shown = name.upper()
    name = CANONICAL.get(name, name)  # DATEADD, DATEDIFF: Feldera's other names
    times: tuple[types.TypeKind, ...] = (types.TypeKind.TIMESTAMP, types.TypeKind.DATE)
    values = args[1:] if name == "timestampadd" else args
    if unit in TIME_FLOOR_UNITS and all(a.type.kind is types.TypeKind.TIME for a in values):
        times = (types.TypeKind.TIME,)  # a time of day, with its hours and less (Feldera's)
    first, second = args
    nullable = first.nullable or second.nullable
    literal = plan.Literal(unit.upper(), types.VARCHAR, False, span)
    if name == "timestampadd":
        if not (types.is_integer(first.type) or types.is_null(first.type)):
            message = f"{shown} adds an integer number of units, found {first.type}"
            found.append(error(Code.TYPE_MISMATCH, message, first.span))
            return None
        if second.type.kind not in times:
            message = f"{shown} expects a TIMESTAMP or DATE, found {second.type}"
            found.append(error(Code.TYPE_MISMATCH, message, second.span))
            return None
        whole_days = ARITHMETIC_UNITS.index(unit) >= ARITHMETIC_UNITS.index("day")
        of_time = second.type.kind is types.TypeKind.TIME
        result = second.type if whole_days or of_time else types.TIMESTAMP
        return plan.Call(name, (literal, first, second), result, nullable, span)
    for arg in args:
        if arg.type.kind not in times:
            message = f"{shown} expects TIMESTAMP or DATE values, found {arg.type}"
            found.append(error(Code.TYPE_MISMATCH, message, arg.span))
            return None
    return plan.Call(name, (literal, first, second), types.INTEGER, nullable, span)
