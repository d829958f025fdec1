"""The incremental rule of a windowed stream join (`window_join`, docs/dialect.md).

A left row at time a and a right row at time b match when one of them, arriving,
finds the other in its side's window, and the condition holds:

    event a:  b in [a - P_r, a + F_r]        event b:  a in [b - P_l, b + F_l]

(P, F: a side's preceding and following extents). The pair's output rowtime is
the earliest of those arrival times. An outer join's unmatched row comes with
rowtime = its time + its side's P (the time it leaves its own window), once no
future row of the other side can match it.

The output is a stream: a row is emitted once no future output row can have a
smaller rowtime, given both inputs' clocks (a row or a rowtime bound moves them)
and the rows kept. That lower bound (`bound`, below) is the minimum over

- a future pair: min(max(c_l, c_r - F_r), max(c_r, c_l - F_l));
- each kept left row with a future right row: a, if a + F_r >= c_r (found at
  event a), and max(c_r, a - F_l) if that is <= a + P_l (found at event b);
  the same for each kept right row with a future left row;
- for an outer join, a future unmatched row (c_l + P_l) and each kept unmatched
  row (a + P_l).

A rowtime at or below the bound is emitted (later rows can share it: bounds are
non-strict, as SQLstream's). State: each side's rows that a future row can still
match (a left row is dropped once c_r > a + max(F_r, P_l)), with whether it was
matched, and the found rows not yet emitted.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from pyspark.sql import Column, DataFrame
from pyspark.sql import functions as F
from pyspark.sql import types as T

from worker.runner.incremental import (
    RULES,
    Lowering,
    Rule,
    names,
    negated,
    same_rows,
    types_of,
    unioned,
)
from worker.runner.lower import WEIGHT, LoweringError, lower_expr, positional, spark_type

MATCHED = "__matched"


def _micros(amount: int) -> Column:
    return F.lit(dt.timedelta(microseconds=amount))


def clock_key(side: Mapping[str, Any], time: int) -> str:
    """The key of a side's stream clock in the engine's time maxima (clocks.py)."""
    return f"{side['relation']}.{side['columns'][time]['name']}"


def _clocks(ctx: Lowering, rel: Mapping[str, Any]) -> DataFrame:
    """One row: both inputs' clocks after this step, `__cl` and `__cr` (NULL: no row yet)."""
    parts = []
    for side, alias in (("left", "__cl"), ("right", "__cr")):
        name = clock_key(rel[side], int(rel[f"{side}_time"]))
        top = ctx.clocks.get(name)
        if top is None:  # not a stream of this step's inputs: a compiler/runner mismatch
            raise LoweringError(f"a windowed join needs the clock of {name}")
        parts.append(top.select(F.col("value").cast(T.TimestampNTZType()).alias(alias)))
    return parts[0].crossJoin(parts[1])


class _Side:
    """One input of the join: its columns' names at their output positions, its time
    column, its window, and the extents that decide when its rows are done."""

    def __init__(self, rel: Mapping[str, Any], side: str, offset: int) -> None:
        other = "right" if side == "left" else "left"
        self.types = types_of(rel[side]["columns"])
        self.names = names(len(self.types), offset)
        self.time = F.col(positional(offset + int(rel[f"{side}_time"])))
        self.preceding = int(rel[f"{side}_window"]["preceding"])
        self.following = int(rel[f"{side}_window"]["following"])
        other_window = rel[f"{other}_window"]
        # A row can still match a future row of the other side up to this far after it.
        self.horizon = max(int(other_window["following"]), self.preceding)
        self.kept = rel["kind"] in (side, "full")  # an outer join keeps its unmatched rows
        self.flag = f"__m{side[0]}"
        self.weight = f"__w{side[0]}"
        self.new = f"__n{side[0]}"

    def rows(self, stored: DataFrame, change: DataFrame) -> DataFrame:
        """Kept rows and this step's rows: the side's columns, flag, weight, is-new."""
        width = len(self.types)
        old = stored.select(
            *(F.col(positional(i)).alias(n) for i, n in enumerate(self.names)),
            F.col(positional(width)).alias(self.flag),
            F.col(WEIGHT).alias(self.weight),
            F.lit(False).alias(self.new),
        )
        fresh = change.where(F.col(WEIGHT) > 0).select(
            *(F.col(positional(i)).alias(n) for i, n in enumerate(self.names)),
            F.lit(False).alias(self.flag),
            F.col(WEIGHT).alias(self.weight),
            F.lit(True).alias(self.new),
        )
        return unioned([old, fresh])

    def as_state(self, rows: DataFrame) -> DataFrame:
        """Rows in the stored layout c0..cN, flag, WEIGHT."""
        width = len(self.types)
        return rows.select(
            *(F.col(n).alias(positional(i)) for i, n in enumerate(self.names)),
            F.col(self.flag).alias(positional(width)),
            F.col(self.weight).alias(WEIGHT),
        )


