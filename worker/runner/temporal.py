"""Incremental rules of SNAPSHOT, SEARCH_KEY, TO_CHANGELOG and FROM_CHANGELOG.

- lookup_join: the table side's contents are state; each step's rows of the other
  (insert-only) side join the table as it is after the step. Nothing else changes
  the output: a lookup happens once.
- as_of (time travel of a keyed table): per key, the version that wins at the
  time `at` is state; a step's versions at or before `at` may replace it.
- temporal_join (a keyed table): both the left rows and every version of the table
  are state; the left rows a step can affect (its own, and stored ones at or after
  a new version) are joined again before and after the step, the difference emitted.
- to_changelog: each step's consolidated changes as rows (op, payload); stateless.
- from_changelog: each payload row's count of adds minus removes is state; the
  output count is max(0, count).

Versions come from the tables' accepted changes of the step in the order they
were accepted (`Lowering.history`), before the primary key applies: every insert
is a version at its time column, and a delete ends its key at its own time column,
or, when the delete gives only the key, at the table's clock (the largest time the
table had seen before the delete).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pyspark.sql import Column, DataFrame, Window
from pyspark.sql import functions as F

from worker.runner.incremental import (
    RIGHT_WEIGHT,
    RULES,
    Lowering,
    Rule,
    consolidate,
    join_condition,
    names,
    negated,
    present,
    same_rows,
    semi,
    shifted,
    side_state,
    types_of,
    unioned,
)
from worker.runner.inputs import previous
from worker.runner.lower import WEIGHT, lower_expr, positional, spark_type


@dataclass
class History:
    """An input's accepted changes of one step, before its primary key applies."""

    relation: Mapping[str, Any]
    changes: DataFrame  # c0..cN, WEIGHT, seq
    maxima: Mapping[str, str]  # the time maxima as of the previous step


def versions(ctx: Lowering, relation: str, time: int, key: list[int]) -> DataFrame:
    """The step's versions of a keyed table: c0..cN (a delete: its key and its time),
    then c{N+1} its seq and c{N+2} whether it is a delete; weight 1. A version whose
    time is NULL is in no snapshot and left out."""
    history = ctx.history[relation]
    columns = history.relation["columns"]
    width = len(columns)
    stamp = F.col(positional(time))
    earlier = Window.partitionBy(F.lit(1)).orderBy("seq").rowsBetween(Window.unboundedPreceding, -1)
    clock = F.greatest(previous(history.maxima, history.relation, time), F.max(stamp).over(earlier))
    deleted = F.col(WEIGHT) < 0
    values = []
    for i, column in enumerate(columns):
        value = F.col(positional(i))
        if i == time:
            value = F.when(deleted, F.coalesce(value, clock)).otherwise(value)
        elif i not in key:
            value = F.when(~deleted, value).otherwise(F.lit(None).cast(spark_type(column["type"])))
        values.append(value.alias(positional(i)))
    found = history.changes.select(
        *values,
        F.col("seq").cast("long").alias(positional(width)),
        deleted.alias(positional(width + 1)),
        F.lit(1).alias(WEIGHT),
    )
    return found.where(F.col(positional(time)).isNotNull())


def version_types(columns: list[Mapping[str, Any]]) -> list[str]:
    return [*types_of(columns), "BIGINT", "BOOLEAN"]


def _latest(rows: DataFrame, partition: list[str], time: str, seq: str) -> DataFrame:
    """The row with the latest (time, seq) of each partition."""
    order = Window.partitionBy(*partition).orderBy(F.col(time).desc(), F.col(seq).desc())
    return rows.withColumn("__n", F.row_number().over(order)).where("__n = 1").drop("__n")


# ---------------------------------------------------------------- as_of


def _as_of(ctx: Lowering, rel: Mapping[str, Any], key: str) -> DataFrame:
    """SNAPSHOT(t, at) of a keyed table: each key's latest version at or before `at`."""
    columns = rel["columns"]
    width, time = len(columns), int(rel["time"])
    keys = [positional(k) for k in rel["key"]]
    types = version_types(columns)
    fresh = versions(ctx, rel["input"]["relation"], time, rel["key"])
    fresh = fresh.where(F.col(positional(time)) <= lower_expr(rel["at"]))
    stored = ctx.stored(key, types)
    before = semi(stored, fresh.select(*keys).distinct(), keys)
    after = _latest(unioned([before, fresh]), keys, positional(time), positional(width))
    ctx.save(key, unioned([after, negated(before)]), types)
    return unioned([_live(after, width), negated(_live(before, width))])


def _live(winners: DataFrame, width: int) -> DataFrame:
    """The rows of the versions that are not deletes."""
    return winners.where(~F.col(positional(width + 1))).select(*names(width), WEIGHT)


# ---------------------------------------------------------------- temporal_join


