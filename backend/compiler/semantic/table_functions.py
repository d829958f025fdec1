"""Window table functions in FROM: TUMBLE, HOP, CUMULATE and SESSION.

`TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '1' HOUR))` is a project adding
`window_start = tumble_start(ts, size)` and `window_end = tumble_end(ts, size)`;
`TABLE(HOP(TABLE t, DESCRIPTOR(ts), slide, size))` is a `hop` node adding the
same two columns. Both take an optional last argument OFFSET, an interval that
moves every window's start (Feldera's). Arguments may be named: DATA, TIMECOL,
SIZE, SLIDE, OFFSET. Flink's `TABLE(CUMULATE(TABLE t, DESCRIPTOR(ts), step, size))`
is a filtered `hop` (_cumulated): windows of `size` that grow by `step`.

`TABLE(SESSION(TABLE t, DESCRIPTOR(ts), DESCRIPTOR(k), gap))` (Calcite's; the keys
optional) or `TABLE(SESSION(TABLE t PARTITION BY k, DESCRIPTOR(ts), gap))` (Flink's)
adds the start and end of each row's session within its key, as GROUP BY SESSION
computes them (sessions.with_session). Named: DATA, TIMECOL, KEY, GAP (or SIZE).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from backend.compiler.diagnostics import Code, error
from backend.compiler.plan import nodes as plan
from backend.compiler.semantic import types
from backend.compiler.semantic.catalog import Relation
from backend.compiler.semantic.environment import Environment
from backend.compiler.semantic.expressions import ExprContext, bind_expr
from backend.compiler.semantic.scope import Scope
from backend.compiler.semantic.sessions import with_session
from backend.compiler.semantic.time_functions import interval_micros, window_offset
from backend.compiler.source import Span
from backend.compiler.syntax import ast

Resolve = Callable[
    [ast.Identifier, Span, Environment],
    "tuple[plan.Rel | None, str, frozenset[str], Mapping[str, int] | None]",
]
# Binds a subquery: (rel, column spans) or None (reported).
BindQuery = Callable[[ast.Query, Environment], "tuple[plan.Rel, tuple[Span, ...]] | None"]


@dataclass(frozen=True, slots=True)
class Input:
    """A table function's input: its plan, and its catalog entry when it names one."""

    rel: plan.Rel
    relation: Relation | None
    description: str  # for messages: "table 'orders'"
    span: Span


def function_input(
    arg: ast.Expr, function: str, env: Environment, resolve: Resolve, bind_query: BindQuery
) -> Input | None:
    """The relation `arg` names (`t`, `TABLE t`) or the subquery it is, or None (reported)."""
    if isinstance(arg, ast.Subquery):
        bound = bind_query(arg.query, env)
        return None if bound is None else Input(bound[0], None, "the subquery", arg.span)
    if isinstance(arg, ast.TableArg):
        name = arg.name
    elif isinstance(arg, ast.ColumnRef) and len(arg.parts) == 1:
        name = arg.parts[0]
    else:
        message = f"{function} expects a table, stream or view name (or a subquery) as its input"
        env.report(error(Code.TYPE_MISMATCH, message, arg.span))
        return None
    if isinstance(arg, ast.TableArg) and _partitioned(arg, function, env):
        return None
    rel, description, broken, _ = resolve(name, arg.span, env)
    if rel is None or broken:
        return None
    relation = None if name.value in env.ctes else env.relation(name.value)
    return Input(rel, relation, description, arg.span)


PARAMETERS = {
    "tumble": ("data", "timecol", "size", "offset"),
    "hop": ("data", "timecol", "slide", "size", "offset"),
    "session": ("data", "timecol", "key", "gap"),
    "cumulate": ("data", "timecol", "step", "size", "offset"),
}