def _window_join(ctx: Lowering, rel: Mapping[str, Any], key: str) -> DataFrame:
    nl = len(rel["left"]["columns"])
    left, right = _Side(rel, "left", 0), _Side(rel, "right", nl)
    out_types = types_of(rel["columns"])
    rowtime = positional(len(out_types) - 1)
    change_l = ctx.rel(rel["left"], key + ".l")
    change_r = ctx.rel(rel["right"], key + ".r")
    stored_l = ctx.stored(key + ".ls", [*left.types, "BOOLEAN"])
    stored_r = ctx.stored(key + ".rs", [*right.types, "BOOLEAN"])
    pending = ctx.stored(key + ".p", out_types)
    rows_l, rows_r = left.rows(stored_l, change_l), right.rows(stored_r, change_r)
    clocks = _clocks(ctx, rel)

    # Pairs found in this step: at least one of the two rows is new.
    a, b = left.time, right.time
    at_a = (b >= a - _micros(right.preceding)) & (b <= a + _micros(right.following))
    at_b = (a >= b - _micros(left.preceding)) & (a <= b + _micros(left.following))
    condition = (at_a | at_b) & (F.col(left.new) | F.col(right.new))
    if rel["condition"] is not None:
        condition = condition & lower_expr(rel["condition"])
    # Materialised once: the rest of the rule reads the pairs and the sides' rows several
    # times, and a plan that recomputed them everywhere ran a 1 GB driver out of memory.
    pairs = rows_l.join(rows_r, condition, "inner").localCheckpoint(eager=True)
    found = pairs.select(
        *left.names,
        *right.names,
        F.when(at_a & at_b, F.least(a, b)).when(at_a, a).otherwise(b).alias(rowtime),
        (F.col(left.weight) * F.col(right.weight)).alias(WEIGHT),
    )
    if left.kept:
        rows_l = _flagged(rows_l, pairs, left).localCheckpoint(eager=True)
    if right.kept:
        rows_r = _flagged(rows_r, pairs, right).localCheckpoint(eager=True)

    # With the clocks after the step: which rows are done, the unmatched rows they leave.
    rows_l, rows_r = rows_l.crossJoin(clocks), rows_r.crossJoin(clocks)
    done_l = F.coalesce(F.col("__cr") > a + _micros(left.horizon), F.lit(False))
    done_r = F.coalesce(F.col("__cl") > b + _micros(right.horizon), F.lit(False))
    alive_l, alive_r = rows_l.where(~done_l), rows_r.where(~done_r)
    ctx.save(
        key + ".ls", unioned([left.as_state(alive_l), negated(stored_l)]), [*left.types, "BOOLEAN"]
    )
    ctx.save(
        key + ".rs",
        unioned([right.as_state(alive_r), negated(stored_r)]),
        [*right.types, "BOOLEAN"],
    )
    found_nulls = []
    if left.kept:
        alone = rows_l.where(done_l & ~F.col(left.flag))
        found_nulls.append(_null_extended(alone, left, right, rowtime))
    if right.kept:
        alone = rows_r.where(done_r & ~F.col(right.flag))
        found_nulls.append(_null_extended(alone, right, left, rowtime))
    found = unioned([found, *found_nulls])

    limit = _bound(alive_l, alive_r, clocks, left, right)
    candidates = unioned([pending, found]).crossJoin(limit)
    emitted = candidates.where(F.coalesce(F.col(rowtime) <= F.col("__bound"), F.lit(False)))
    emitted = emitted.select(*names(len(out_types)), WEIGHT)
    ctx.save(key + ".p", unioned([found, negated(emitted)]), out_types)
    return emitted


