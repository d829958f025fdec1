"""A step's output: views' weighted changes consolidated, shaped as JSON rows, ordered.

The engine (worker/runner/engine.py) tags every output view's changes with the
view name and collects them together, so a step's cost does not grow a Spark
action per view.
"""

import decimal
import json
from collections.abc import Mapping
from typing import Any

from pyspark.sql import Column, DataFrame
from pyspark.sql import functions as F

from worker.runner import byte_strings
from worker.runner.intervals import interval_text, is_interval
from worker.runner.lower import WEIGHT, positional, shown_time
from worker.runner.rows import (
    array_element,
    is_map,
    is_row,
    map_types,
    published,
    published_map,
    row_fields,
)

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
    interval as Feldera writes it, a ROW or a MAP as an object, an ARRAY as a list."""
    if is_map(sql_type):
        return published_map(value, sql_type, shown)
    element = array_element(sql_type)
    if element is not None:
        return F.transform(value, lambda item: shown(item, element))
    if is_row(sql_type):
        return published(value, sql_type, shown)
    if sql_type == "TIME":
        return shown_time(value)
    if sql_type == "VARBINARY":
        return byte_strings.shown(value)
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
    for key in reversed(query["keys"]):
        index = _key_column(key["expr"])
        if index is None:
            continue
        name, sql_type = view["columns"][index]["name"], view["columns"][index]["type"]
        nulls = [c for c in ordered if _row(c)[name] is None]
        values = [c for c in ordered if _row(c)[name] is not None]
        values.sort(key=lambda c: _ordered_as(sql_type, _row(c)[name]), reverse=key["descending"])
        ordered = nulls + values if key["nulls_first"] else values + nulls
    return sorted(ordered, key=lambda c: "insert" in c)  # stable: deletes first, in order


def _ordered_as(sql_type: str, value: Any) -> Any:
    """A published value as SQL orders it (`comparable`), NULL first inside a ROW, ARRAY
    or MAP, a MAP by its sorted entries.

    >>> sorted(["10.00", "9.50"], key=lambda v: _ordered_as("DECIMAL(4,2)", v))
    ['9.50', '10.00']
    >>> _ordered_as("MAP<INTEGER, VARCHAR>", {"10": "a", "9": None})
    (1, [((1, 9.0), (0,)), ((1, 10.0), (1, 'a'))])
    """
    if value is None:
        return (0,)
    if is_map(sql_type):
        key_type, item_type = map_types(sql_type)
        entries = ((_ordered_as(key_type, k), _ordered_as(item_type, v)) for k, v in value.items())
        return (1, sorted(entries))
    element = array_element(sql_type)
    if element is not None:
        return (1, [_ordered_as(element, item) for item in value])
    if is_row(sql_type):
        return (1, tuple(_ordered_as(t, value[name]) for name, t in row_fields(sql_type)))
    return (1, comparable(sql_type, value))


def comparable(sql_type: str, value: Any) -> Any:
    """A JSON value of a scalar type as SQL orders it: a DECIMAL, and a number written as
    text (a MAP's key, a waterline), as a number; dates and times as their text."""
    if sql_type.startswith("DECIMAL"):
        return decimal.Decimal(str(value))
    if sql_type.startswith(AS_STRING) or isinstance(value, str):
        if sql_type in ("INTEGER", "BIGINT", "SMALLINT", "TINYINT", "DOUBLE", "REAL"):
            return float(value)
        return str(value)
    return value


def _key_column(expr: Mapping[str, Any]) -> int | None:
    if expr["kind"] == "column":
        return int(expr["index"])
    if expr["kind"] == "call" and expr["args"]:
        return _key_column(expr["args"][0])
    return None


def _row(change: Change) -> dict[str, Any]:
    return next(iter(change.values()))
