"""A step's output: views' weighted changes consolidated, shaped as JSON rows, ordered.

The engine (worker/runner/engine.py) tags every output view's changes with the
view name and collects them together, so a step's cost does not grow a Spark
action per view.
"""

import json
from collections.abc import Mapping
from typing import Any

from pyspark.sql import Column, DataFrame
from pyspark.sql import functions as F

from worker.runner.intervals import interval_text, is_interval
from worker.runner.lower import WEIGHT, positional, shown_time
from worker.runner.rows import array_element, is_row, published

Change = dict[str, dict[str, Any]]
# Shown as strings so that no precision is lost on the way to JSON.
AS_STRING = ("DECIMAL", "DATE", "TIMESTAMP", "TIME", "INTERVAL")


def _consolidated(changes: DataFrame, width: int) -> DataFrame:
    """Sum the weights of equal rows; a +1 and a -1 of one row cancel out."""
    columns = [positional(i) for i in range(width)]
    summed = changes.groupBy(*columns).agg(F.sum(WEIGHT).alias(WEIGHT))
    return summed.where(F.col(WEIGHT) != 0)


def shown(value: Column, sql_type: str) -> Column:
    """A value as a view publishes it in JSON: decimals, dates and times as text, an
    interval as Feldera writes it, a ROW as an object, an ARRAY as a list of them."""
    element = array_element(sql_type)
    if element is not None:
        return F.transform(value, lambda item: shown(item, element))
    if is_row(sql_type):
        return published(value, sql_type, shown)
    if sql_type == "TIME":
        return shown_time(value)
    if is_interval(sql_type):
        return interval_text(value, sql_type)
    if sql_type.startswith(AS_STRING):
        return value.cast("string")
    return value


def _as_json(view: Mapping[str, Any], changes: DataFrame) -> DataFrame:
    fields = [
        shown(F.col(positional(i)), column["type"]).alias(column["name"])
        for i, column in enumerate(view["columns"])
    ]
    return changes.select(
        F.lit(view["name"]).alias("view"),
        F.col(WEIGHT).alias("weight"),
        F.to_json(F.struct(*fields), {"ignoreNullFields": "false"}).alias("row"),
    )


def compute_step(plan: Mapping[str, Any], batch: DataFrame) -> dict[str, list[Change]]:
    """Each output view's changes for one batch of input changes, from empty state.

    The plan's first step on the engine (worker/runner/engine.py), for tests and
    one-off runs; views with no changes are absent.
    """
    from worker.runner.engine import StepEngine  # the engine builds on this module

    return StepEngine(batch.sparkSession, plan).step(1, batch).deltas


def _sorted(changes: list[Change]) -> list[Change]:
    """Deletes before inserts, then by row: deterministic output for equal input."""
    return sorted(changes, key=lambda c: ("insert" in c, json.dumps(c, sort_keys=True)))


def in_view_order(view: Mapping[str, Any], changes: list[Change]) -> list[Change]:
    """A step's changes of `view`, deletes first; rows in the view's ORDER BY order.

    Only keys that are a column, or a function of one (`FLOOR(rowtime TO HOUR)`),
    order the rows here, by that column: the functions ORDER BY uses on a stream
    are monotone. Python's sort is stable, so sorting by the last key first
    leaves the rows ordered by all of them.
    """
    ordered = _sorted(changes)
    query = view["query"]
    if query["op"] != "sort":
        return ordered
    names = [c["name"] for c in view["columns"]]
    for key in reversed(query["keys"]):
        index = _key_column(key["expr"])
        if index is None:
            continue
        name = names[index]
        nulls = [c for c in ordered if _row(c)[name] is None]
        values = [c for c in ordered if _row(c)[name] is not None]
        values.sort(key=lambda c: _row(c)[name], reverse=key["descending"])
        ordered = nulls + values if key["nulls_first"] else values + nulls
    return sorted(ordered, key=lambda c: "insert" in c)  # stable: deletes first, in order


def _key_column(expr: Mapping[str, Any]) -> int | None:
    if expr["kind"] == "column":
        return int(expr["index"])
    if expr["kind"] == "call" and expr["args"]:
        return _key_column(expr["args"][0])
    return None


def _row(change: Change) -> dict[str, Any]:
    return next(iter(change.values()))
