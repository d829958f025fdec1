"""The facts of a plan relation (analysis/lattice.py), from those of the relations it reads."""

from __future__ import annotations

from collections.abc import Mapping

from backend.compiler.analysis.lattice import Facts, unknown
from backend.compiler.analysis.monotonicity import is_monotone
from backend.compiler.plan import nodes as plan
from backend.compiler.semantic.sessions import CLOSE


def facts_of(rel: plan.Rel, known: Mapping[str, Facts]) -> Facts:
    """Relation kind, insert-only-ness and waterlines of `rel`'s output."""
    match rel:
        case plan.Scan():
            return known.get(rel.relation) or unknown(len(rel.columns))
        case plan.Filter():
            return facts_of(rel.input, known)
        case plan.Project():
            inner = facts_of(rel.input, known)
            lines = tuple(is_monotone(expr, inner.waterlines) for expr in rel.exprs)
            return Facts(inner.stream, inner.insert_only, lines)
        case plan.Join():
            return _join(rel, facts_of(rel.left, known), facts_of(rel.right, known))
        case plan.Aggregate():
            inner = facts_of(rel.input, known)
            keys = tuple(is_monotone(key, inner.waterlines) for key in rel.keys)
            return Facts(inner.stream, False, keys + (False,) * len(rel.aggregates))
        case plan.Union():
            result = facts_of(rel.inputs[0], known)
            for other in rel.inputs[1:]:
                result = result.meet(facts_of(other, known))
            return result
        case plan.Distinct():
            # A row, once present, stays: DISTINCT of insertions only inserts.
            return facts_of(rel.input, known)
        case plan.SemiJoin():
            # Its rows are left rows. A semi join of insertions only inserts (a match,
            # once there, stays); anti joins delete when a match arrives.
            left, right = facts_of(rel.left, known), facts_of(rel.right, known)
            insert_only = rel.kind == "semi" and left.insert_only and right.insert_only
            return Facts(left.stream, insert_only, left.waterlines)
        case plan.Window():
            return _window(rel, facts_of(rel.input, known))
        case plan.Sort():
            inner = facts_of(rel.input, known)
            if rel.limit is None and rel.offset == 0:
                return inner  # the order of rows is not a change
            # The first rows change as rows arrive: a top-k deletes a row that a better
            # one displaces, whatever its time, unless its order is that time's.
            lines = _settled(inner.waterlines, rel.input.columns, (), rel.keys)
            return Facts(inner.stream, False, lines)
        case plan.SetDifference():
            return _set_difference(rel, facts_of(rel.left, known), facts_of(rel.right, known))
        case plan.Values():
            return Facts(False, True, (False,) * len(rel.columns))
        case plan.Hop():
            inner = facts_of(rel.input, known)
            line = inner.waterlines[rel.time]
            return Facts(inner.stream, inner.insert_only, (*inner.waterlines, line, line))
        case plan.Unnest():  # a row's elements come and go with it; they have no waterline
            inner = facts_of(rel.input, known)
            added = len(rel.columns) - len(inner.waterlines)
            return Facts(inner.stream, inner.insert_only, (*inner.waterlines, *(False,) * added))
        case plan.Snapshot():
            # A snapshot is a table. Time travel with a key replaces a key's version when
            # an earlier one arrives late.
            inner = facts_of(rel.input, known)
            if rel.key:
                return Facts(False, False, (False,) * len(rel.columns))
            return Facts(False, inner.insert_only, inner.waterlines)
        case plan.LookupJoin():
            return _lookup_join(rel, facts_of(rel.left, known), facts_of(rel.right, known))
        case plan.TemporalJoin():
            return _temporal_join(rel, facts_of(rel.left, known), facts_of(rel.right, known))
        case plan.WindowJoin():
            return _window_join(rel, facts_of(rel.left, known), facts_of(rel.right, known))
        case plan.ToChangelog():
            return Facts(True, True, (False, False))
        case plan.FromChangelog():
            return Facts(False, False, (False,) * len(rel.columns))
        case plan.Recursive() | plan.RecursiveRef():
            # A table, recomputed as what it reads changes: it deletes as well.
            return Facts(False, False, (False,) * len(rel.columns))


