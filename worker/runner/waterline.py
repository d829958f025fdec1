"""Waterlines of views: a one-row DataFrame per relation, pushed through the plan.

A table's waterline row holds (max seen - lateness) in its LATENESS columns, a
stream's holds its clock in rowtime, NULL elsewhere. A node's waterline is its
expressions evaluated on its input's waterline row: right for the monotone
expressions the compiler marks `"waterline": true` (FLOOR(ts TO HOUR), ts + i,
window bounds, grouping keys), meaningless (and unused) for the other columns.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from pyspark.sql import Column, DataFrame, SparkSession
from pyspark.sql import functions as F

from worker.runner.clocks import ROWTIME
from worker.runner.incremental import names, one_row
from worker.runner.inputs import has_lateness, previous
from worker.runner.lower import lower_expr, positional, spark_type


def _row(spark: SparkSession, columns: list[Any]) -> DataFrame:
    return one_row(spark).select(*(c.alias(positional(i)) for i, c in enumerate(columns)))


def input_waterline(
    spark: SparkSession, relation: Mapping[str, Any], maxima: Mapping[str, str]
) -> DataFrame:
    values = []
    for i, column in enumerate(relation["columns"]):
        top = previous(maxima, relation, i)
        if column.get("lateness") is not None:
            values.append(top - lower_expr(column["lateness"]))
        elif relation["kind"] == "stream" and column["name"] == ROWTIME:
            values.append(top)
        else:
            values.append(F.lit(None).cast(spark_type(column["type"])))
    return _row(spark, values)


def raised_by_lateness(
    line: DataFrame, view: Mapping[str, Any], maxima: Mapping[str, str]
) -> DataFrame:
    """A view's waterline row with its LATENESS statements: in such a column, the greater
    of what its query gives and the view's own (max seen - lateness, inputs.py)."""
    if not has_lateness(view):
        return line
    values = []
    for i, column in enumerate(view["columns"]):
        value = F.col(positional(i))
        if column.get("lateness") is not None:
            own = previous(maxima, view, i) - lower_expr(column["lateness"])
            value = F.greatest(value, own)
        values.append(value.alias(positional(i)))
    return line.select(*values)


def _temporal_lines(rel: Mapping[str, Any], nulls: list[Any], nl: int) -> list[Any]:
    """A lookup join's rows carry the input side's waterlines (the table side's values
    are whatever it held); a temporal join keeps only the left's time column, below
    both it and the table's version column (a late version retracts rows after it)."""
    if rel["op"] == "lookup_join":
        keep = range(nl) if rel["table"] == "right" else range(nl, len(nulls))
        lines = [F.col(positional(i)) if i in keep else n for i, n in enumerate(nulls)]
    else:
        time = rel["time"]
        lines = list(nulls)
        if time["kind"] == "column":
            index = int(time["index"])
            version = F.col(positional(nl + int(rel["version"])))
            left = F.col(positional(index))
            lines[index] = F.when(left.isNotNull() & version.isNotNull(), F.least(left, version))
    return [line.alias(positional(i)) for i, line in enumerate(lines)]


