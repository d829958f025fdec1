"""Streaming rules (SQL3xx) checked on a view's or a pump's plan.

From Calcite: a `SELECT STREAM` must read a stream ("Cannot convert table 'T'
to a stream", "Cannot stream VALUES") and a streaming GROUP BY needs a
monotonic key; a pump's relational query cannot read a stream ("Cannot convert
stream 'S' to a table"). From Feldera: `emit_final` needs a waterline. And a warning
when a join's or an aggregate's state can only grow.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from backend.compiler.analysis.facts import facts_of
from backend.compiler.analysis.lattice import Facts
from backend.compiler.analysis.monotonicity import is_monotone
from backend.compiler.diagnostics import Code, Diagnostic, error, warning
from backend.compiler.plan import nodes as plan
from backend.compiler.source import Span

MONOTONIC_HINT = "group by a monotonic expression, such as FLOOR(rowtime TO HOUR)"


def check_stream(rel: plan.Rel, known: Mapping[str, Facts]) -> list[Diagnostic]:
    """The rules of `SELECT STREAM`."""
    if not facts_of(rel, known).stream:
        for node in plan.walk(rel):
            if isinstance(node, plan.Scan) and not _reads_stream(node, known):
                message = f"Cannot convert table '{node.relation}' to a stream"
                hint = "read a stream, or drop STREAM to query the table"
                return [error(Code.TABLE_TO_STREAM, message, node.span, hint=hint)]
            if isinstance(node, plan.Snapshot | plan.FromChangelog):
                function = "SNAPSHOT" if isinstance(node, plan.Snapshot) else "FROM_CHANGELOG"
                message = f"Cannot convert {function}(...) to a stream: it is a table"
                hint = "read the stream itself, or TO_CHANGELOG(...) for a table's changes"
                return [error(Code.TABLE_TO_STREAM, message, node.span, hint=hint)]
        for node in plan.walk(rel):
            if isinstance(node, plan.Values):
                return [error(Code.STREAM_VALUES, "Cannot stream VALUES", node.span)]
        return []
    found: list[Diagnostic] = []
    for node in plan.walk(rel):
        if isinstance(node, plan.Window) and facts_of(node.input, known).stream:
            lines = facts_of(node.input, known).waterlines
            for call in node.calls:
                if not call.order or not is_monotone(call.order[0].expr, lines):
                    found.append(
                        error(
                            Code.NON_MONOTONIC_WINDOW,
                            "A window over a stream must be ordered by a monotonic "
                            "expression, such as rowtime",
                            call.span,
                            hint="add ORDER BY rowtime to the window",
                        )
                    )
        if isinstance(node, plan.Aggregate) and facts_of(node.input, known).stream:
            lines = facts_of(node.input, known).waterlines
            if not any(is_monotone(key, lines) for key in node.keys):
                found.append(
                    error(
                        Code.NON_MONOTONIC_GROUP_BY,
                        "Streaming aggregation requires at least one monotonic expression "
                        "in GROUP BY clause",
                        node.span,
                        hint=MONOTONIC_HINT,
                    )
                )
    return found


def check_relational(rel: plan.Rel, known: Mapping[str, Facts]) -> list[Diagnostic]:
    """A pump's query without STREAM must not read a stream (except as a snapshot,
    which is a table). A view's may: it is the relation of the stream so far."""
    for node in _walk_tables(rel):
        if isinstance(node, plan.Scan) and _reads_stream(node, known):
            message = f"Cannot convert stream '{node.relation}' to a table"
            hint = "use SELECT STREAM, or define a view over the stream"
            return [error(Code.STREAM_TO_TABLE, message, node.span, hint=hint)]
    return []


