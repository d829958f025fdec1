"""The incremental rule of WITH RECURSIVE (`recursive`; backend/compiler/semantic/recursion.py).

A recursive query is computed whole again whenever what it reads changes. Its node
keeps the contents of every relation it reads (`<key>.<relation>#read`) and its own
rows (`<key>#recursive`; not `#rows`: a join keeps a side's rows under
`<join key>.l#rows`, this node's `<key>#rows` when it is that side). In a step that
changes one of those relations it evaluates, over their contents after the step, the
anchor; then the step over the rows the round before added, round after round, until
a round adds none (under UNION, only rows not there yet count as added). Each
evaluation is the incremental rules run over whole relations as one first step from
empty state, which gives the batch answer (contents.py). The node's changes are its
new rows less its stored ones.

Each round is a Spark job: its rows are materialised to learn whether it added any.
A query still adding rows after MAX_ROUNDS rounds fails the step (EndlessRecursion),
as a UNION ALL whose step always makes rows would otherwise run for ever.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pyspark.errors import PySparkException
from pyspark.sql import DataFrame
from pyspark.sql import functions as F

from worker.runner.incremental import (
    RULES,
    Lowering,
    Rule,
    cast_columns,
    consolidate,
    evaluate,
    materialised,
    names,
    negated,
    plan_nodes,
    present,
    types_of,
    unioned,
)
from worker.runner.lower import WEIGHT

MAX_ROUNDS = 1000


class EndlessRecursion(PySparkException):
    """A recursive query that did not stop adding rows: the step fails, as on a data
    error (data_errors.py), with Weir's own SQLSTATE for a check of its own."""

    def getSqlState(self) -> str:  # PySpark's name
        return "P0001"


def _recursive(ctx: Lowering, rel: Mapping[str, Any], key: str) -> DataFrame:
    types = types_of(rel["columns"])
    read = _relations_read(rel)
    if not ctx.first_step and all(ctx.is_empty(ctx.changes[name]) for name in read):
        return ctx.empty(types)
    contents = {}
    for name, read_types in read.items():
        state, change = f"{key}.{name}#read", ctx.changes[name]
        whole = unioned([ctx.stored(state, read_types), change])
        contents[name] = materialised(present(whole, names(len(read_types))))
        ctx.save(state, change, read_types)
    rows = _fixed_point(ctx, rel, contents)
    before = ctx.stored(f"{key}#recursive", types)
    changes = materialised(consolidate(unioned([rows, negated(before)]), names(len(types))))
    ctx.save(f"{key}#recursive", changes, types)
    return changes


def _recursive_ref(ctx: Lowering, rel: Mapping[str, Any], key: str) -> DataFrame:
    """The rows the last round added (set by `_fixed_point` for the step it evaluates)."""
    return ctx.changes[_working(rel["name"])]


def _fixed_point(
    ctx: Lowering, rel: Mapping[str, Any], contents: dict[str, DataFrame]
) -> DataFrame:
    """The rows of the recursive query over whole relations (`contents`), weighted."""
    columns = names(len(rel["columns"]))

    def evaluated(node: Mapping[str, Any], added: DataFrame | None) -> DataFrame:
        relations = dict(contents)
        if added is not None:
            relations[_working(rel["name"])] = added
        whole = evaluate(ctx.spark, node, relations, ctx.views)
        rows = present(cast_columns(whole, rel["columns"]), columns)
        return rows if rel["all"] else rows.select(*columns, F.lit(1).alias(WEIGHT))

    added = materialised(evaluated(rel["anchor"], None))
    rounds = [added]
    for _ in range(MAX_ROUNDS):
        if added.isEmpty():
            return unioned(rounds)
        made = evaluated(rel["step"], added)
        added = materialised(made if rel["all"] else _not_in(made, unioned(rounds), columns))
        rounds.append(added)
    raise EndlessRecursion(
        message=f"[RECURSION_LIMIT] The recursive query '{rel['name']}' still added rows "
        f"after {MAX_ROUNDS} rounds."
    )


def _not_in(made: DataFrame, whole: DataFrame, columns: list[str]) -> DataFrame:
    """The rows of `made` that `whole` does not hold (NULLs equal, as UNION compares)."""
    tagged = unioned([made.withColumn("__new", F.lit(1)), whole.withColumn("__new", F.lit(0))])
    newest = tagged.groupBy(*columns).agg(F.min("__new").alias("__new"))
    return newest.where(F.col("__new") == 1).select(*columns, F.lit(1).alias(WEIGHT))


def _relations_read(rel: Mapping[str, Any]) -> dict[str, list[str]]:
    """The relations the recursive query scans, with their column types."""
    return {
        node["relation"]: types_of(node["columns"])
        for node in plan_nodes(rel)
        if node["op"] == "scan"
    }


def _working(name: str) -> str:
    return f"{name}$added"


RECURSION_RULES: dict[str, Rule] = {"recursive": _recursive, "recursive_ref": _recursive_ref}
# Lowering dispatches through RULES: importing this module adds the rules above.
RULES.update(RECURSION_RULES)