def rel_waterline(
    spark: SparkSession, rel: Mapping[str, Any], relations: Mapping[str, DataFrame]
) -> DataFrame:
    op = rel["op"]
    typed_nulls = [F.lit(None).cast(spark_type(c["type"])) for c in rel["columns"]]
    if op == "scan":
        return relations[rel["relation"]]
    if op in ("values", "recursive"):  # a recursive query's rows have no waterline
        return _row(spark, typed_nulls)
    if op == "union":
        inputs = [rel_waterline(spark, r, relations) for r in rel["inputs"]]
        joined = inputs[0].select(*(F.col(c).alias(f"u0_{c}") for c in inputs[0].columns))
        for k, more in enumerate(inputs[1:], 1):
            joined = joined.crossJoin(
                more.select(*(F.col(c).alias(f"u{k}_{c}") for c in more.columns))
            )
        # A future row may come from any input: the least waterline, NULL if any is unknown.
        values = []
        for i in range(len(rel["columns"])):
            parts = [F.col(f"u{k}_{positional(i)}") for k in range(len(inputs))]
            unknown = F.lit(False)
            for part in parts:
                unknown = unknown | part.isNull()
            values.append(F.when(~unknown, F.least(*parts)))
        return joined.select(*(v.alias(positional(i)) for i, v in enumerate(values)))
    if op in ("join", "lookup_join", "temporal_join"):
        left = rel_waterline(spark, rel["left"], relations)
        right = rel_waterline(spark, rel["right"], relations)
        nl = len(rel["left"]["columns"])
        right = right.select(
            *(F.col(positional(i)).alias(positional(nl + i)) for i in range(len(right.columns)))
        )
        both = left.crossJoin(right)
        if op == "join":
            return both
        return both.select(*_temporal_lines(rel, typed_nulls, nl))
    if op == "window_join":
        return _window_join_line(spark, rel, relations, typed_nulls)
    if op in ("intersect", "except", "semi"):
        left = rel_waterline(spark, rel["left"], relations)
        if op != "intersect":
            return left  # its rows are left rows
        # A future INTERSECT row is a future row of both sides: above both waterlines.
        right = rel_waterline(spark, rel["right"], relations)
        right = right.select(*(F.col(c).alias("r_" + c) for c in right.columns))
        both = left.crossJoin(right)
        return both.select(*(F.greatest(c, "r_" + c).alias(c) for c in names(len(rel["columns"]))))
    child = rel_waterline(spark, rel["input"], relations)
    if op in ("filter", "distinct", "sort"):
        return child
    if op == "project":
        exprs = rel["exprs"]
        return child.select(*(lower_expr(e).alias(positional(i)) for i, e in enumerate(exprs)))
    if op == "window":
        width = len(rel["input"]["columns"])
        calls = zip(rel["calls"], typed_nulls[width:], strict=True)
        lines = [_call_line(call, null) for call, null in calls]
        return child.select(
            *names(width), *(line.alias(positional(width + i)) for i, line in enumerate(lines))
        )
    if op == "aggregate":
        keys = [lower_expr(e) for e in rel["keys"]]
        return child.select(*keys, *typed_nulls[len(keys) :]).toDF(*names(len(rel["columns"])))
    if op == "unnest":  # the input row's waterlines; none for the element or its place
        width = len(rel["input"]["columns"])
        return child.select(*names(width), *typed_nulls[width:])
    if op == "hop":
        width = len(rel["input"]["columns"])
        time = F.col(positional(rel["time"]))
        size = F.lit(dt.timedelta(microseconds=int(rel["size"])))
        # A future row t > w falls in windows starting after w - size and ending after w.
        return child.select(
            *names(width), (time - size).alias(positional(width)), time.alias(positional(width + 1))
        )
    return _row(spark, typed_nulls)


def _call_line(call: Mapping[str, Any], null: Column) -> Column:
    """A window call's waterline: SESSION_END's is its time's (a session ending below it
    is final: compiler/semantic/sessions.py); the others have none."""
    if call["function"] == "session_close":
        return lower_expr(call["args"][0]).cast(spark_type(call["type"]))
    return null


def _window_join_line(
    spark: SparkSession,
    rel: Mapping[str, Any],
    relations: Mapping[str, DataFrame],
    nulls: list[Any],
) -> DataFrame:
    """Only the output rowtime (the last column) has a waterline. From the clocks alone
    (not the kept rows, which the join itself uses to emit): a kept left row a matters
    while c_r <= a + max(F_r, P_l), and every output row it can still give is at or after
    a, so min(c_r - max(F_r, P_l), c_l - max(F_l, P_r)) is below every future row."""
    clocks = []
    for side, other in (("left", "right"), ("right", "left")):
        line = rel_waterline(spark, rel[other], relations)
        clock = F.col(positional(int(rel[f"{other}_time"])))
        reach = max(
            int(rel[f"{other}_window"]["following"]), int(rel[f"{side}_window"]["preceding"])
        )
        clocks.append(line.select((clock - F.lit(dt.timedelta(microseconds=reach))).alias(side)))
    both = clocks[0].crossJoin(clocks[1])
    lowest = F.when(
        F.col("left").isNotNull() & F.col("right").isNotNull(), F.least("left", "right")
    )
    values = [*nulls[:-1], lowest]
    return both.select(*(v.alias(positional(i)) for i, v in enumerate(values)))