def _temporal_join(ctx: Lowering, rel: Mapping[str, Any], key: str) -> DataFrame:
    left_types = types_of(rel["left"]["columns"])
    right_columns = rel["right"]["columns"]
    left_names = names(len(left_types))
    version, keys = int(rel["version"]), list(rel["key"])
    history_types = version_types(right_columns)
    d_left = ctx.rel(rel["left"], key + ".l")
    old_left = ctx.stored(side_state(key, "l"), left_types)
    ctx.save(side_state(key, "l"), d_left, left_types)
    d_versions = versions(ctx, rel["right"]["relation"], version, keys)
    old_versions = ctx.stored(key + ".h", history_types)
    ctx.save(key + ".h", d_versions, history_types)
    before_left = present(old_left, left_names)
    after_left = present(unioned([old_left, d_left]), left_names)
    # The left rows whose output can change: the step's own, and the stored rows at or
    # after the time of a new version.
    new_times = d_versions.select(F.col(positional(version)).alias("__v"))
    later = before_left.withColumn("__ts", lower_expr(rel["time"]))
    moved = later.join(new_times, F.col("__v") <= F.col("__ts"), "left_semi")
    affected = unioned([d_left.select(*left_names), moved.select(*left_names)]).distinct()
    before = _versioned(semi(before_left, affected, left_names), old_versions, rel)
    after = _versioned(
        semi(after_left, affected, left_names), unioned([old_versions, d_versions]), rel
    )
    return unioned([after, negated(before)])


def _versioned(left: DataFrame, history: DataFrame, rel: Mapping[str, Any]) -> DataFrame:
    """Each left row (weighted, distinct) with, per key of the table, the version valid
    at its time; a left join keeps the rows with none, NULL-extended."""
    right_columns = rel["right"]["columns"]
    nl, nr = len(rel["left"]["columns"]), len(right_columns)
    left_names, right_names = names(nl), names(nr, nl)
    version, keys = int(rel["version"]), list(rel["key"])
    right = history.select(
        *(F.col(positional(i)).alias(positional(nl + i)) for i in range(nr)),
        F.col(positional(nr)).alias("__seq"),
        F.col(positional(nr + 1)).alias("__deleted"),
    )
    early, late = _split(rel["condition"], nl, keys)
    valid = F.col(positional(nl + version)) <= F.col("__ts")
    timed = left.withColumn("__ts", lower_expr(rel["time"]))
    candidates = timed.join(right, valid & _holds(early), "inner")
    partition = [*left_names, *(positional(nl + k) for k in keys)]
    chosen = _latest(candidates, partition, positional(nl + version), "__seq")
    chosen = chosen.where(~F.col("__deleted") & _holds(late))
    matched = chosen.select(*left_names, *right_names, WEIGHT)
    if rel["kind"] != "left":
        return matched
    found = matched.select(*(F.col(c).alias("m_" + c) for c in left_names)).distinct()
    alone = left.join(found, same_rows(left, found, left_names, "m_"), "left_anti")
    nulls = [
        F.lit(None).cast(spark_type(c["type"])).alias(n)
        for c, n in zip(right_columns, right_names, strict=True)
    ]
    return unioned([matched, alone.select(*left_names, *nulls, WEIGHT)])


def _split(
    condition: Mapping[str, Any] | None, width: int, keys: list[int]
) -> tuple[list[Mapping[str, Any]], list[Mapping[str, Any]]]:
    """The condition's conjuncts over the left's columns and the table's key only (the
    same for every version of a key: they can choose candidates before the latest
    version is picked), and the others (only for the version picked)."""
    if condition is None:
        return [], []
    stack, early, late = [condition], [], []
    while stack:
        part = stack.pop()
        if part.get("kind") == "call" and part["function"] == "and":
            stack.extend(part["args"])
            continue
        columns = _columns_of(part)
        keyed = all(i < width or i - width in keys for i in columns)
        (early if keyed else late).append(part)
    return early, late


def _columns_of(expr: Mapping[str, Any]) -> set[int]:
    if expr.get("kind") == "column":
        return {int(expr["index"])}
    found: set[int] = set()
    for value in expr.values():
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, Mapping):
                found |= _columns_of(item)
            elif isinstance(item, list):
                for inner in item:
                    if isinstance(inner, Mapping):
                        found |= _columns_of(inner)
    return found


def _holds(parts: list[Mapping[str, Any]]) -> Column:
    """All of the conditions, for a join or a filter: NULL (unknown) keeps no row there,
    as FALSE does, so equalities stay join keys to Spark."""
    result = F.lit(True)
    for part in parts:
        result = result & lower_expr(part)
    return result


# ---------------------------------------------------------------- lookup_join