def _join(rel: plan.Join, left: Facts, right: Facts) -> Facts:
    """A join keeps both sides' waterlines, an outer join's NULL side too (as Feldera
    infers them): the NULLs it adds are never below a waterline, so never final."""
    insert_only = rel.kind == "inner" and left.insert_only and right.insert_only
    return Facts(left.stream or right.stream, insert_only, left.waterlines + right.waterlines)


def _set_difference(rel: plan.SetDifference, left: Facts, right: Facts) -> Facts:
    """Output rows are left rows (equal to right rows, for INTERSECT): they keep the left
    side's waterlines, and INTERSECT the right side's too. INTERSECT of insertions
    only inserts (a row's min(l, r) never falls); EXCEPT deletes when the right grows."""
    if rel.op == "intersect":
        lines = tuple(a or b for a, b in zip(left.waterlines, right.waterlines, strict=True))
        insert_only = left.insert_only and right.insert_only
    else:
        lines, insert_only = left.waterlines, False
    return Facts(left.stream or right.stream, insert_only, lines)


def _lookup_join(rel: plan.LookupJoin, left: Facts, right: Facts) -> Facts:
    """Each row of the input side, once, as it arrives: insert-only, a stream when that
    side is one; the table side's values are whatever it held then (no waterlines)."""
    if rel.table == "right":
        return Facts(left.stream, True, left.waterlines + (False,) * len(right.waterlines))
    return Facts(right.stream, True, (False,) * len(left.waterlines) + right.waterlines)


def _temporal_join(rel: plan.TemporalJoin, left: Facts, right: Facts) -> Facts:
    """A late version retracts the rows of the left rows at or after its time: only the
    left's time column keeps a waterline, and only when the version column has one."""
    time = rel.time.index if isinstance(rel.time, plan.ColumnRef) else None
    version_line = right.waterlines[rel.version]
    lines = tuple(
        index == time and line and version_line for index, line in enumerate(left.waterlines)
    )
    return Facts(left.stream, False, lines + (False,) * len(right.waterlines))


def _window_join(rel: plan.WindowJoin, left: Facts, right: Facts) -> Facts:
    """A stream that only inserts, in the order of its last column, the output rowtime:
    the one column with a waterline (rows come once no earlier one can follow)."""
    width = len(left.waterlines) + len(right.waterlines)
    line = left.waterlines[rel.left_time] and right.waterlines[rel.right_time]
    return Facts(True, True, (False,) * width + (line,))


def _window(rel: plan.Window, inner: Facts) -> Facts:
    """A row's window values change as its partition changes (a row arriving later), so
    a column keeps its waterline only where every call's values are final once the
    column is below it: a partition key (a later row is in a later partition), or the
    leading key of an order when the value reads only the rows up to the row's peers
    (a later row sorts after them). SESSION_END's column has its time's waterline (a
    session ending below it is final: semantic/sessions.py); other calls' have none."""
    lines = inner.waterlines
    for call in rel.calls:
        order = call.order if _reads_up_to_peers(call) else ()
        lines = _settled(lines, rel.input.columns, call.partition, order)
    calls = tuple(
        call.function == CLOSE and is_monotone(call.args[0], inner.waterlines) for call in rel.calls
    )
    return Facts(inner.stream, False, lines + calls)


def _reads_up_to_peers(call: plan.WindowCall) -> bool:
    """Whether `call`'s value for a row reads only the rows before it and its peers in
    the call's order (not the partition's size, nor rows after it)."""
    if call.function in ("lag", "row_number", "rank", "dense_rank"):
        return True
    if call.function in ("lead", "ntile", "percent_rank", "cume_dist"):
        return False
    return call.end is not None and call.end <= 0


def _settled(
    lines: tuple[bool, ...],
    columns: tuple[plan.Field, ...],
    partition: tuple[plan.Expr, ...],
    order: tuple[plan.SortKey, ...],
) -> tuple[bool, ...]:
    """Of the columns with waterlines in `lines`, those whose rows no later row can change:
    the partition keys, and an order's leading key when later rows sort after the rows
    below its waterline (ascending, and NULLs, which can arrive any time, last)."""
    kept = {key.index for key in partition if isinstance(key, plan.ColumnRef)}
    lead = order[0] if order else None
    if lead is not None and isinstance(lead.expr, plan.ColumnRef) and not lead.descending:
        nulls_after = not lead.nulls_first or not columns[lead.expr.index].nullable
        if nulls_after:
            kept.add(lead.expr.index)
    return tuple(line and index in kept for index, line in enumerate(lines))
