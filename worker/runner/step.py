"""One step: the input changes of a micro-batch in, every view's changes out.

All views of a step are computed in one Spark job (their changes are unioned,
tagged with the view name), so a step's cost does not grow a job per view.
"""

import json
from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

from worker.runner.lower import WEIGHT, lower_rel, parse_rows, positional

Change = dict[str, dict[str, Any]]
# Shown as strings so that no precision is lost on the way to JSON.
AS_STRING = ("DECIMAL", "DATE", "TIMESTAMP", "TIME", "INTERVAL")


def _consolidated(changes: DataFrame, width: int) -> DataFrame:
    """Sum the weights of equal rows; a +1 and a -1 of one row cancel out."""
    columns = [positional(i) for i in range(width)]
    summed = changes.groupBy(*columns).agg(F.sum(WEIGHT).alias(WEIGHT))
    return summed.where(F.col(WEIGHT) != 0)


def _as_json(view: Mapping[str, Any], changes: DataFrame) -> DataFrame:
    fields = []
    for i, column in enumerate(view["columns"]):
        value = F.col(positional(i))
        if column["type"].startswith(AS_STRING):
            value = value.cast("string")
        fields.append(value.alias(column["name"]))
    return changes.select(
        F.lit(view["name"]).alias("view"),
        F.col(WEIGHT).alias("weight"),
        F.to_json(F.struct(*fields), {"ignoreNullFields": "false"}).alias("row"),
    )


def compute_step(plan: Mapping[str, Any], batch: DataFrame) -> dict[str, list[Change]]:
    """Each output view's changes for this batch of input changes (views with none are absent).

    Views come in program order, so a view's inputs (tables, or views before it)
    already have their changes for this step; LOCAL views feed others but are
    not published.
    """
    if not all(_linear(view["query"]) for view in plan["views"]):
        # Stateful nodes need the engine; with fresh state this is the plan's first step.
        from worker.runner.engine import StepEngine

        return StepEngine(batch.sparkSession, plan).step(1, batch).deltas
    changes = {relation["name"]: parse_rows(batch, relation) for relation in plan["inputs"]}
    per_view = []
    for view in plan["views"]:
        changes[view["name"]] = lower_rel(view["query"], changes)
        if not view.get("local"):
            consolidated = _consolidated(changes[view["name"]], len(view["columns"]))
            per_view.append(_as_json(view, consolidated))
    if not per_view:
        return {}
    union = per_view[0]
    for more in per_view[1:]:
        union = union.unionByName(more)
    deltas: dict[str, list[Change]] = defaultdict(list)
    for record in union.collect():
        row = json.loads(record["row"])
        kind = "insert" if record["weight"] > 0 else "delete"
        deltas[record["view"]].extend({kind: row} for _ in range(abs(record["weight"])))
    order = [view["name"] for view in plan["views"]]
    return {name: _sorted(deltas[name]) for name in order if name in deltas}


def _linear(rel: Mapping[str, Any]) -> bool:
    if rel["op"] == "scan":
        return True
    return rel["op"] in ("filter", "project") and _linear(rel["input"])


def _sorted(changes: list[Change]) -> list[Change]:
    """Deletes before inserts, then by row: deterministic output for equal input."""
    return sorted(changes, key=lambda c: ("insert" in c, json.dumps(c, sort_keys=True)))
