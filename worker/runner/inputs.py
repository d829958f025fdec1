"""A step's input changes of one table or stream, after the dialect's time rules.

Rules (docs/contracts.md, spec/feldera-streaming-extensions.md), against values known
from the previous step, so a waterline never moves within a step:

- LATENESS column: a change (insert or delete, as in Feldera) below (max value seen
  so far - lateness) is dropped, "late": the table stays as if it never came. A view's
  LATENESS statement does the same to the view's changes (`view_lateness`).
- stream: a row with a rowtime below the stream's clock (the max rowtime of every
  earlier row and bound) is dropped, "out_of_order".
- WATERMARK column: a row waits in the table's held rows until the column's running
  max reaches value + delay. The max that moves in a step releases the rows of earlier
  steps in that step, those of the step itself from the next ("an event that changes
  the watermark in step 2 ... will only make visible the eligible events inserted up
  to step 1", as Feldera's own tests have it).

A rowtime bound arrives as a change of weight 0 with row {"bound": ts, "strict": b}:
it moves maxima and clocks like a row with that time, without being a row.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pyspark.sql import Column, DataFrame, Window
from pyspark.sql import functions as F
from pyspark.sql import types as T

from worker.runner.clocks import ROWTIME, max_key, time_columns
from worker.runner.incremental import unioned
from worker.runner.lower import WEIGHT, lower_expr, parse_rows, positional, spark_type

BOUND_SCHEMA = T.StructType(
    [T.StructField("bound", T.StringType()), T.StructField("strict", T.BooleanType())]
)


@dataclass
class TableInput:
    changes: DataFrame  # c0..cN, WEIGHT, seq: the accepted changes released in this step
    dropped: DataFrame  # seq, reason, row (JSON text)
    held: DataFrame  # seq, relation, weight, row: waits for the watermark
    maxima: dict[str, DataFrame]  # "relation.column" -> one row, one column "value" (string)


def previous(maxima: Mapping[str, str], relation: Mapping[str, Any], index: int) -> Column:
    """The column's max as of the previous step (NULL before any value)."""
    value = maxima.get(max_key(relation, index))
    return F.lit(value).cast(spark_type(relation["columns"][index]["type"]))


def table_input(
    relation: Mapping[str, Any], new: DataFrame, held: DataFrame, maxima: Mapping[str, str]
) -> TableInput:
    """`new`: this step's changes of `relation`; `held`: rows still waiting for its watermark."""
    columns = relation["columns"]
    rows = new.where(F.col("weight") != 0)
    parsed = parse_rows(rows, relation)
    reason = F.when(_below_waterline(relation, maxima), F.lit("late"))
    if relation["kind"] == "stream" and ROWTIME in [c["name"] for c in columns]:
        reason = F.when(_out_of_order(relation, maxima), "out_of_order").otherwise(reason)
    parsed = parsed.withColumn("__reason", reason)
    dropped = parsed.where(F.col("__reason").isNotNull()).select(
        "seq", F.col("__reason").alias("reason"), "row"
    )
    accepted = parsed.where(F.col("__reason").isNull()).drop("__reason")
    result_maxima = {
        max_key(relation, i): _maximum(relation, i, accepted, new, maxima)
        for i in time_columns(relation)
    }
    marks = [i for i, column in enumerate(columns) if column.get("watermark") is not None]
    if not marks:
        changes = accepted.select(*(positional(i) for i in range(len(columns))), WEIGHT, "seq")
        return TableInput(changes, dropped, held.limit(0), result_maxima)
    pool = unioned(
        [
            accepted.withColumn("__new", F.lit(True)),
            parse_rows(held, relation).withColumn("__new", F.lit(False)),
        ]
    )
    release = F.lit(True)
    for i in marks:
        now = result_maxima[max_key(relation, i)]
        pool = pool.crossJoin(now.select(F.col("value").alias(f"__max{i}")))
        # This step's rows against the max before it, the held ones against the max now.
        limit = F.when(F.col("__new"), previous(maxima, relation, i)).otherwise(
            F.col(f"__max{i}").cast(spark_type(columns[i]["type"]))
        )
        reached = lower_expr(columns[i]["watermark"]) + F.col(positional(i)) <= limit
        release = release & F.coalesce(reached, F.lit(False))
    pool = pool.withColumn("__release", release)
    changes = pool.where("__release").select(
        *(positional(i) for i in range(len(columns))), WEIGHT, "seq"
    )
    waiting = pool.where(~F.col("__release")).select(
        "seq", F.lit(relation["name"]).alias("relation"), F.col(WEIGHT).alias("weight"), "row"
    )
    return TableInput(changes, dropped, waiting, result_maxima)