def _lookup_join(ctx: Lowering, rel: Mapping[str, Any], key: str) -> DataFrame:
    """Each row of the insert-only side joins the table side as it is after the step."""
    left_types = types_of(rel["left"]["columns"])
    right_types = types_of(rel["right"]["columns"])
    nl, nr = len(left_types), len(right_types)
    left_names, right_names = names(nl), names(nr, nl)
    d_left = ctx.rel(rel["left"], key + ".l")
    d_right = ctx.rel(rel["right"], key + ".r")
    on_right = rel["table"] == "right"
    table_types, d_table = (right_types, d_right) if on_right else (left_types, d_left)
    stored = ctx.stored(key + ".t", table_types)
    ctx.save(key + ".t", d_table, table_types)
    table = present(unioned([stored, d_table]), names(len(table_types)))
    left = d_left if on_right else table
    right = shifted(table if on_right else d_right, nr, nl)
    condition = join_condition(rel)
    weight = (F.col(WEIGHT) * F.col(RIGHT_WEIGHT)).alias(WEIGHT)
    result = left.join(right, condition, "inner").select(*left_names, *right_names, weight)
    if rel["kind"] == "left":
        alone = left.join(right, condition, "left_anti")
        result = unioned([result, alone.select(*left_names, *_nulls(right_types, nl), WEIGHT)])
    elif rel["kind"] == "right":
        alone = right.join(left, condition, "left_anti")
        result = unioned(
            [
                result,
                alone.select(
                    *_nulls(left_types, 0), *right_names, F.col(RIGHT_WEIGHT).alias(WEIGHT)
                ),
            ]
        )
    return result


def _nulls(types: list[str], offset: int) -> list[Column]:
    return [
        F.lit(None).cast(spark_type(t)).alias(positional(offset + i)) for i, t in enumerate(types)
    ]


# ---------------------------------------------------------------- changelogs


def _to_changelog(ctx: Lowering, rel: Mapping[str, Any], key: str) -> DataFrame:
    """Each consolidated change of the step as (op, payload): +1 is op 0 and -1 op 3, or,
    for a key of the table replaced in the step, op 1 (the old row) and op 2 (the new)."""
    child = ctx.rel(rel["input"], key + ".i")
    columns = names(len(rel["input"]["columns"]))
    change = consolidate(child, columns)
    weight = F.col(WEIGHT)
    if rel["key"]:
        by_key = Window.partitionBy(*(positional(k) for k in rel["key"]))
        inserted = F.max(F.when(weight > 0, 1).otherwise(0)).over(by_key)
        deleted = F.max(F.when(weight < 0, 1).otherwise(0)).over(by_key)
        replaced = (inserted + deleted) == 2
        op = F.when(weight > 0, F.when(replaced, 2).otherwise(0)).otherwise(
            F.when(replaced, 1).otherwise(3)
        )
    else:
        op = F.when(weight > 0, 0).otherwise(3)
    op_type, payload_type = (spark_type(c["type"]) for c in rel["columns"])
    payload = F.struct(*(F.col(c) for c in columns)).cast(payload_type)
    return change.select(
        op.cast(op_type).alias(positional(0)),
        payload.alias(positional(1)),
        F.abs(weight).alias(WEIGHT),
    )


def _from_changelog(ctx: Lowering, rel: Mapping[str, Any], key: str) -> DataFrame:
    """Adds (op 0, 2) and removes (op 1, 3) of payload rows; other ops and NULL payloads
    are ignored. A row is there max(0, adds - removes) times."""
    child = ctx.rel(rel["input"], key + ".i")
    op = F.col(positional(rel["op_column"]))
    payload = F.col(positional(rel["payload_column"]))
    types = types_of(rel["columns"])
    columns = names(len(types))
    sign = F.when(op.isin(0, 2), 1).when(op.isin(1, 3), -1).otherwise(0)
    change = child.where(payload.isNotNull()).select(
        *(payload.getField(c).alias(c) for c in columns), (F.col(WEIGHT) * sign).alias(WEIGHT)
    )
    change = consolidate(change, columns)
    stored = ctx.stored(key, types)
    ctx.save(key, change, types)
    previous_counts = stored.select(
        *(F.col(c).alias("o_" + c) for c in columns), F.col(WEIGHT).alias("__o")
    )
    joined = change.join(previous_counts, same_rows(change, previous_counts, columns, "o_"), "left")
    before = F.coalesce(F.col("__o"), F.lit(0))
    after = before + F.col(WEIGHT)
    weight = F.greatest(after, F.lit(0)) - F.greatest(before, F.lit(0))
    return joined.select(*columns, weight.alias(WEIGHT)).where(F.col(WEIGHT) != 0)


TEMPORAL_RULES: dict[str, Rule] = {
    "lookup_join": _lookup_join,
    "as_of": _as_of,
    "temporal_join": _temporal_join,
    "to_changelog": _to_changelog,
    "from_changelog": _from_changelog,
}
# Lowering dispatches through RULES: importing this module adds the rules above.
RULES.update(TEMPORAL_RULES)
