"""A grouped SELECT: the aggregate node and the select list and HAVING above it.

The select list and HAVING are bound over the FROM scope with aggregate calls
collected (as `AggregateRef`s); `lift` then rewrites them over the aggregate's
output: a subexpression equal to a GROUP BY key becomes a reference to that key,
an aggregate a reference to its column, and any other column is an error.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace

from backend.compiler.diagnostics import Code, Diagnostic, error
from backend.compiler.plan import nodes as plan
from backend.compiler.semantic import types
from backend.compiler.semantic.aggregates import shape
from backend.compiler.semantic.time_functions import (
    GROUPED_WINDOWS,
    WINDOW_ENDS,
    interval_micros,
)
from backend.compiler.source import Span
from backend.compiler.syntax import ast


def written_keys(items: tuple[ast.Expr, ...]) -> tuple[list[ast.Expr], list[list[int]] | None]:
    """GROUP BY's key expressions, and when it has GROUPING SETS, ROLLUP or CUBE, the
    sets it groups by (positions in those keys): the sets of each item, crossed.

    >>> a, b, c = (ast.NumberLiteral(n, "integer", Span(0, 1)) for n in "123")
    >>> keys, sets = written_keys((a, ast.GroupingSets(((b, c), (b,), ()), Span(0, 1))))
    >>> len(keys), sets
    (4, [[0, 1, 2], [0, 3], [0]])
    """
    keys: list[ast.Expr] = []
    sets: list[list[int]] = [[]]
    several = False
    for item in items:
        if isinstance(item, ast.GroupingSets):
            several = True
            options = []
            for written in item.sets:
                options.append(list(range(len(keys), len(keys) + len(written))))
                keys.extend(written)
        else:
            options = [[len(keys)]]
            keys.append(item)
        sets = [chosen + option for chosen in sets for option in options]
    return keys, sets if several else None


def distinct_keys(
    keys: list[plan.Expr], sets: list[list[int]] | None, distinct_sets: bool = False
) -> tuple[tuple[plan.Expr, ...], tuple[tuple[int, ...], ...] | None]:
    """The keys without repeats (`GROUP BY a, ROLLUP(a, b)` groups by `a` once), and
    each set as positions in them; with `distinct_sets` (GROUP BY DISTINCT), each set
    of the same keys once."""
    unique: list[plan.Expr] = []
    at: dict[object, int] = {}
    moved = []
    for key in keys:
        position = at.setdefault(shape(key), len(unique))
        if position == len(unique):
            unique.append(key)
        moved.append(position)
    if sets is None:
        return tuple(unique), None
    chosen = [tuple(dict.fromkeys(moved[i] for i in s)) for s in sets]
    if distinct_sets:
        firsts = {frozenset(s): s for s in reversed(chosen)}  # the first of equal sets
        chosen = [s for s in chosen if firsts[frozenset(s)] is s]
    return tuple(unique), tuple(chosen)


# A window's _START / _END whose value a row alone does not give: HOP's (a row is in
# several windows) and SESSION's (a row's session depends on the rows around it).
GROUPED_WINDOW_CALLS = tuple(f"{w}_{part}" for w in GROUPED_WINDOWS for part in ("start", "end"))
# Calls that only a grouped query's keys give a value.
GROUPED_ONLY = (*GROUPED_WINDOW_CALLS, "grouping", "group_id")


def hopped(
    source: plan.Rel, keys: tuple[plan.Expr, ...], diagnostics: list[Diagnostic]
) -> tuple[plan.Rel, tuple[plan.Expr, ...], dict[object, int]] | None:
    """GROUP BY HOP(ts, slide, size): the FROM's rows once per hopping window that holds
    them (a Hop node, which adds window_start and window_end), grouped by window_start.

    Answers the source, the keys with HOP's call replaced by window_start, and that
    call's shape with its key's position (what HOP_START(...) with the same arguments
    lifts to); None after reporting an error."""
    at = [i for i, k in enumerate(keys) if isinstance(k, plan.Call) and k.function == "hop_start"]
    if not at:
        return source, keys, {}
    call = keys[at[0]]
    assert isinstance(call, plan.Call)
    time, slide, size, *offset = call.args
    if len(at) > 1 or not isinstance(time, plan.ColumnRef):
        construct = "more than one HOP in GROUP BY" if len(at) > 1 else "HOP of an expression"
        span = keys[at[-1]].span if len(at) > 1 else time.span
        diagnostics.append(error(Code.NOT_SUPPORTED, f"Not supported yet: {construct}", span))
        return None
    # Interval literals (time_functions.window_call): sizes above 0, an offset from 0.
    size_us, slide_us = interval_micros(size), interval_micros(slide)
    offset_us = offset[0].value if offset and isinstance(offset[0], plan.Literal) else 0
    assert size_us is not None and slide_us is not None and isinstance(offset_us, int)
    window = tuple(
        plan.Field(name, call.type, call.nullable) for name in ("window_start", "window_end")
    )
    columns = source.columns + window
    rel = plan.Hop(source, time.index, size_us, slide_us, offset_us, columns, call.span)
    start = plan.ColumnRef(len(source.columns), "window_start", call.type, call.nullable, call.span)
    position = at[0]
    return rel, (*keys[:position], start, *keys[position + 1 :]), {shape(call): position}


def needs_grouping(call: plan.Call) -> Diagnostic:
    """The error for a call of GROUPED_ONLY that no key of the query gives a value."""
    if call.function == "grouping":
        message = "GROUPING(...) needs a GROUP BY, and GROUP BY keys as its arguments"
    elif call.function == "group_id":
        message = "GROUP_ID() needs an aggregate or a GROUP BY"
    else:
        family = call.function.split("_")[0].upper()
        message = (
            f"{call.function.upper()}(...) needs GROUP BY {family}(...) with the same arguments"
        )
    return error(Code.NOT_GROUPED, message, call.span)


def grouped_only_calls(expr: plan.Expr) -> Iterator[plan.Call]:
    """The calls in `expr` that mean something only in a grouped query (GROUPED_ONLY)."""
    for part in plan.subexpressions(expr):
        if isinstance(part, plan.Call) and part.function in GROUPED_ONLY:
            yield part


@dataclass
class Grouping:
    keys: tuple[plan.Expr, ...]
    aggregates: list[plan.AggCall]
    diagnostics: list[Diagnostic]
    # GROUPING SETS: the keys (positions) of each way of grouping; None: all keys, once.
    sets: tuple[tuple[int, ...], ...] | None = None
    # Expressions that are a key without being equal to it: GROUP BY HOP(...)'s call,
    # now the window_start key (`hopped`), by shape.
    windows: Mapping[object, int] = field(default_factory=dict)
    # The window calls' values in the SELECT list (windows.py: positions after the
    # FROM's columns): over the groups, in a Window node after the aggregate.
    window_values: range = range(0)
    # Whether GROUPING(...) or GROUP_ID() read each row's grouping set: two columns after
    # the aggregates, `grouping` (bit i is 1 when the set leaves key i out) and
    # `group_id` (how many sets of the same keys come before the set).
    reads_grouping: bool = False
    _positions: dict[object, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for position, key in enumerate(self.keys):
            self._positions.setdefault(shape(key), position)
        self._positions.update(self.windows)

    @property
    def fields(self) -> tuple[plan.Field, ...]:
        keys = tuple(
            plan.Field(
                key.name if isinstance(key, plan.ColumnRef) else f"key{i}",
                key.type,
                key.nullable or any(i not in chosen for chosen in self.sets or ()),
            )
            for i, key in enumerate(self.keys)
        )
        aggregates = tuple(
            plan.Field(f"agg{i}", agg.type, agg.nullable) for i, agg in enumerate(self.aggregates)
        )
        grouping = (
            (
                plan.Field("grouping", types.BIGINT, False),
                plan.Field("group_id", types.BIGINT, False),
            )
            if self.reads_grouping
            else ()
        )
        return keys + aggregates + grouping

    def node(self, source: plan.Rel, span: Span) -> plan.Rel:
        if self.sets is None:
            return plan.Aggregate(source, self.keys, tuple(self.aggregates), self.fields, span)
        if len(self.sets) == 1:  # GROUP BY (), GROUP BY a, (): one set, no union
            return self._grouped(source, self.sets[0], 0, span)
        as_sets = [frozenset(s) for s in self.sets]  # (a, b) is the set (b, a)
        repeats = [as_sets[:i].count(s) for i, s in enumerate(as_sets)]
        return plan.Union(
            tuple(
                self._grouped(source, s, r, span) for s, r in zip(self.sets, repeats, strict=True)
            ),
            self.fields,
            span,
        )

    def _grouped(
        self, source: plan.Rel, chosen: tuple[int, ...], repeat: int, span: Span
    ) -> plan.Rel:
        """The rows grouped by the keys `chosen`, with NULL for the other keys; the
        `repeat`-th set of those keys (GROUP_ID)."""
        keys = tuple(self.keys[i] for i in chosen)
        fields = self.fields
        grouped = Grouping(keys, self.aggregates, self.diagnostics)
        aggregate = plan.Aggregate(source, keys, tuple(self.aggregates), grouped.fields, span)
        exprs: list[plan.Expr] = []
        for i, column in enumerate(fields[: len(self.keys)]):
            if i in chosen:
                at = chosen.index(i)
                exprs.append(plan.ColumnRef(at, column.name, column.type, column.nullable, span))
            else:
                exprs.append(plan.Literal(None, column.type, True, span))
        width = len(self.keys) + len(self.aggregates)
        for i, column in enumerate(fields[len(self.keys) : width]):
            at = len(keys) + i
            exprs.append(plan.ColumnRef(at, column.name, column.type, column.nullable, span))
        if self.reads_grouping:
            left_out = sum(2**i for i in range(len(self.keys)) if i not in chosen)
            exprs.append(plan.Literal(left_out, types.BIGINT, False, span))
            exprs.append(plan.Literal(repeat, types.BIGINT, False, span))
        return plan.Project(aggregate, tuple(exprs), fields, span)

    def lift(self, expr: plan.Expr) -> plan.Expr | None:
        """`expr` over the aggregate's output, or None (an ungrouped column, reported).
        A window call's value k is ColumnRef(-1 - k) until `placed` puts it after the
        aggregate's columns (whose number GROUPING(...) can still change)."""
        if isinstance(expr, plan.ColumnRef) and expr.index in self.window_values:
            return replace(expr, index=-1 - self.window_values.index(expr.index))
        position = self._positions.get(shape(expr))
        if position is not None:
            column = self.fields[position]
            return plan.ColumnRef(position, column.name, column.type, column.nullable, expr.span)
        match expr:
            case plan.AggregateRef():
                index = len(self.keys) + expr.position
                column = self.fields[index]
                return plan.ColumnRef(index, column.name, column.type, column.nullable, expr.span)
            case plan.ColumnRef():
                if self.keys:
                    message = (
                        f"Column '{expr.name}' must appear in GROUP BY "
                        "or be used in an aggregate function"
                    )
                else:
                    message = (
                        f"Column '{expr.name}' must be used in an aggregate function: "
                        "the query aggregates all its rows (it has no GROUP BY)"
                    )
                self.diagnostics.append(error(Code.NOT_GROUPED, message, expr.span))
                return None
            case plan.Literal() | plan.Lambda():  # a lambda's body sees its parameter only
                return expr
            case plan.Call():
                return self._lift_call(expr)
            case plan.Cast():
                operand = self.lift(expr.operand)
                return (
                    None
                    if operand is None
                    else _nullable_if(replace(expr, operand=operand), [expr.operand], [operand])
                )
            case plan.Case():
                whens = [(self.lift(c), self.lift(r)) for c, r in expr.whens]
                else_ = None if expr.else_ is None else self.lift(expr.else_)
                if any(c is None or r is None for c, r in whens) or (
                    expr.else_ is not None and else_ is None
                ):
                    return None
                lifted = tuple((c, r) for c, r in whens if c is not None and r is not None)
                before = [r for _, r in expr.whens] + ([expr.else_] if expr.else_ else [])
                after = [r for _, r in lifted] + ([else_] if else_ is not None else [])
                return _nullable_if(replace(expr, whens=lifted, else_=else_), before, after)

    def placed(self, expr: plan.Expr) -> plan.Expr:
        """A lifted expression with the window calls' values at their columns: after the
        aggregate's, in the Window node over it."""
        match expr:
            case plan.ColumnRef() if expr.index < 0:
                return replace(expr, index=len(self.fields) - 1 - expr.index)
            case plan.Call():
                return replace(expr, args=tuple(self.placed(arg) for arg in expr.args))
            case plan.Cast():
                return replace(expr, operand=self.placed(expr.operand))
            case plan.Case():
                whens = tuple((self.placed(c), self.placed(r)) for c, r in expr.whens)
                else_ = None if expr.else_ is None else self.placed(expr.else_)
                return replace(expr, whens=whens, else_=else_)
        return expr

    def _lift_call(self, call: plan.Call) -> plan.Expr | None:
        if call.function in WINDOW_ENDS:
            # TUMBLE_END(ts, i) with GROUP BY TUMBLE(ts, i): the key plus the size.
            function, size = WINDOW_ENDS[call.function]
            start = self._positions.get(shape(replace(call, function=function)))
            if start is not None:
                column = self.fields[start]
                ref = plan.ColumnRef(start, column.name, column.type, column.nullable, call.span)
                return plan.Call("add", (ref, call.args[size]), call.type, call.nullable, call.span)
        if call.function == "grouping":
            return self._grouping(call)
        if call.function == "group_id":
            if self.sets is None:  # one way of grouping, never repeated
                return plan.Literal(0, types.BIGINT, False, call.span)
            self.reads_grouping = True
            at = len(self.keys) + len(self.aggregates) + 1
            return plan.ColumnRef(at, "group_id", types.BIGINT, False, call.span)
        if call.function in GROUPED_WINDOW_CALLS:  # which window, only the key says
            self.diagnostics.append(needs_grouping(call))
            return None
        args = [self.lift(arg) for arg in call.args]
        present = tuple(arg for arg in args if arg is not None)
        if len(present) < len(args):
            return None
        return _nullable_if(replace(call, args=present), call.args, present)

    def _grouping(self, call: plan.Call) -> plan.Expr | None:
        """GROUPING(a, b, ...): a bit for each argument, the first the highest, 1 when the
        row's grouping set leaves that key out (its NULL is a subtotal's)."""
        positions = [self._positions.get(shape(arg)) for arg in call.args]
        for arg, position in zip(call.args, positions, strict=True):
            if position is None:
                self.diagnostics.append(needs_grouping(replace(call, span=arg.span)))
                return None
        if self.sets is None:  # one way of grouping: no key is ever left out
            return plan.Literal(0, types.BIGINT, False, call.span)
        self.reads_grouping = True
        at = len(self.keys) + len(self.aggregates)
        left_out = plan.ColumnRef(at, "grouping", types.BIGINT, False, call.span)
        value: plan.Expr | None = None
        for position in positions:
            assert position is not None
            shifted = _arithmetic("div", left_out, 2**position)
            bit = _arithmetic("mod", shifted, 2)
            value = bit if value is None else _arithmetic("add", _arithmetic("mul", value, 2), bit)
        assert value is not None
        return value


def _arithmetic(function: str, left: plan.Expr, right: int | plan.Expr) -> plan.Expr:
    """A BIGINT `left` (function) `right`, never NULL."""
    if isinstance(right, int):
        right = plan.Literal(right, types.BIGINT, False, left.span)
    return plan.Call(function, (left, right), types.BIGINT, False, left.span)


def _nullable_if(
    expr: plan.Call | plan.Cast | plan.Case,
    before: Sequence[plan.Expr],
    after: Sequence[plan.Expr],
) -> plan.Expr:
    """`expr` lifted over the aggregate (its parts `before` are now `after`): NULL where
    a part now can be and could not before (a key that a grouping set leaves out is
    NULL in that set's rows)."""
    if expr.nullable or all(a.nullable <= b.nullable for a, b in zip(after, before, strict=True)):
        return expr
    return replace(expr, nullable=True)