def bind_table_function(
    item: ast.TableFunction, env: Environment, resolve: Resolve
) -> plan.Rel | None:
    call = item.call
    name = call.name.value.lower()
    if name not in PARAMETERS or call.name.quoted:
        env.not_supported(f"table function {call.name.value.upper()}", item.span)
        return None
    if item.lateral:
        env.not_supported(f"LATERAL {name.upper()}", item.span)
        return None
    if item.column_aliases:
        env.not_supported("column aliases in FROM", item.column_aliases[0].span)
        return None
    if name == "session":
        return _session(item, env, resolve)
    placed = place_arguments(call, PARAMETERS[name], env, optional=("offset",))
    if placed is None:
        return None
    written_offset = placed.pop("offset", None)
    data, timecol, *sizes = (placed[p] for p in PARAMETERS[name][:-1])
    if not isinstance(data, ast.TableArg):
        env.report(error(Code.TYPE_MISMATCH, f"{name.upper()} expects TABLE name", data.span))
        return None
    if _partitioned(data, name.upper(), env):
        return None
    source, _, broken, _ = resolve(data.name, data.span, env)
    if source is None or broken:
        return None
    time = _time_column(timecol, source, env)
    ctx = ExprContext(
        Scope(), env.diagnostics, env.suggestions, constant_clause=name.upper(), functions=env
    )
    bound, lengths = _intervals(sizes, name.upper(), ctx, env)
    offset = None
    if written_offset is not None:
        bound_offset = bind_expr(written_offset, ctx)
        offset = None if bound_offset is None else window_offset(bound_offset)
        if offset is None:
            if bound_offset is not None:
                message = f"{name.upper()} expects an INTERVAL DAY TO SECOND literal as its OFFSET"
                env.report(error(Code.TYPE_MISMATCH, message, written_offset.span))
            return None
    if time is None or None in lengths:
        return None
    column = source.columns[time]
    window_fields = (
        plan.Field("window_start", types.TIMESTAMP, column.nullable),
        plan.Field("window_end", types.TIMESTAMP, column.nullable),
    )
    columns = source.columns + window_fields
    offset_us = 0 if offset is None else offset.value
    assert isinstance(offset_us, int)  # window_offset answers microseconds
    if name == "hop":
        slide_us, size_us = lengths
        assert slide_us is not None and size_us is not None
        return plan.Hop(source, time, size_us, slide_us, offset_us, columns, item.span)
    size_literal = bound[-1]
    assert size_literal is not None
    window = (size_literal,) if offset is None else (size_literal, offset)
    ref = plan.ColumnRef(time, column.name, column.type, column.nullable, timecol.span)
    exprs: list[plan.Expr] = [
        plan.ColumnRef(i, f.name, f.type, f.nullable, item.span)
        for i, f in enumerate(source.columns)
    ]
    start = plan.Call("tumble_start", (ref, *window), types.TIMESTAMP, column.nullable, item.span)
    if name == "cumulate":
        step_us, size_us = lengths
        assert step_us is not None and size_us is not None
        if size_us % step_us:
            message = "CUMULATE's SIZE must be a whole multiple of its STEP"
            env.report(error(Code.UNKNOWN_FUNCTION, message, sizes[1].span))
            return None
        return _cumulated(source, time, start, step_us, size_us, offset_us, columns, item.span)
    end = plan.Call("tumble_end", (ref, *window), types.TIMESTAMP, column.nullable, item.span)
    if column.nullable:  # a row with a NULL time is in no window, as in Feldera (and HOP)
        known = plan.Call("is_not_null", (ref,), types.BOOLEAN, False, timecol.span)
        source = plan.Filter(source, known, source.columns, timecol.span)
    return plan.Project(source, (*exprs, start, end), columns, item.span)