def _below_waterline(relation: Mapping[str, Any], maxima: Mapping[str, str]) -> Column:
    """Whether a row is below its relation's waterline in any LATENESS column: below the
    column's max as of the previous step less the lateness."""
    late = F.lit(False)
    for i, column in enumerate(relation["columns"]):
        if column.get("lateness") is not None:
            waterline = previous(maxima, relation, i) - lower_expr(column["lateness"])
            late = late | F.coalesce(F.col(positional(i)) < waterline, F.lit(False))
    return late


@dataclass
class ViewLateness:
    changes: DataFrame  # c0..cN, WEIGHT: the view's changes at or above its waterline
    dropped: DataFrame  # c0..cN, WEIGHT: the changes below it
    maxima: dict[str, DataFrame]  # as TableInput's


def has_lateness(relation: Mapping[str, Any]) -> bool:
    return any(c.get("lateness") is not None for c in relation["columns"])


def view_lateness(
    view: Mapping[str, Any], changes: DataFrame, maxima: Mapping[str, str]
) -> ViewLateness:
    """A view's changes of the step after its LATENESS statements (`LATENESS v.col expr;`).

    The view's waterline in a column is the max value of its rows in earlier steps less
    the lateness, as a table's. A change below it is dropped, insert or delete alike:
    the view's rows behind its waterline stay as they are, for its readers and its
    stored contents (as a table's do, `table_input`).
    """
    flagged = changes.withColumn("__late", _below_waterline(view, maxima))
    accepted = flagged.where(~F.col("__late")).drop("__late")
    result_maxima = {}
    for i, column in enumerate(view["columns"]):
        if column.get("lateness") is not None:
            values = accepted.where(F.col(WEIGHT) > 0).select(F.col(positional(i)).alias("value"))
            result_maxima[max_key(view, i)] = _running_max(values, view, i, maxima)
    return ViewLateness(accepted, flagged.where("__late").drop("__late"), result_maxima)


def _bounds(new: DataFrame, sql_type: str) -> DataFrame:
    """The time of each bound in `new` (a strict bound excludes its own time too)."""
    bound = new.where(F.col("weight") == 0).select(F.from_json("row", BOUND_SCHEMA).alias("b"))
    value = F.col("b.bound").cast(spark_type(sql_type))
    strict = F.coalesce(F.col("b.strict"), F.lit(False))
    if sql_type == "TIMESTAMP":
        value = F.when(strict, value + F.lit(dt.timedelta(microseconds=1))).otherwise(value)
    return bound.select(value.alias("value"))


def _out_of_order(relation: Mapping[str, Any], maxima: Mapping[str, str]) -> Column:
    index = [c["name"] for c in relation["columns"]].index(ROWTIME)
    # The clock before this row: the previous steps' clock, then every earlier row of this
    # step. Bounds of this step take effect from the next step.
    earlier = Window.partitionBy(F.lit(1)).orderBy("seq").rowsBetween(Window.unboundedPreceding, -1)
    clock = F.greatest(previous(maxima, relation, index), F.max(positional(index)).over(earlier))
    return F.coalesce(F.col(positional(index)) < clock, F.lit(False))


def _maximum(
    relation: Mapping[str, Any],
    index: int,
    accepted: DataFrame,
    new: DataFrame,
    maxima: Mapping[str, str],
) -> DataFrame:
    sql_type = relation["columns"][index]["type"]
    values = accepted.select(F.col(positional(index)).alias("value"))
    return _running_max(unioned([values, _bounds(new, sql_type)]), relation, index, maxima)


def _running_max(
    values: DataFrame, relation: Mapping[str, Any], index: int, maxima: Mapping[str, str]
) -> DataFrame:
    """One row, one column "value": the greatest of `values` and the previous max, as text."""
    top = F.greatest(F.max("value"), previous(maxima, relation, index))
    return values.agg(top.cast("string").alias("value"))
