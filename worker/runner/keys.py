"""Primary keys: an insert replaces the row with the same key (an upsert).

A table with a `PRIMARY KEY` (and not `append_only`) holds at most one row per
key. Within a step the changes of one key apply in the order they were accepted,
so the last one wins: an insert leaves its row, a delete (the whole row or just
the key columns) leaves none. The step's change of the table is then "minus the
row the key had before the step, plus the row it has after", which is how the
views downstream see an update: a -1 and a +1. A delete of a key that is not
there changes nothing.

The table's rows are kept as state under `<table>#rows`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pyspark.sql import DataFrame, Window
from pyspark.sql import functions as F

from worker.runner.incremental import (
    Lowering,
    consolidate,
    names,
    negated,
    semi,
    types_of,
    unioned,
)
from worker.runner.lower import WEIGHT, positional


def has_upserts(relation: Mapping[str, Any]) -> bool:
    return bool(relation.get("primary_key")) and not relation.get("append_only")


def upserted(ctx: Lowering, relation: Mapping[str, Any], changes: DataFrame) -> DataFrame:
    """`changes` (c0..cN, WEIGHT, seq) of a keyed table -> the table's own changes."""
    columns = relation["columns"]
    types = types_of(columns)
    all_columns = names(len(columns))
    position = {c["name"]: i for i, c in enumerate(columns)}
    key_columns = [positional(position[name]) for name in relation["primary_key"]]
    latest_first = Window.partitionBy(*key_columns).orderBy(F.col("seq").desc())
    last = changes.withColumn("__n", F.row_number().over(latest_first)).where("__n = 1")
    after = last.where(F.col(WEIGHT) > 0).select(*all_columns, F.lit(1).alias(WEIGHT))
    state_key = f"{relation['name']}#rows"
    before = semi(ctx.stored(state_key, types), last.select(*key_columns), key_columns)
    delta = consolidate(unioned([after, negated(before)]), all_columns)
    ctx.save(state_key, delta, types)
    return delta
