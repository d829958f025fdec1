"""GROUP BY SESSION(ts, gap): Calcite's session windows.

Within a group of the other GROUP BY keys, rows ordered by `ts` are in one session
while each follows the one before it by less than `gap`; a row `gap` or more after
the one before it starts a new session. SESSION_START(ts, gap) is the session's
first time, SESSION_END(ts, gap) its last time plus `gap` (as in Calcite and Flink).
Rows with a NULL time make one session of their own, whose start and end are NULL.
SESSION_END has the time's waterline (CLOSE, below): an `emit_final` view on it, or a
SELECT STREAM, emits each session once no row can extend it.

A row's session depends on the other rows of its group, so the FROM's rows get their
session through window functions (plan.Window, computed again for the groups a step
touches, so sessions merge and split exactly under inserts and deletes):

1. LAG(ts) over the group ordered by ts (NULLs last, so that a row with a NULL time,
   which can arrive at any time, comes after every other);
2. each row's own time where it starts a session (no earlier time, or `gap` or more
   after it), NULL where it continues one;
3. the session's start: the largest of those up to the row (NULL for a NULL time);
4. the session's end: its last time, MAX(ts) over the rows of the group with that
   start, plus `gap` (CLOSE, below).

The query is then grouped by the other keys, the start and the end: one group per
session.
"""

from __future__ import annotations

from dataclasses import replace

from backend.compiler.diagnostics import Code, Diagnostic, error
from backend.compiler.plan import nodes as plan
from backend.compiler.semantic import types
from backend.compiler.semantic.aggregates import shape
from backend.compiler.source import Span

START, END = "session_start", "session_end"
# The window function of SESSION_END's value: session_close(ts, gap) over a session's
# rows is their last time plus `gap`. It has ts's waterline: a future row (at or after
# ts's waterline) extends only a session whose last time is less than `gap` before it,
# so a session whose end is below the waterline is final (analysis/facts.py,
# runner/waterline.py).
CLOSE = "session_close"


def sessioned(
    source: plan.Rel,
    keys: tuple[plan.Expr, ...],
    grouping_sets: bool,
    found: list[Diagnostic],
) -> tuple[plan.Rel, tuple[plan.Expr, ...], dict[object, int]] | None:
    """GROUP BY SESSION(ts, gap): the FROM's rows with their session's start and end
    (two columns after the source's), and the keys with SESSION's call replaced by the
    start, the end one more key after them. Also answers SESSION_START's and
    SESSION_END's shapes (with the same arguments) and their keys' positions; None
    after reporting an error."""
    at = [i for i, k in enumerate(keys) if isinstance(k, plan.Call) and k.function == START]
    if not at:
        return source, keys, {}
    call = keys[at[0]]
    assert isinstance(call, plan.Call)
    problem = None
    if len(at) > 1:
        problem = "more than one SESSION in GROUP BY"
    elif grouping_sets:
        problem = "SESSION in GROUPING SETS"
    if problem is not None:
        found.append(error(Code.NOT_SUPPORTED, f"Not supported yet: {problem}", call.span))
        return None
    time, gap = call.args
    others = tuple(k for i, k in enumerate(keys) if i != at[0])
    width = len(source.columns)
    rel = with_session(source, time, gap, others, call.span)
    start = plan.ColumnRef(width, "session_start", types.TIMESTAMP, time.nullable, call.span)
    end = plan.ColumnRef(width + 1, "session_end", types.TIMESTAMP, time.nullable, call.span)
    position = at[0]
    grouped = (*keys[:position], start, *keys[position + 1 :], end)
    windows = {shape(call): position, shape(replace(call, function=END)): len(keys)}
    return rel, grouped, windows


def with_session(
    source: plan.Rel,
    time: plan.Expr,
    gap: plan.Expr,
    others: tuple[plan.Expr, ...],
    span: Span,
    names: tuple[str, str] = (START, END),
) -> plan.Rel:
    """`source`'s rows with their session's start and end, two columns named `names`,
    the steps of the module's docstring; the sessions of each group of `others`. Also
    the SESSION table function's (table_functions.py). Each step adds its columns after
    the source's, whose positions (and so `time` and `others`) stay as they are."""
    width = len(source.columns)
    by_time = (plan.SortKey(time, False, False),)

    def timestamp(index: int, name: str, nullable: bool = True) -> plan.ColumnRef:
        return plan.ColumnRef(index, name, types.TIMESTAMP, nullable, span)

    def call(function: str, *args: plan.Expr) -> plan.Call:
        result = types.BOOLEAN if function in ("is_null", "ge") else types.TIMESTAMP
        return plan.Call(function, args, result, True, span)

    def window(
        rel: plan.Rel,
        function: str,
        args: tuple[plan.Expr, ...],
        partition: tuple[plan.Expr, ...],
        whole: bool,
        name: str,
    ) -> plan.Rel:
        # Ordered by time (as a window over a stream must be), RANGE up to the current
        # row (a row and the rows with its time, its peers) or over the whole partition.
        end = None if whole else 0
        computed = plan.WindowCall(
            function, args, partition, by_time, "range", None, end, types.TIMESTAMP, True, span
        )
        columns = (*rel.columns, plan.Field(name, types.TIMESTAMP, True))
        return plan.Window(rel, (computed,), columns, span)

    def with_source(rel: plan.Rel, *added: tuple[str, plan.Expr]) -> plan.Rel:
        kept = tuple(
            plan.ColumnRef(i, f.name, f.type, f.nullable, span)
            for i, f in enumerate(source.columns)
        )
        fields = tuple(plan.Field(name, types.TIMESTAMP, expr.nullable) for name, expr in added)
        exprs = (*kept, *(expr for _, expr in added))
        return plan.Project(rel, exprs, (*source.columns, *fields), span)

    previous = timestamp(width, "previous")
    null = plan.Literal(None, types.TIMESTAMP, True, span)
    starts = plan.Case(
        (
            (call("is_null", time), null),
            (call("is_null", previous), time),
            (call("ge", time, call("add", previous, gap)), time),
        ),
        None,
        types.TIMESTAMP,
        True,
        span,
    )
    one = plan.Literal(1, types.INTEGER, False, span)
    rel = window(source, "lag", (time, one), others, whole=False, name="previous")
    rel = with_source(rel, ("starts", starts))
    rel = window(rel, "max", (timestamp(width, "starts"),), others, whole=False, name="start")
    # A NULL time sorts last: the largest start up to it is the group's last, not its own.
    raw = timestamp(width + 1, "start")
    own = plan.Case(((call("is_null", time), null),), raw, types.TIMESTAMP, True, span)
    rel = with_source(rel, ("start", own))
    start = timestamp(width, "start")
    rel = window(rel, CLOSE, (time, gap), (*others, start), whole=True, name="end")
    # NULL only for a NULL time.
    bounds = timestamp(width, "start", time.nullable), timestamp(width + 1, "end", time.nullable)
    return with_source(rel, (names[0], bounds[0]), (names[1], bounds[1]))