def _flagged(rows: DataFrame, pairs: DataFrame, side: _Side) -> DataFrame:
    """`rows` with their flag set when they matched in this step."""
    hits = pairs.select(*(F.col(n).alias("h_" + n) for n in side.names)).distinct()
    hits = hits.withColumn("__hit", F.lit(True))
    joined = rows.join(hits, same_rows(rows, hits, side.names, "h_"), "left")
    flag = F.col(side.flag) | F.col("__hit").isNotNull()
    return joined.select(*side.names, flag.alias(side.flag), side.weight, side.new)


def _null_extended(alone: DataFrame, side: _Side, other: _Side, rowtime: str) -> DataFrame:
    """Unmatched rows of `side`, NULLs for `other`, at the time they left their window."""
    nulls = {
        n: F.lit(None).cast(spark_type(t)) for n, t in zip(other.names, other.types, strict=True)
    }
    values = {n: F.col(n) for n in side.names} | nulls
    ordered = [values[n] for n in sorted(values, key=lambda c: int(c[1:]))]
    return alone.select(
        *(v.alias(positional(i)) for i, v in enumerate(ordered)),
        (side.time + _micros(side.preceding)).alias(rowtime),
        F.col(side.weight).alias(WEIGHT),
    )


def _bound(
    alive_l: DataFrame, alive_r: DataFrame, clocks: DataFrame, left: _Side, right: _Side
) -> DataFrame:
    """One row `__bound`: no output row still to be found can have an earlier rowtime.
    NULL while an input has no clock (its first row could come at any time)."""
    cl, cr = F.col("__cl"), F.col("__cr")
    terms = [
        _kept_terms(alive_l, left, right, cr),
        _kept_terms(alive_r, right, left, cl),
    ]
    future = [
        F.greatest(cl, cr - _micros(right.following)),
        F.greatest(cr, cl - _micros(left.following)),
    ]
    if left.kept:
        future.append(cl + _micros(left.preceding))
    if right.kept:
        future.append(cr + _micros(right.preceding))
    terms.append(clocks.select(F.least(*future).alias("__t")))
    union = unioned(terms)
    lowest = union.agg(F.min("__t").alias("__t"))
    known = clocks.crossJoin(lowest)
    value = F.when(cl.isNull() | cr.isNull(), F.lit(None)).otherwise(F.col("__t"))
    return known.select(value.cast(T.TimestampNTZType()).alias("__bound"))


def _kept_terms(alive: DataFrame, side: _Side, other: _Side, clock: Column) -> DataFrame:
    """Per kept row of `side`, the earliest rowtime of a row it can still produce with a
    future row of `other` (whose clock is `clock`), or as an unmatched row."""
    t = side.time
    own_event = F.when(t + _micros(other.following) >= clock, t)
    start = F.greatest(clock, t - _micros(side.following))
    other_event = F.when(start <= t + _micros(side.preceding), start)
    parts = [own_event, other_event]
    if side.kept:
        parts.append(F.when(~F.col(side.flag), t + _micros(side.preceding)))
    return alive.select(F.least(*parts).alias("__t"))


WINDOW_JOIN_RULES: dict[str, Rule] = {"window_join": _window_join}
# Lowering dispatches through RULES: importing this module adds the rule above.
RULES.update(WINDOW_JOIN_RULES)