def _cumulated(
    source: plan.Rel,
    time: int,
    start: plan.Expr,
    step: int,
    size: int,
    offset: int,
    columns: tuple[plan.Field, ...],
    span: Span,
) -> plan.Rel:
    """CUMULATE's windows [S, S + k * step) for k = 1 .. size / step, S the start of
    the row's tumbling window of `size` (`start`), those that end after the row's time.
    A HOP of `size` every `step` has windows [b, b + size) for each step-aligned b in
    (time - size, time]: those with b <= S end at S + size - (S - b), one per k whose
    window holds the time. So: that hop, kept where b <= S, S as window_start."""
    width = len(source.columns)
    hop = plan.Hop(source, time, size, step, offset, columns, span)
    hop_start, hop_end = (
        plan.ColumnRef(width + i, f.name, f.type, f.nullable, span)
        for i, f in enumerate(columns[width:])
    )
    before = plan.Call("le", (hop_start, start), types.BOOLEAN, hop_start.nullable, span)
    kept = plan.Filter(hop, before, columns, span)
    exprs = (
        *(
            plan.ColumnRef(i, f.name, f.type, f.nullable, span)
            for i, f in enumerate(columns[:width])
        ),
        start,
        hop_end,
    )
    return plan.Project(kept, exprs, columns, span)


def _session(item: ast.TableFunction, env: Environment, resolve: Resolve) -> plan.Rel | None:
    """SESSION(data, timecol[, key], gap): the data's columns, then window_start and
    window_end, its row's session's (sessions.py)."""
    call = item.call
    # SIZE is Calcite's name for the gap, GAP Flink's.
    args = tuple(
        replace(a, name=replace(a.name, value="gap"))
        if isinstance(a, ast.NamedArgument) and a.name.value.lower() == "size"
        else a
        for a in call.args
    )
    parameters = PARAMETERS["session"]
    if len(args) == 3 and not any(isinstance(a, ast.NamedArgument) for a in args):
        parameters = ("data", "timecol", "gap")  # without keys, the gap comes third
    placed = place_arguments(replace(call, args=args), parameters, env, optional=("key",))
    if placed is None:
        return None
    data, timecol, written_gap = placed["data"], placed["timecol"], placed["gap"]
    if not isinstance(data, ast.TableArg):
        env.report(error(Code.TYPE_MISMATCH, "SESSION expects TABLE name", data.span))
        return None
    written_key = placed.get("key")
    if data.partition and written_key is not None:
        message = "SESSION's keys are given twice: in PARTITION BY and in KEY"
        env.report(error(Code.UNKNOWN_FUNCTION, message, written_key.span))
        return None
    source, _, broken, _ = resolve(data.name, data.span, env)
    if source is None or broken:
        return None
    time = _time_column(timecol, source, env)
    keys = _key_columns(data, written_key, source, env)
    ctx = ExprContext(
        Scope(), env.diagnostics, env.suggestions, constant_clause="SESSION", functions=env
    )
    [gap], lengths = _intervals((written_gap,), "SESSION", ctx, env)
    if time is None or keys is None or gap is None or None in lengths:
        return None
    column = source.columns[time]
    ref = plan.ColumnRef(time, column.name, column.type, column.nullable, timecol.span)
    names = ("window_start", "window_end")
    return with_session(source, ref, gap, keys, item.span, names)


def _key_columns(
    data: ast.TableArg, written: ast.Expr | None, source: plan.Rel, env: Environment
) -> tuple[plan.Expr, ...] | None:
    """SESSION's keys: the columns PARTITION BY or DESCRIPTOR(k1, ...) names, or None
    (reported)."""
    names = data.partition
    where = "PARTITION BY"
    if written is not None:
        where = "DESCRIPTOR"
        if not (
            isinstance(written, ast.FunctionCall)
            and written.name.value.lower() == "descriptor"
            and written.args
            and all(isinstance(a, ast.ColumnRef) and len(a.parts) == 1 for a in written.args)
        ):
            message = "Expected DESCRIPTOR(column, ...) naming the key columns"
            env.report(error(Code.TYPE_MISMATCH, message, written.span))
            return None
        names = tuple(a.parts[0] for a in written.args if isinstance(a, ast.ColumnRef))
    keys: list[plan.Expr] = []
    for name in names:
        found = [i for i, c in enumerate(source.columns) if c.name == name.value]
        if not found:
            message = f"Unknown column '{name.value}' in {where}"
            env.report(error(Code.UNKNOWN_COLUMN, message, name.span))
            return None
        column = source.columns[found[0]]
        keys.append(plan.ColumnRef(found[0], column.name, column.type, column.nullable, name.span))
    return tuple(keys)