def check_state(rel: plan.Rel, known: Mapping[str, Facts]) -> list[Diagnostic]:
    """Warnings for joins and aggregates over unbounded inputs that nothing bounds."""
    found: list[Diagnostic] = []
    for node in plan.walk(rel):
        if isinstance(node, plan.Aggregate) and node.keys and _unbounded(node.input, known):
            lines = facts_of(node.input, known).waterlines
            if not any(is_monotone(key, lines) for key in node.keys):
                found.append(
                    warning(
                        Code.UNBOUNDED_STATE,
                        "The state of this aggregation grows without bound: its input only "
                        "grows and no GROUP BY key has a waterline",
                        node.span,
                        hint="group by a time bucket of a column with LATENESS, "
                        "such as FLOOR(ts TO HOUR)",
                    )
                )
        if isinstance(node, plan.Window) and _unbounded(node.input, known):
            found.append(
                warning(
                    Code.UNBOUNDED_STATE,
                    "The state of this window grows without bound: every input "
                    "row is kept, and the input only grows",
                    node.calls[0].span,
                    hint="apply the window to a view that also deletes, such as one time window",
                )
            )
        if isinstance(node, plan.SetDifference) and (
            _unbounded(node.left, known) or _unbounded(node.right, known)
        ):
            found.append(
                warning(
                    Code.UNBOUNDED_STATE,
                    f"The state of this {node.op.upper()} grows without bound: it keeps "
                    "every row of both inputs, and an input only grows",
                    node.span,
                    hint="apply it to inputs that also delete, such as one time window",
                )
            )
        if isinstance(node, plan.TemporalJoin):
            found.append(
                warning(
                    Code.UNBOUNDED_STATE,
                    "The state of this temporal join grows without bound: it keeps every "
                    "row of its input and every version of the table",
                    node.span,
                    hint="join a view of the input that also deletes, such as one time window",
                )
            )
        if isinstance(node, plan.LookupJoin):
            table = node.right if node.table == "right" else node.left
            if _unbounded(table, known):
                found.append(
                    warning(
                        Code.UNBOUNDED_STATE,
                        "The state of this lookup join grows without bound: it keeps every "
                        "row of the snapshot, which only grows",
                        node.span,
                        hint="look up a table that also deletes or replaces rows",
                    )
                )
        if isinstance(node, plan.Join) and (
            _unbounded(node.left, known) or _unbounded(node.right, known)
        ):
            left, right = facts_of(node.left, known), facts_of(node.right, known)
            lines = left.waterlines + right.waterlines
            if not _joins_on_monotone(node.condition, lines):
                found.append(
                    warning(
                        Code.UNBOUNDED_STATE,
                        "The state of this join grows without bound: an input only grows "
                        "and the join condition relates no columns with waterlines",
                        _join_span(node),
                        hint="join on time columns with LATENESS, or on a time bucket of them",
                    )
                )
    # Once each: the nodes of one construct (an ASOF JOIN's two joins) share its span.
    return list(dict.fromkeys(found))


def check_lookups(rel: plan.Rel, known: Mapping[str, Facts]) -> list[Diagnostic]:
    """The other side of a lookup join must be insert-only: each of its rows is joined
    once, as it arrives, so a later deletion of it could not be undone."""
    found: list[Diagnostic] = []
    for node in plan.walk(rel):
        if not isinstance(node, plan.LookupJoin):
            continue
        other = node.left if node.table == "right" else node.right
        if not facts_of(other, known).insert_only:
            found.append(
                error(
                    Code.LOOKUP_NOT_INSERT_ONLY,
                    "A lookup join needs an insert-only input on the other side: "
                    "a deletion could not be undone",
                    node.span,
                    hint="join a stream or an append-only table with SNAPSHOT(t), "
                    "or join the two tables without SNAPSHOT",
                )
            )
    return found


def check_emit_final(
    waterlines: tuple[bool, ...], index: int, name: str, view: str, span: Span
) -> list[Diagnostic]:
    if waterlines[index]:
        return []
    return [
        error(
            Code.NO_WATERLINE,
            f"'emit_final' needs a waterline, but none can be inferred for column '{name}' "
            f"of view '{view}'",
            span,
            hint="derive the column from one with LATENESS (or a stream's rowtime) through "
            "monotone expressions such as FLOOR(ts TO HOUR), or add a LATENESS statement "
            "for it",
        )
    ]


def _walk_tables(rel: plan.Rel) -> Iterator[plan.Rel]:
    """`walk`, but not into what is read as a table: snapshots, a lookup's table side."""
    stack = [rel]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, plan.Snapshot):
            continue
        children = plan.children(node)
        if isinstance(node, plan.LookupJoin):
            children = (node.right,) if node.table == "left" else (node.left,)
        stack.extend(reversed(children))


def _reads_stream(scan: plan.Scan, known: Mapping[str, Facts]) -> bool:
    facts = known.get(scan.relation)
    return facts is not None and facts.stream


def _unbounded(rel: plan.Rel, known: Mapping[str, Facts]) -> bool:
    """Only insertions, forever: an append-only input (not a constant VALUES)."""
    if not facts_of(rel, known).insert_only:
        return False
    return any(isinstance(node, plan.Scan) for node in plan.walk(rel))


def _joins_on_monotone(condition: plan.Expr | None, lines: tuple[bool, ...]) -> bool:
    if not isinstance(condition, plan.Call):
        return False
    if condition.function == "and":
        return any(_joins_on_monotone(arg, lines) for arg in condition.args)
    if condition.function in ("eq", "le", "lt", "ge", "gt"):
        return all(is_monotone(arg, lines) for arg in condition.args)
    return False


def _join_span(join: plan.Join) -> Span:
    return join.span


def check_order(order: plan.OrderCheck, known: Mapping[str, Facts]) -> list[Diagnostic]:
    """A streaming ORDER BY needs a monotonic expression as its leading key."""
    facts = facts_of(order.query, known)
    if not facts.stream or is_monotone(order.key, facts.waterlines):
        return []
    return [
        error(
            Code.NON_MONOTONIC_ORDER_BY,
            "Streaming ORDER BY requires a monotonic expression as its leading key",
            order.span,
            hint="order by rowtime, or a monotonic expression of it such as "
            "FLOOR(rowtime TO HOUR), first",
        )
    ]