def _intervals(
    written: Sequence[ast.Expr], shown: str, ctx: ExprContext, env: Environment
) -> tuple[list[plan.Expr | None], list[int | None]]:
    """The window lengths `written`: each bound, and its microseconds (None where it
    is not a positive DAY TO SECOND interval literal, reported)."""
    bound = [bind_expr(size, ctx) for size in written]
    lengths = [None if b is None else interval_micros(b) for b in bound]
    for arg, value, length in zip(written, bound, lengths, strict=True):
        if value is not None and length is None:
            message = f"{shown} expects a positive INTERVAL DAY TO SECOND literal"
            env.report(error(Code.TYPE_MISMATCH, f"{message}, found {value.type}", arg.span))
    return bound, lengths


def _partitioned(arg: ast.TableArg, function: str, env: Environment) -> bool:
    """Whether `TABLE t PARTITION BY k` is written where only SESSION takes it (reported)."""
    if not arg.partition:
        return False
    span = arg.partition[0].span.to(arg.partition[-1].span)
    message = f"{function} takes no PARTITION BY (SESSION does)"
    env.report(error(Code.UNKNOWN_FUNCTION, message, span))
    return True


def place_arguments(
    call: ast.FunctionCall,
    parameters: tuple[str, ...],
    env: Environment,
    optional: tuple[str, ...] = (),
) -> dict[str, ast.Expr] | None:
    """The arguments by parameter name (positional ones in parameter order), or None
    (reported). Every parameter is required except those in `optional`."""
    shown = call.name.value.upper()
    placed: dict[str, ast.Expr] = {}
    for position, arg in enumerate(call.args):
        if isinstance(arg, ast.NamedArgument):
            key = arg.name.value.lower()
            if key not in parameters:
                expected = ", ".join(p.upper() for p in parameters)
                message = f"{shown} has no parameter {arg.name.value.upper()}: expected {expected}"
                env.report(error(Code.UNKNOWN_FUNCTION, message, arg.name.span))
                return None
            value: ast.Expr = arg.value
        elif position < len(parameters):
            key, value = parameters[position], arg
        else:
            key, value = "", arg
        if key in placed or not key:
            message = f"{shown} expects {_count(parameters, optional)}"
            env.report(error(Code.UNKNOWN_FUNCTION, message, arg.span))
            return None
        placed[key] = value
    missing = [p for p in parameters if p not in placed and p not in optional]
    if missing:
        message = f"{shown} is missing its {missing[0].upper()} argument"
        env.report(error(Code.UNKNOWN_FUNCTION, message, call.span))
        return None
    return placed


def _time_column(arg: ast.Expr, source: plan.Rel, env: Environment) -> int | None:
    """The input column DESCRIPTOR(col) names, which must be a TIMESTAMP."""
    if not (
        isinstance(arg, ast.FunctionCall)
        and arg.name.value.lower() == "descriptor"
        and len(arg.args) == 1
        and isinstance(arg.args[0], ast.ColumnRef)
        and len(arg.args[0].parts) == 1
    ):
        message = "Expected DESCRIPTOR(column) naming the time column"
        env.report(error(Code.TYPE_MISMATCH, message, arg.span))
        return None
    name = arg.args[0].parts[0]
    for position, column in enumerate(source.columns):
        if column.name == name.value:
            if column.type != types.TIMESTAMP:
                message = f"The time column '{name.value}' must be a TIMESTAMP, found {column.type}"
                env.report(error(Code.TYPE_MISMATCH, message, name.span))
                return None
            return position
    env.report(
        error(Code.UNKNOWN_COLUMN, f"Unknown column '{name.value}' in DESCRIPTOR", name.span)
    )
    return None


def _count(parameters: tuple[str, ...], optional: tuple[str, ...]) -> str:
    """
    >>> _count(("input",), ()), _count(("a", "b"), ("b",))
    ('1 argument', '1 to 2 arguments')
    """
    most = len(parameters)
    if optional:
        return f"{most - len(optional)} to {most} arguments"
    return f"{most} argument" + ("s" if most != 1 else "")
