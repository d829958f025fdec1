"""Plan nodes as incremental rules: a node's changes in a step from its inputs' changes.

Linear nodes (scan, filter, project, union, hop) apply to the changes directly.
Stateful nodes (aggregate, distinct, join) read what their inputs held after the
previous step (stored, integrated multisets) and register their inputs' changes to
be added to that state once the step's single Spark job has run. Every rule is
exact under deletes: weights are +1/-1 multiplicities, never "insert only".
"""

from __future__ import annotations

import datetime as dt
import decimal
import json
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pyarrow as pa
from pyspark.sql import Column, DataFrame, SparkSession, Window
from pyspark.sql import functions as F
from pyspark.sql import types as T
from pyspark.sql.classic.dataframe import DataFrame as ClassicDataFrame

# The JVM's lag and lead take an ignoreNulls argument that PySpark's do not pass on.
from pyspark.sql.functions.builtin import _invoke_function
from pyspark.sql.window import WindowSpec

from worker.runner import byte_strings
from worker.runner.lower import (
    INTEGRAL,
    WEIGHT,
    LoweringError,
    lower_expr,
    lower_rel,
    positional,
    spark_type,
    toward_zero,
)
from worker.runner.rows import array_element, is_map, is_row, map_entries, row_fields
from worker.runner.state import as_multiset

if TYPE_CHECKING:
    from worker.runner.temporal import History

RIGHT_WEIGHT = "__weight_r"
AS_STRING = ("DECIMAL", "DATE", "TIMESTAMP", "TIME", "INTERVAL")
PARSED_AS_STRING = ("DECIMAL", "DATE", "TIMESTAMP", "TIME", "INTERVAL", "NULL")
LINEAR = frozenset({"scan", "filter", "project"})
STATISTICS = frozenset({"stddev_samp", "stddev_pop", "var_samp", "var_pop"})
PERCENTILES = frozenset({"percentile_cont", "percentile_disc"})
# Of the pairs (y, x) where neither is NULL (backend/compiler/semantic/aggregates.py).
PAIR_STATISTICS: dict[str, Callable[[Column, Column], Column]] = {
    "covar_pop": F.covar_pop,
    "covar_samp": F.covar_samp,
    "regr_count": F.regr_count,
    "regr_sxx": F.regr_sxx,
    "regr_syy": F.regr_syy,
}
AGGREGATE_FUNCTIONS = frozenset(
    {"count_star", "count", "sum", "avg", "min", "max", "bool_and", "bool_or", *STATISTICS}
    | {"arg_max", "arg_min", "bit_and", "bit_or", "bit_xor", "string_agg", "array_agg"}
    | {*PERCENTILES}
    | {*PAIR_STATISTICS, "mode"}
)


def names(width: int, offset: int = 0) -> list[str]:
    return [positional(offset + i) for i in range(width)]


def stored_type(sql_type: str) -> T.DataType:
    """The type of a value in a stored row's JSON: text for decimals and times (exact),
    ROW values field by field, ARRAY values element by element, MAP values as entries."""
    if is_map(sql_type):
        return stored_type(map_entries(sql_type))
    element = array_element(sql_type)
    if element is not None:
        return T.ArrayType(stored_type(element))
    if sql_type.startswith(PARSED_AS_STRING):
        return T.StringType()
    if is_row(sql_type):
        fields = row_fields(sql_type)
        return T.StructType(
            [T.StructField(positional(i), stored_type(t)) for i, (_, t) in enumerate(fields)]
        )
    return spark_type(sql_type)


def row_json(df: DataFrame, types: Sequence[str], offset: int = 0) -> Column:
    """The canonical JSON text of a row (the identity of a row in stored state)."""
    fields = []
    for i, sql_type in enumerate(types):
        value = F.col(positional(offset + i))
        kept_apart = is_row(sql_type) or is_map(sql_type) or array_element(sql_type)
        if sql_type.startswith(AS_STRING) or kept_apart:
            value = value.cast(stored_type(sql_type))
        fields.append(value.alias(positional(i)))
    if not fields:
        return F.lit("{}")
    return F.to_json(F.struct(*fields), {"ignoreNullFields": "false"})


LITERAL_ROWS = 500  # up to this many rows go into the plan as one literal


def one_row(spark: SparkSession) -> DataFrame:
    """A DataFrame of one row in one partition (spark.range(1) makes as many partitions
    as the session's parallelism: empty ones are tasks too, in every stage above)."""
    return spark.range(0, 1, 1, 1)


def literal_rows(spark: SparkSession, rows: Sequence[Mapping[str, Any]], schema: str) -> DataFrame:
    """Driver-side rows as a DataFrame the JVM reads from one literal.

    spark.createDataFrame(list) is a Python RDD: every scan of it, in every task,
    goes through a Python worker, which made a step's job several times slower.
    """
    rows = list(rows)
    if len(rows) > LITERAL_ROWS:
        text = pa.table({"r": pa.array([json.dumps(row) for row in rows], pa.string())})
        parsed = _checkpointed(spark, text).select(F.from_json("r", f"struct<{schema}>").alias("i"))
        return parsed.select("i.*")
    text = F.lit(json.dumps(rows))
    items = F.explode(F.from_json(text, f"array<struct<{schema}>>")).alias("item")
    return one_row(spark).select(items).select("item.*")


def materialised(rows: DataFrame) -> DataFrame:
    """`rows` computed once, into Spark's block manager, as one partition like every
    source of a step (engine.py): what reads them reads the blocks."""
    return rows.coalesce(1).localCheckpoint(eager=True)


def _checkpointed(spark: SparkSession, table: pa.Table) -> DataFrame:
    """Many driver-side rows, shipped once into Spark's block manager: as a literal they
    would make a plan of megabytes, sent with every task. Spark reads them from Arrow
    (no Python worker)."""
    return materialised(spark.createDataFrame(table))


def typed_rows(spark: SparkSession, table: pa.Table | None, types: Sequence[str]) -> DataFrame:
    """A stored multiset (state.py) back as a weighted DataFrame c0..cN, WEIGHT."""
    if table is not None and table.num_rows > LITERAL_ROWS:
        raw = _checkpointed(spark, table.rename_columns(["row", "w"]))
    else:
        items = [] if table is None else as_multiset(table).items()
        raw = literal_rows(spark, [{"row": r, "w": w} for r, w in items], "row:string,w:bigint")
    schema = T.StructType(
        [T.StructField(positional(i), stored_type(t)) for i, t in enumerate(types)]
    )
    parsed = raw.select(F.from_json("row", schema).alias("r"), F.col("w").alias(WEIGHT))
    return parsed.select(
        *(
            # A column of type NULL (`SELECT NULL`) holds only NULL: no text casts to it.
            (F.lit(None) if t == "NULL" else F.col("r").getField(positional(i)))
            .cast(spark_type(t))
            .alias(positional(i))
            for i, t in enumerate(types)
        ),
        WEIGHT,
    )


def consolidate(df: DataFrame, columns: Sequence[str], weight: str = WEIGHT) -> DataFrame:
    summed = df.groupBy(*columns).agg(F.sum(weight).alias(weight))
    return summed.where(F.col(weight) != 0)


def present(df: DataFrame, columns: Sequence[str], weight: str = WEIGHT) -> DataFrame:
    """Rows that are there (positive multiplicity) after consolidation."""
    return consolidate(df, columns, weight).where(F.col(weight) > 0)


def same_rows(left: DataFrame, right: DataFrame, columns: Sequence[str], prefix: str) -> Column:
    """A null-safe equality of `columns` between `left` and a copy renamed with `prefix`."""
    condition = F.lit(True)
    for name in columns:
        condition = condition & left[name].eqNullSafe(right[prefix + name])
    return condition


def semi(df: DataFrame, keys: DataFrame, columns: Sequence[str]) -> DataFrame:
    """Rows of `df` whose `columns` equal (null-safe) some row of `keys`."""
    renamed = keys.select(*(F.col(c).alias("k_" + c) for c in columns))
    return df.join(renamed, same_rows(df, renamed, columns, "k_"), "left_semi")


def unioned(frames: Sequence[DataFrame]) -> DataFrame:
    """The rows of every frame (by column name), in one partition.

    Every source of a step is one partition (engine.py), and so is what a join or an
    aggregate makes of them; a union's partitions are its inputs' together, which
    would make each join or aggregate above it shuffle (a stage each: a 45-view
    step ran in some 100 stages, 2 to 4 times slower). Coalescing them is no shuffle."""
    return _union_node(frames).coalesce(1)


def _union_node(frames: Sequence[DataFrame]) -> DataFrame:
    """One Union of all the frames, by column name, analysed once.

    PySpark unions two frames at a time, and each union is analysed as a whole when it
    is made: a left fold of n frames analyses the first ones n times, and even halving
    analysed each about log2(n) times (a 20-view step's records: 0.9 s by a fold, 0.5 s
    by halving). The JVM's Union node takes them all at once."""
    if len(frames) == 1:
        return frames[0]
    spark = frames[0].sparkSession
    jvm = spark._jvm
    assert jvm is not None
    plans = jvm.java.util.ArrayList()
    for frame in frames:
        plans.add(frame._jdf.logicalPlan())
    children = jvm.scala.jdk.javaapi.CollectionConverters.asScala(plans).toSeq()
    union = jvm.org.apache.spark.sql.catalyst.plans.logical.Union(children, True, False)
    return ClassicDataFrame(
        jvm.org.apache.spark.sql.classic.Dataset.ofRows(spark._jsparkSession, union), spark
    )


def negated(df: DataFrame, weight: str = WEIGHT) -> DataFrame:
    return df.withColumn(weight, -F.col(weight))


def shifted(df: DataFrame, width: int, offset: int) -> DataFrame:
    """Columns c0.. renamed c{offset}.., the weight renamed RIGHT_WEIGHT (a join's right side)."""
    return df.select(
        *(F.col(positional(i)).alias(positional(offset + i)) for i in range(width)),
        F.col(WEIGHT).alias(RIGHT_WEIGHT),
    )


def plan_nodes(rel: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
    """`rel` and the plan nodes under it (not expressions).

    >>> scan = {"op": "scan", "relation": "t"}
    >>> [n["op"] for n in plan_nodes({"op": "join", "left": scan, "right": scan})]
    ['join', 'scan', 'scan']
    """
    yield rel
    for value in rel.values():
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, Mapping) and "op" in item:
                yield from plan_nodes(item)


def types_of(columns: Sequence[Mapping[str, Any]]) -> list[str]:
    return [c["type"] for c in columns]


@dataclass
class StateDelta:
    key: str
    changes: DataFrame
    types: list[str]


@dataclass
class Lowering:
    """What one step's lowering reads (changes, stored state) and what it must save."""

    spark: SparkSession
    changes: dict[str, DataFrame]
    stored_state: Mapping[str, pa.Table]
    first_step: bool
    saves: list[StateDelta] = field(default_factory=list)
    # Each input's accepted changes of the step before keys apply (temporal.py).
    history: dict[str, History] = field(default_factory=dict)
    # Time maxima after the step, "relation.column" -> one row, column "value" (text):
    # a stream's clock, rowtime bounds included (window_join.py).
    clocks: dict[str, DataFrame] = field(default_factory=dict)
    # The program's views: their changes are whole plans of their own (see `shared`).
    views: frozenset[str] = frozenset()
    # Changes known to be empty without running anything (`empty`), by id(); held here
    # so that no id is reused while the step is lowered.
    nothing: dict[int, DataFrame] = field(default_factory=dict)
    # Changes `shared` has materialised, by id(): (the changes, their materialised copy),
    # so that the readers of one view's changes share one copy.
    materialised: dict[int, tuple[DataFrame, DataFrame]] = field(default_factory=dict)

    def stored(self, key: str, types: Sequence[str]) -> DataFrame:
        return typed_rows(self.spark, self.stored_state.get(key), types)

    def save(self, key: str, changes: DataFrame, types: Sequence[str]) -> None:
        if not self.is_empty(changes):  # no changes leave the state as it is
            self.saves.append(StateDelta(key, changes, list(types)))

    def empty(self, types: Sequence[str]) -> DataFrame:
        """No changes: the rules leave out what would only join or add nothing to it
        (an input without changes this step, an untouched view)."""
        none = typed_rows(self.spark, None, types)
        self.nothing[id(none)] = none
        return none

    def is_empty(self, changes: DataFrame) -> bool:
        return self.nothing.get(id(changes)) is changes

    def shared(self, rel: Mapping[str, Any], changes: DataFrame) -> DataFrame:
        """The changes of plan node `rel`, to be read several times in one rule (a
        join reads each input's changes five to seven times): materialised once in
        Spark's block manager when they come out of a stateful node or a view.

        Spark copies a DataFrame's plan into each place that reads it, so left joins
        over left joins would copy their first input's plan some 6^k times (a
        correlated scalar subquery is a left join: three in one query took 30 s a
        step, and four ran the driver out of heap). A table's changes, filtered or
        projected, are read as they are."""
        if self.is_empty(changes) or all(
            node.get("op") in LINEAR and node.get("relation") not in self.views
            for node in plan_nodes(rel)
        ):
            return changes
        if id(changes) not in self.materialised:
            copy = materialised(changes)
            self.materialised[id(changes)] = (changes, copy)
        return self.materialised[id(changes)][1]

    def shared_changes(self, rel: Mapping[str, Any], key: str) -> DataFrame:
        """The changes of plan node `rel` (`key` its state's), `shared`: how a stateful
        node reads an input. It reads it several times, its state saves it too, and so
        would copy its plan into each place (k such nodes over one another, 2^k to
        4^k copies: nested subqueries over joins took minutes a step)."""
        return self.shared(rel, self.rel(rel, key))

    def rel(self, rel: Mapping[str, Any], key: str) -> DataFrame:
        """The changes of plan node `rel` in this step; `key` names its state."""
        op = rel["op"]
        if op in LINEAR:
            if op == "scan":
                return self.changes[rel["relation"]]
            child = self.rel(rel["input"], key + ".i")
            if self.is_empty(child):
                return self.empty(types_of(rel["columns"]))
            return lower_rel(
                {**rel, "input": {"op": "scan", "relation": "__child"}}, {"__child": child}
            )
        rule = RULES.get(op)
        if rule is None:
            raise LoweringError(f"unknown plan node {op!r}")
        return rule(self, rel, key)


def evaluate(
    spark: SparkSession,
    rel: Mapping[str, Any],
    contents: Mapping[str, DataFrame],
    views: frozenset[str] = frozenset(),
) -> DataFrame:
    """A plan node over whole relations (`contents`, by name): their rows as one first
    step, from empty state, which gives the batch answer. `views`: as `Lowering.views`."""
    return Lowering(spark, dict(contents), {}, True, views=views).rel(rel, "__query")


def side_state(key: str, side: str) -> str:
    """The state key of the rows a two-sided node (a join, INTERSECT / EXCEPT) stores of
    one side. It is not `key.side`, the key that side's input is lowered with: an input
    with state of its own (a DISTINCT or GROUP BY subquery, joined as it is) keeps that
    state under `key.side`, and the two would be added up as one multiset."""
    return f"{key}.{side}#rows"


def _union(ctx: Lowering, rel: Mapping[str, Any], key: str) -> DataFrame:
    columns = rel["columns"]
    parts = [ctx.rel(child, f"{key}.u{index}") for index, child in enumerate(rel["inputs"])]
    changed = [cast_columns(part, columns) for part in parts if not ctx.is_empty(part)]
    return unioned(changed) if changed else ctx.empty(types_of(columns))


def _values(ctx: Lowering, rel: Mapping[str, Any], key: str) -> DataFrame:
    columns = rel["columns"]
    # Constant rows: the whole content arrives in the first step and never changes.
    if not ctx.first_step or not rel["rows"]:
        return ctx.empty(types_of(columns))
    rows = [
        one_row(ctx.spark).select(
            *(
                lower_expr(e).cast(spark_type(c["type"])).alias(positional(i))
                for i, (e, c) in enumerate(zip(row, columns, strict=True))
            ),
            F.lit(1).alias(WEIGHT),
        )
        for row in rel["rows"]
    ]
    return unioned(rows)


def _hop(ctx: Lowering, rel: Mapping[str, Any], key: str) -> DataFrame:
    child = ctx.rel(rel["input"], key + ".i")
    width = len(rel["input"]["columns"])
    size, slide = int(rel["size"]), int(rel["slide"])
    micros = F.unix_micros(F.col(positional(rel["time"])).cast("timestamp"))
    windows = math.ceil(size / slide)
    base = micros - F.pmod(micros - F.lit(int(rel.get("offset", 0))), F.lit(slide))
    exploded = child.withColumn("__t", micros).withColumn(
        "__start", F.explode(F.sequence(F.lit(0), F.lit(windows - 1)))
    )
    # In BIGINT: `sequence` counts in INT, and k * slide passes 2^31 microseconds (36 minutes).
    exploded = exploded.withColumn("__start", base - F.col("__start").cast("long") * F.lit(slide))
    inside = exploded.where(F.col("__start") + F.lit(size) > F.col("__t"))
    start = F.timestamp_micros(F.col("__start")).cast(T.TimestampNTZType())
    return inside.select(
        *names(width),
        start.alias(positional(width)),
        (start + F.lit(dt.timedelta(microseconds=size))).alias(positional(width + 1)),
        WEIGHT,
    )


def _unnest(ctx: Lowering, rel: Mapping[str, Any], key: str) -> DataFrame:
    """Each changed row once per element of its array (a NULL or empty one: none), with
    the element (a MAP's entry: its key and value; a ROW: its fields) and, WITH
    ORDINALITY, its place from 1: a row's elements come and go with it, so the changes
    are the unnested changes."""
    child = ctx.rel(rel["input"], key + ".i")
    width = len(rel["input"]["columns"])
    explode = F.posexplode_outer if rel.get("outer") else F.posexplode
    exploded = child.select(
        *names(width), WEIGHT, explode(lower_expr(rel["array"])).alias("__place", "__e")
    )
    element = F.col("__e")
    array_type = rel["array"]["type"]
    element_type = array_element(array_type)
    if is_map(array_type):
        made = [element.c0, element.c1]
    elif element_type is not None and is_row(element_type):  # an array of ROWs: the fields
        made = [element.getField(positional(i)) for i in range(len(row_fields(element_type)))]
    else:
        made = [element]
    if rel["ordinality"]:
        made.append((F.col("__place") + 1).cast("int"))
    return exploded.select(
        *names(width),
        *(column.alias(positional(width + i)) for i, column in enumerate(made)),
        WEIGHT,
    )


def _distinct(ctx: Lowering, rel: Mapping[str, Any], key: str) -> DataFrame:
    child = ctx.shared_changes(rel["input"], key + ".i")
    types = types_of(rel["columns"])
    if ctx.is_empty(child):
        return ctx.empty(types)
    columns = names(len(types))
    old = ctx.stored(key, types)
    ctx.save(key, child, types)
    change = consolidate(child, columns)
    previous = old.select(*(F.col(c).alias("o_" + c) for c in columns), F.col(WEIGHT).alias("__o"))
    joined = change.join(previous, same_rows(change, previous, columns, "o_"), "left")
    before = F.coalesce(F.col("__o"), F.lit(0))
    after = before + F.col(WEIGHT)
    weight = F.when(after > 0, 1).otherwise(0) - F.when(before > 0, 1).otherwise(0)
    return joined.select(*columns, weight.alias(WEIGHT)).where(F.col(WEIGHT) != 0)


def _aggregate(ctx: Lowering, rel: Mapping[str, Any], key: str) -> DataFrame:
    child = ctx.shared_changes(rel["input"], key + ".i")
    if ctx.is_empty(child) and not ctx.first_step:  # (a global aggregate's first row)
        return ctx.empty(types_of(rel["columns"]))
    keys, aggregates = rel["keys"], rel["aggregates"]
    inputs = list(keys) + [arg for a in aggregates for arg in _aggregate_inputs(a)]
    types = [e["type"] for e in inputs]
    columns = names(len(types))
    key_columns = columns[: len(keys)]
    change = child.select(
        *(lower_expr(e).alias(positional(i)) for i, e in enumerate(inputs)), WEIGHT
    )
    old = ctx.stored(key, types)
    ctx.save(key, change, types)
    if keys:
        # Only the groups this step touches are recomputed, from their stored input rows:
        # exact for MIN/MAX when the current extreme is deleted.
        affected = change.select(*key_columns).distinct()
        before = semi(old, affected, key_columns)
    else:
        before = old
    after = present(unioned([before, change]), columns)
    new_rows = _aggregated(after, rel, len(keys))
    if not keys and ctx.first_step:
        return new_rows  # a global aggregate has one row, from the first step on
    return unioned([new_rows, negated(_aggregated(before, rel, len(keys)))])


def _aggregate_inputs(agg: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The expressions an aggregate reads of each row: its arguments, then its order's
    keys (STRING_AGG ... ORDER BY)."""
    return [*agg["args"], *(key["expr"] for key in agg.get("order", []))]


def _aggregated(rows: DataFrame, rel: Mapping[str, Any], key_count: int) -> DataFrame:
    """The aggregate of a weighted multiset (weights are positive multiplicities)."""
    if any(agg["function"] == "mode" for agg in rel["aggregates"]):
        rows = _one_per_copy(rows)  # MODE counts rows: Spark's has no weights
    weight = F.col(WEIGHT)
    outputs = []
    arg_index = key_count
    width = key_count + sum(len(_aggregate_inputs(agg)) for agg in rel["aggregates"])
    for agg in rel["aggregates"]:
        function = agg["function"]
        value: Column
        if function == "count_star":
            value = F.coalesce(F.sum(weight), F.lit(0))
        elif function in ARG_EXTREMES:  # (value, compared[, FILTER's condition])
            args = [F.col(positional(arg_index + i)) for i in range(len(agg["args"]))]
            arg_index += len(args)
            value = ARG_EXTREMES[function](*args)
        elif function == "string_agg":  # (value, separator): a literal, stored as it is
            x = F.col(positional(arg_index))
            order = agg.get("order", [])
            keys = [F.col(positional(arg_index + 2 + i)) for i in range(len(order))]
            arg_index += 2 + len(order)
            separator = str(agg["args"][1]["value"])
            value = _string_agg(
                x, weight, separator, agg["distinct"], list(zip(keys, order, strict=True))
            )
        elif function == "array_agg":  # (x, keep_nulls[, FILTER's condition]), order keys
            count = len(agg["args"])
            x = F.col(positional(arg_index))
            take = None if count < 3 else F.coalesce(F.col(positional(arg_index + 2)), F.lit(False))
            if not agg["args"][1]["value"]:  # IGNORE NULLS
                take = x.isNotNull() if take is None else take & x.isNotNull()
            order = agg.get("order", [])
            keys = [F.col(positional(arg_index + count + i)) for i in range(len(order))]
            arg_index += count + len(order)
            row_values = [F.col(c) for c in names(width)[key_count:]]
            value = _array_agg(
                x, weight, agg["distinct"], list(zip(keys, order, strict=True)), row_values, take
            )
        elif function in PAIR_STATISTICS:  # (y, x)
            y, x = F.col(positional(arg_index)), F.col(positional(arg_index + 1))
            arg_index += 2
            value = _pair_statistic(function, y, x, weight)
        elif function == "count" and len(agg["args"]) > 1:  # COUNT(DISTINCT a, b, ...)
            columns = [F.col(positional(arg_index + i)) for i in range(len(agg["args"]))]
            arg_index += len(columns)
            value = F.count_distinct(*columns)  # the tuples where none is NULL
        elif function == "mode":  # of the rows one per copy (_one_per_copy)
            value = F.mode(F.col(positional(arg_index)), deterministic=True)
            arg_index += 1
        elif function in PERCENTILES:  # (x, fraction, descending)
            x = F.col(positional(arg_index))
            arg_index += 3
            fraction = decimal.Decimal(str(agg["args"][1]["value"]))
            value = _percentile(function, x, weight, fraction, agg["args"][2]["value"])
        else:
            x = F.col(positional(arg_index))
            arg_index += 1
            present_weight = F.when(x.isNotNull(), weight).otherwise(F.lit(0))
            of_type = agg["args"][0]["type"] if agg["args"] else None
            if of_type == "VARBINARY" and function in byte_strings.BITWISE:
                value = byte_strings.bit_aggregate(function, x, weight, agg["distinct"])
            else:
                integral = of_type in INTEGRAL
                value = _aggregate_function(
                    function, x, weight, present_weight, agg["distinct"], integral
                )
        outputs.append(_in_type(value, function, agg["type"]))
    grouped = rows.groupBy(*names(key_count)) if key_count else rows.groupBy()
    aliased = [v.alias(f"__a{i}") for i, v in enumerate(outputs)]
    result = grouped.agg(*aliased) if aliased else grouped.count().drop("count")
    return result.select(
        *names(key_count),
        *(F.col(f"__a{i}").alias(positional(key_count + i)) for i in range(len(outputs))),
        F.lit(1).alias(WEIGHT),
    )


def _string_agg(
    x: Column,
    weight: Column,
    separator: str,
    distinct: bool,
    order: list[tuple[Column, Mapping[str, Any]]],
) -> Column:
    """STRING_AGG: the values that are not NULL, each as many times as its rows hold it
    (once for DISTINCT), joined by `separator`: in the order of the `order` keys (each
    with its plan sort key), then of their text."""
    last = {"descending": False, "nulls_first": False}
    values = _ordered_values(x, weight, distinct, order, last)
    return F.when(F.count(x) > 0, F.array_join(values, separator))  # array_join skips NULLs


def _array_agg(
    x: Column,
    weight: Column,
    distinct: bool,
    order: list[tuple[Column, Mapping[str, Any]]],
    row_values: list[Column],
    condition: Column | None,
) -> Column:
    """ARRAY_AGG: the values of x of the rows `condition` keeps, each as many times as
    its rows hold it (once for DISTINCT), in the order of the `order` keys, then of
    `row_values` (the values the aggregate reads of each row, NULL first: Feldera's
    order); NULL when no row is left."""
    first = {"descending": False, "nulls_first": True}
    ties = [] if distinct else [(value, first) for value in row_values]
    values = _ordered_values(x, weight, distinct, [*order, *ties], first, condition)
    return F.when(F.size(values) > 0, values)


def _ordered_values(
    x: Column,
    weight: Column,
    distinct: bool,
    order: list[tuple[Column, Mapping[str, Any]]],
    value_order: Mapping[str, Any],
    condition: Column | None = None,
) -> Column:
    """The values of x of a group's rows (those `condition` keeps) as an array: each as
    many times as its rows hold it, or once for DISTINCT; sorted by the `order` keys
    (each with its plan sort key), then by the value as `value_order` says."""
    item = F.struct(*(key.alias(f"k{i}") for i, (key, _) in enumerate(order)), x.alias("v"))
    if distinct:
        items = F.collect_set(item if condition is None else F.when(condition, item))
    else:
        copies = F.array_repeat(item, weight.cast("int"))
        items = F.flatten(
            F.collect_list(copies if condition is None else F.when(condition, copies))
        )
    sort_keys = [(f"k{i}", key) for i, (_, key) in enumerate(order)]
    sort_keys.append(("v", value_order))
    ordered = F.array_sort(items, lambda a, b: _compared(a, b, sort_keys))
    return F.transform(ordered, lambda i: i.getField("v"))


def _percentile(
    function: str, x: Column, weight: Column, fraction: decimal.Decimal, descending: bool
) -> Column:
    """PERCENTILE_CONT / PERCENTILE_DISC of the values of x that are not NULL, each as
    many times as its rows hold it, in ascending or descending order."""
    if function == "percentile_cont":  # interpolated: at 1 - p of the reversed order
        at = 1 - fraction if descending else fraction
        return F.percentile(x, F.lit(float(at)), weight)
    copies = F.flatten(F.collect_list(F.when(x.isNotNull(), F.array_repeat(x, weight.cast("int")))))
    values = F.array_sort(copies)
    n = F.size(values)
    # The first value whose cumulative share reaches p: place ceil(p n), at least 1 (p
    # exact as a decimal, so that 0.7 of 10 is the 7th).
    place = F.greatest(F.ceil(F.lit(fraction) * n), F.lit(1)).cast("int")
    return F.when(n > 0, F.element_at(values, n - place + 1 if descending else place))


def _compared(a: Column, b: Column, keys: list[tuple[str, Mapping[str, Any]]]) -> Column:
    """-1, 0 or 1 as struct `a` sorts before, with or after `b` by the fields `keys`
    name, each as its plan sort key orders it (direction, NULLs' place): the first key
    that tells them apart decides. Each key's comparison appears once, so the
    expression grows with the keys, not with 2 to their number."""
    differences = []
    for name, key in keys:
        x, y = a.getField(name), b.getField(name)
        before = F.lit(-1 if not key["descending"] else 1)
        nulls = F.lit(-1 if key["nulls_first"] else 1)
        compared = (
            F.when(x.isNull() & y.isNull(), F.lit(None))
            .when(x.isNull(), nulls)
            .when(y.isNull(), -nulls)
            .when(x < y, before)
            .when(x > y, -before)
        )
        differences.append(compared)  # NULL where the key does not tell them apart
    return F.coalesce(*differences, F.lit(0))


def _arg_extreme(pick: Callable[[Column, Column], Column], largest: bool) -> Callable[..., Column]:
    """ARG_MAX / ARG_MIN (`pick`: max_by / min_by; `largest`: ARG_MAX): a row with a NULL
    `compared` counts only where no row has one that is not NULL; of rows equal in
    `compared` (or all NULL) the largest / smallest value wins, NULL the smallest
    (backend/compiler/semantic/aggregates.py). A FILTER's condition, when there is one,
    leaves out the rows where it is not TRUE."""

    def extreme(value: Column, compared: Column, condition: Column | None = None) -> Column:
        # The flag puts a row with a NULL `compared` behind every other: below them for
        # max_by, above them for min_by.
        flag = compared.isNotNull() if largest else compared.isNull()
        key = F.struct(flag, compared, value)
        return pick(value, key if condition is None else F.when(condition, key))

    return extreme


ARG_EXTREMES = {
    "arg_max": _arg_extreme(F.max_by, largest=True),
    "arg_min": _arg_extreme(F.min_by, largest=False),
}


def _aggregate_function(
    function: str,
    x: Column,
    weight: Column,
    present_weight: Column,
    distinct: bool,
    integral: bool = False,  # x is an integer (the statistics: `_statistic`)
) -> Column:
    if function in ("min", "bool_and"):  # FALSE < TRUE
        return F.min(x)
    if function in ("max", "bool_or"):
        return F.max(x)
    if function == "bit_and":  # a value's repeats change neither
        return F.bit_and(x)
    if function == "bit_or":
        return F.bit_or(x)
    if distinct and function == "bit_xor":  # of the distinct values, each once
        values = F.collect_set(x)
        xor = F.aggregate(values, F.lit(0).cast("long"), lambda acc, v: acc.bitwiseXOR(v))
        return F.when(F.size(values) > 0, xor)
    if distinct and function in STATISTICS:  # over the distinct values, each once
        values = F.collect_set(x.cast("double"))
        total = F.aggregate(values, F.lit(0.0), lambda acc, v: acc + v)
        squares = F.aggregate(values, F.lit(0.0), lambda acc, v: acc + v * v)
        return _statistic(function, total, squares, F.size(values), integral)
    if distinct:
        distinct_functions: dict[str, Callable[[Column], Column]] = {
            "count": F.count_distinct,
            "sum": F.sum_distinct,
            "avg": lambda c: F.sum_distinct(c) / F.count_distinct(c),
        }
        return distinct_functions[function](x)
    count = F.coalesce(F.sum(present_weight), F.lit(0))
    if function == "count":
        return count
    if function == "bit_xor":  # a value held an even number of times cancels out
        odd = F.bit_xor(F.when(weight % 2 == 1, x))
        return F.when(count > 0, F.coalesce(odd, F.lit(0)))
    total = F.sum(F.when(x.isNotNull(), x * weight))
    if function == "sum":
        return F.when(count > 0, total)
    if function == "avg":
        return F.when(count > 0, total / count)
    if function in STATISTICS:
        x = x.cast("double")
        squares = F.sum(F.when(x.isNotNull(), x * x * weight))
        total = F.sum(F.when(x.isNotNull(), x * weight))
        return _statistic(function, total, squares, count, integral)
    raise LoweringError(f"unknown aggregate function {function!r}")


def _in_type(value: Column, function: str, sql_type: str) -> Column:
    """An aggregate's value in its plan type. AVG and the statistics have their
    argument's type: an integer or DECIMAL one is cut toward zero, as Feldera does
    (a cast to an integer cuts; Spark's cast to a DECIMAL rounds half up)."""
    target = spark_type(sql_type)
    if function in ("avg", *STATISTICS, *PAIR_STATISTICS) and isinstance(target, T.DecimalType):
        value = toward_zero(value, target.scale)
    return value.cast(target)


def _statistic(
    function: str, total: Column, squares: Column, count: Column, integral: bool = False
) -> Column:
    """A variance or standard deviation of `count` values (NULLs left out) of sum `total`
    and sum of squares `squares`: the sum of squared deviations is squares - total^2 / n.
    Of `integral` values, both divisions are whole (cut), as Calcite reduces these
    aggregates in the argument's type and Feldera computes them: STDDEV_SAMP of the
    INTEGERs 1 and 2 is 1 (the variance (5 - 9 / 2) / 1 = 1), not 0.707 cut to 0."""
    cut: Callable[[Column], Column] = F.floor if integral else (lambda value: value)
    deviations = F.greatest(squares - cut(total * total / count), F.lit(0.0))
    population = function.endswith("_pop")
    variance = cut(deviations / (count if population else count - 1))
    value = F.sqrt(variance) if function.startswith("stddev") else variance
    return F.when(count > (0 if population else 1), value)


def _pair_statistic(function: str, y: Column, x: Column, weight: Column) -> Column:
    """COVAR_POP, COVAR_SAMP, REGR_COUNT, REGR_SXX or REGR_SYY of the weighted pairs
    (y, x) where neither is NULL, from their sums (as `_statistic`)."""
    paired = y.isNotNull() & x.isNotNull()
    count = F.coalesce(F.sum(F.when(paired, weight)), F.lit(0))
    if function == "regr_count":
        return count
    y, x = y.cast("double"), x.cast("double")

    def total(value: Column) -> Column:
        return F.sum(F.when(paired, value * weight))

    if function == "covar_pop" or function == "covar_samp":
        products = total(y * x) - total(y) * total(x) / count
        population = function == "covar_pop"
        return F.when(
            count > (0 if population else 1), products / (count if population else count - 1)
        )
    value = y if function == "regr_syy" else x
    squares = total(value * value) - total(value) * total(value) / count
    return F.when(count > 0, F.greatest(squares, F.lit(0.0)))


def _join(ctx: Lowering, rel: Mapping[str, Any], key: str) -> DataFrame:
    kind = rel["kind"]
    left_types = types_of(rel["left"]["columns"])
    right_types = types_of(rel["right"]["columns"])
    nl, nr = len(left_types), len(right_types)
    left_names, right_names = names(nl), names(nr, nl)
    d_left = ctx.shared_changes(rel["left"], key + ".l")
    d_right_plain = ctx.shared_changes(rel["right"], key + ".r")
    # ΔL ⋈ R + L ⋈ ΔR + ΔL ⋈ ΔR, without the terms of a side with no changes (an inner
    # join then reads only the other side's stored rows).
    left_changed, right_changed = not ctx.is_empty(d_left), not ctx.is_empty(d_right_plain)
    outer = kind != "inner"
    old_left = old_right = None
    if right_changed or outer:
        old_left = ctx.stored(side_state(key, "l"), left_types)
    if left_changed or outer:
        old_right = shifted(ctx.stored(side_state(key, "r"), right_types), nr, nl)
    ctx.save(side_state(key, "l"), d_left, left_types)
    ctx.save(side_state(key, "r"), d_right_plain, right_types)
    d_right = shifted(d_right_plain, nr, nl)
    condition = join_condition(rel)

    def inner(a: DataFrame, b: DataFrame) -> DataFrame:
        joined = a.join(b, condition, "inner")
        weight = (F.col(WEIGHT) * F.col(RIGHT_WEIGHT)).alias(WEIGHT)
        return joined.select(*left_names, *right_names, weight)

    terms = []
    if old_right is not None and left_changed:
        terms.append(inner(d_left, old_right))
    if old_left is not None and right_changed:
        terms.append(inner(old_left, d_right))
    if left_changed and right_changed:
        terms.append(inner(d_left, d_right))
    result = unioned(terms) if terms else ctx.empty(types_of(rel["columns"]))
    if outer:
        assert old_left is not None and old_right is not None
        new_left = present(unioned([old_left, d_left]), left_names)
        new_right = present(unioned([old_right, d_right]), right_names, RIGHT_WEIGHT)
    if kind in ("left", "full"):
        unmatched = _unmatched(
            (new_left, old_left, d_left), (new_right, old_right, d_right), left_names, condition
        )
        result = unioned(
            [result, unmatched.select(*left_names, *_nulls(right_types, right_names), WEIGHT)]
        )
    if kind in ("right", "full"):
        unmatched = _unmatched(
            (new_right, old_right, d_right), (new_left, old_left, d_left), right_names, condition
        )
        result = unioned(
            [
                result,
                unmatched.select(
                    *_nulls(left_types, left_names), *right_names, F.col(RIGHT_WEIGHT).alias(WEIGHT)
                ),
            ]
        )
    return result


def join_condition(rel: Mapping[str, Any]) -> Column:
    """A join node's condition (TRUE when it has none: a cross join).

    A NULL condition matches nothing, as in SQL (Spark's joins do the same). Left bare,
    its equalities are join keys to Spark: a hash or merge join, not a nested loop."""
    return F.lit(True) if rel["condition"] is None else lower_expr(rel["condition"])


def _nulls(types: Sequence[str], columns: Sequence[str]) -> list[Column]:
    """The NULL columns that extend an unmatched row of the other join side."""
    return [F.lit(None).cast(spark_type(t)).alias(n) for t, n in zip(types, columns, strict=True)]


JoinSide = tuple[DataFrame, DataFrame, DataFrame]  # (new, old, change) of one join input


def _unmatched(side: JoinSide, other: JoinSide, columns: list[str], condition: Column) -> DataFrame:
    """The change of the rows of one join side that match nothing on the other side.

    A row's null-extended row can change only if the row itself changed or a
    row of the other side it matches came or went: only those rows are looked at.
    """
    new_side, old_side, d_side = side
    new_other, old_other, d_other = other
    affected = unioned(
        [d_side.select(*columns), old_side.join(d_other, condition, "left_semi").select(*columns)]
    )
    keys = affected.distinct()
    before = semi(old_side, keys, columns).join(old_other, condition, "left_anti")
    after = semi(new_side, keys, columns).join(new_other, condition, "left_anti")
    weight = next(c for c in after.columns if c not in columns)
    return unioned([after, negated(before, weight)])


def _set_difference(ctx: Lowering, rel: Mapping[str, Any], key: str) -> DataFrame:
    """INTERSECT / EXCEPT [ALL]: each affected row's output count, after minus before.

    A row's count is f(left, right) of its counts on the two sides (plan/nodes.py);
    only rows this step changes on either side are looked up in the stored sides.
    """
    types = types_of(rel["columns"])
    columns = names(len(types))
    changes, stored = {}, {}
    for side in ("left", "right"):
        changes[side] = cast_columns(ctx.shared_changes(rel[side], f"{key}.{side}"), rel["columns"])
        stored[side] = ctx.stored(side_state(key, side), types)
        ctx.save(side_state(key, side), changes[side], types)
    affected = unioned([changes["left"].select(*columns), changes["right"].select(*columns)])
    affected = affected.distinct()
    # Per row and side, its count before the step and after it, as four summed columns.
    zero, weight = F.lit(0).cast("long"), F.col(WEIGHT).cast("long")
    parts = []
    for side in ("left", "right"):
        stored_rows = semi(stored[side], affected, columns)
        for part, before in ((stored_rows, weight), (changes[side], zero)):
            counts = {f"{s}_{t}": zero for s in ("left", "right") for t in ("before", "after")}
            counts[f"{side}_before"], counts[f"{side}_after"] = before, weight
            parts.append(part.select(*columns, *(v.alias(k) for k, v in counts.items())))
    sums = unioned(parts).groupBy(*columns).agg(
        *(F.sum(name).alias(name) for name in ("left_before", "left_after", "right_before",
                                               "right_after"))
    )  # fmt: skip
    count = _SET_COUNTS[(rel["op"], bool(rel["all"]))]
    change = count(F.col("left_after"), F.col("right_after")) - count(
        F.col("left_before"), F.col("right_before")
    )
    return sums.select(*columns, change.alias(WEIGHT)).where(F.col(WEIGHT) != 0)


def _sort(ctx: Lowering, rel: Mapping[str, Any], key: str) -> DataFrame:
    """ORDER BY: unchanged rows without LIMIT/OFFSET; with them, the step's change of the
    rows at the kept positions, from the whole input before and after the step."""
    if rel["limit"] is None and not rel["offset"]:
        return ctx.rel(rel["input"], key + ".i")
    child = ctx.shared_changes(rel["input"], key + ".i")
    types = types_of(rel["columns"])
    columns = names(len(types))
    old = ctx.stored(key, types)
    ctx.save(key, child, types)
    after = present(unioned([old, child]), columns)
    before = present(old, columns)
    return unioned([_kept(after, rel, columns), negated(_kept(before, rel, columns))])


def _kept(rows: DataFrame, rel: Mapping[str, Any], columns: list[str]) -> DataFrame:
    """The rows of a multiset at positions offset+1 .. offset+limit in key order."""
    order = [_ordered(lower_expr(key["expr"]), key) for key in rel["keys"]]
    order.extend(F.col(c).asc_nulls_first() for c in columns)  # ties: a deterministic answer
    position = F.row_number().over(Window.orderBy(*order))
    ranked = _copies(rows).withColumn("__position", position)
    first = int(rel["offset"]) + 1
    kept = ranked.where(F.col("__position") >= first)
    if rel["limit"] is not None:
        kept = kept.where(F.col("__position") < first + int(rel["limit"]))
    return _counted(kept, columns)


def _window(ctx: Lowering, rel: Mapping[str, Any], key: str) -> DataFrame:
    """Window functions: the input's rows with their window values, recomputed for the
    partitions the step touches (before and after), the difference emitted."""
    child = ctx.shared_changes(rel["input"], key + ".i")
    types = types_of(rel["input"]["columns"])
    columns = names(len(types))
    old = ctx.stored(key, types)
    ctx.save(key, child, types)
    partitions = [f"__p{i}" for i in range(len(rel["calls"][0]["partition"]))]
    shared = all(call["partition"] == rel["calls"][0]["partition"] for call in rel["calls"])
    if shared and partitions:
        exprs = [lower_expr(e).alias(f"__p{i}") for i, e in enumerate(rel["calls"][0]["partition"])]
        touched = child.select(*exprs).distinct()
        old_keyed = old.select("*", *exprs)
        before = semi(old_keyed, touched, partitions).drop(*partitions)
    else:
        before = old  # calls partitioned differently: every row may change
    after = present(unioned([before, child]), columns)
    before = present(before, columns)
    return unioned([_windowed(after, rel, columns), negated(_windowed(before, rel, columns))])


def _windowed(rows: DataFrame, rel: Mapping[str, Any], columns: list[str]) -> DataFrame:
    """Each row of a multiset (one copy per multiplicity) with its window values."""
    copies = _copies(rows)
    for index, call in enumerate(rel["calls"]):
        if call["function"] in FRAME_VALUES:  # their rows' places: min_by, max_by, the n-th
            place = F.row_number().over(_tied(_partitioned(call), call, columns))
            copies = copies.withColumn(f"__place{index}", place)
    values = [
        # Of the plan's type: Spark's ROW_NUMBER, RANK and NTILE are INT where SQL's are
        # BIGINT, and the rules that read these rows union them with stored rows.
        _in_type(
            _window_value(call, columns, f"__place{index}"), call["function"], call["type"]
        ).alias(positional(len(columns) + index))
        for index, call in enumerate(rel["calls"])
    ]
    result = copies.select(*columns, *values)
    return _counted(result, result.columns)


def _partitioned(call: Mapping[str, Any]) -> WindowSpec:
    return Window.partitionBy(*(lower_expr(e) for e in call["partition"]))


def _tied(spec: WindowSpec, call: Mapping[str, Any], columns: list[str]) -> WindowSpec:
    """`spec` ordered by the call's keys, then by the whole row: rows equal in the keys
    are put in one order, whatever order they arrived in (a deterministic answer)."""
    order = [_ordered(lower_expr(key["expr"]), key) for key in call["order"]]
    return spec.orderBy(*order, *(F.col(c).asc_nulls_first() for c in columns))


def _copies(rows: DataFrame) -> DataFrame:
    """A weighted multiset as one row per copy (a weight of n: n rows), to rank rows."""
    return rows.withColumn("__copy", F.explode(F.sequence(F.lit(1), F.col(WEIGHT))))


def _one_per_copy(rows: DataFrame) -> DataFrame:
    """A weighted multiset as one row per copy, each of weight 1."""
    return _copies(rows).drop("__copy").withColumn(WEIGHT, F.lit(1).cast(T.LongType()))


def _counted(rows: DataFrame, columns: Sequence[str]) -> DataFrame:
    """Rows back as a weighted multiset of `columns`: the weight counts equal rows."""
    return rows.groupBy(*columns).agg(F.count(F.lit(1)).alias(WEIGHT))


def _ordered(value: Column, key: Mapping[str, Any]) -> Column:
    """`value` ordered as the plan's sort key says (direction and NULLs' place)."""
    first = key["nulls_first"]
    if key["descending"]:
        return value.desc_nulls_first() if first else value.desc_nulls_last()
    return value.asc_nulls_first() if first else value.asc_nulls_last()


def _window_value(call: Mapping[str, Any], columns: list[str], place: str) -> Column:
    """The value of a window call for each row; `place` the column of each row's place
    in the call's order, for FIRST_VALUE / LAST_VALUE (`_windowed`)."""
    offsets = (call["frame"]["start"], call["frame"]["end"])
    numeric = call["frame"]["unit"] == "range" and any(o not in (None, 0) for o in offsets)
    order = []
    for sort_key in call["order"]:
        value = lower_expr(sort_key["expr"])
        if numeric:  # a RANGE with offsets needs a number to add them to
            value = _range_key(value, sort_key["expr"]["type"])
        order.append(_ordered(value, sort_key))
    spec = _partitioned(call)
    function = call["function"]
    # Ties broken by the whole row where a row's place matters: a deterministic answer.
    if function == "row_number":
        return F.row_number().over(_tied(spec, call, columns))
    if function == "ntile":
        return F.ntile(int(call["args"][0]["value"])).over(_tied(spec, call, columns))
    if function in ("lag", "lead"):
        return _offset_value(call, _tied(spec, call, columns))
    if order:
        spec = spec.orderBy(*order)
    if function in RANK_FUNCTIONS:
        return RANK_FUNCTIONS[function]().over(spec)
    frame = call["frame"]
    start = Window.unboundedPreceding if frame["start"] is None else int(frame["start"])
    end = Window.unboundedFollowing if frame["end"] is None else int(frame["end"])
    if frame["unit"] == "rows":  # a frame of rows needs an order of rows
        spec = _tied(spec, call, columns).rowsBetween(start, end)
    elif order:
        spec = spec.rangeBetween(start, end)
    args = [lower_expr(a) for a in call["args"]]
    if function == "nth_value":  # the frame's n-th row, in the tied order
        rows = F.array_sort(
            F.collect_list(F.struct(F.col(place).alias("p"), args[0].alias("v"))).over(spec)
        )
        if call.get("ignore_nulls"):
            rows = F.filter(rows, lambda row: row["v"].isNotNull())
        return F.try_element_at(rows, F.lit(int(call["args"][1]["value"])))["v"]
    if function in FRAME_VALUES:  # the frame's first or last row, in the tied order
        pick = F.min_by if function == "first_value" else F.max_by
        # IGNORE NULLS: of the rows whose value is not NULL (min_by skips a NULL place)
        at = F.when(args[0].isNotNull(), F.col(place)) if call.get("ignore_nulls") else place
        return pick(args[0], at).over(spec)
    if function == "count_distinct":  # the frame's values as a set (it has no NULL)
        return F.size(F.collect_set(args[0]).over(spec))
    if function == "session_close":  # (ts, gap) over a session: SESSION_END's value
        return F.max(args[0]).over(spec) + args[1]
    if function in STATISTICS and call["args"][0]["type"] in INTEGRAL:  # as `_statistic`
        x = args[0].cast("double")
        total, squares, count = F.sum(x).over(spec), F.sum(x * x).over(spec), F.count(x).over(spec)
        return _statistic(function, total, squares, count, integral=True)
    aggregate = {
        "count_star": lambda: F.count(F.lit(1)),
        "count": lambda: F.count(args[0]),
        "sum": lambda: F.sum(args[0]),
        "avg": lambda: F.avg(args[0]),
        "min": lambda: F.min(args[0]),
        "max": lambda: F.max(args[0]),
        "bool_and": lambda: F.bool_and(args[0]),
        "bool_or": lambda: F.bool_or(args[0]),
        "stddev_samp": lambda: F.stddev_samp(args[0]),
        "stddev_pop": lambda: F.stddev_pop(args[0]),
        "var_samp": lambda: F.var_samp(args[0]),
        "var_pop": lambda: F.var_pop(args[0]),
        "mode": lambda: F.mode(args[0], deterministic=True),
        **{name: (lambda f=f: f(*args)) for name, f in PAIR_STATISTICS.items()},
    }.get(function, lambda: ARG_EXTREMES[function](*args))()
    return aggregate.over(spec)


RANK_FUNCTIONS: dict[str, Callable[[], Column]] = {
    "rank": F.rank,
    "dense_rank": F.dense_rank,
    "percent_rank": F.percent_rank,
    "cume_dist": F.cume_dist,
}
FRAME_VALUES = frozenset({"first_value", "last_value", "nth_value"})


def _offset_value(call: Mapping[str, Any], spec: WindowSpec) -> Column:
    """LAG/LEAD: the value `offset` rows before/after in `spec`'s order (ties broken by
    the whole row), else the default (NULL when none). The value goes in a struct, so
    that a row with a NULL value is told from no row at all."""
    value, offset = lower_expr(call["args"][0]), int(call["args"][1]["value"])
    default = lower_expr(call["args"][2]) if len(call["args"]) > 2 else F.lit(None)
    if call.get("ignore_nulls"):  # the offset-th row with a value: never a NULL one
        found = _invoke_function(call["function"], value._jc, offset, None, True).over(spec)
        return F.coalesce(found, default).cast(spark_type(call["type"]))
    shift = F.lag if call["function"] == "lag" else F.lead
    found = shift(F.struct(value.alias("v")), offset).over(spec)
    result = F.when(found.isNull(), default).otherwise(found["v"])
    return result.cast(spark_type(call["type"]))


def _range_key(value: Column, sql_type: str) -> Column:
    """A RANGE frame's order key as a number: microseconds for a time."""
    if sql_type.startswith("TIMESTAMP"):
        return F.unix_micros(value.cast("timestamp"))
    if sql_type == "DATE":
        return F.unix_date(value).cast("long") * F.lit(86_400_000_000)
    # An integer widened: Spark adds the offsets in the key's own type, and `ts - 2` of
    # the SMALLINT -32768 overflowed (Feldera's RangeFrameTests).
    if sql_type == "BIGINT":
        return value.cast(T.DecimalType(20, 0))
    if sql_type in INTEGRAL:
        return value.cast("long")
    return value


def _semi_join(ctx: Lowering, rel: Mapping[str, Any], key: str) -> DataFrame:
    """[NOT] IN / [NOT] EXISTS: the left rows kept before and after the step, over the
    whole stored inputs, the difference emitted."""
    left_types = types_of(rel["left"]["columns"])
    right_types = types_of(rel["right"]["columns"])
    sides = {}
    for side, types in (("left", left_types), ("right", right_types)):
        change = ctx.shared_changes(rel[side], f"{key}.{side}")
        old = ctx.stored(side_state(key, side), types)
        ctx.save(side_state(key, side), change, types)
        columns = names(len(types))
        sides[side] = (present(old, columns), present(unioned([old, change]), columns))
    before = _kept_left(sides["left"][0], sides["right"][0], rel)
    after = _kept_left(sides["left"][1], sides["right"][1], rel)
    return unioned([after, negated(before)])


def _kept_left(left: DataFrame, right: DataFrame, rel: Mapping[str, Any]) -> DataFrame:
    width = len(rel["left"]["columns"])
    right = shifted(right, len(rel["right"]["columns"]), width).drop(RIGHT_WEIGHT)
    condition = join_condition(rel)
    kind = rel["kind"]
    if kind == "semi":
        return left.join(right, condition, "left_semi")
    if kind == "anti":
        return left.join(right, condition, "left_anti")
    # NOT IN: kept when the subquery is empty, or when the value is not NULL, matches
    # nothing, and the subquery holds no NULL.
    value = lower_expr(rel["condition"]["args"][0])
    column = positional(width)
    stats = right.agg(
        F.count(F.lit(1)).alias("__rows"),
        F.count(F.when(F.col(column).isNull(), 1)).alias("__nulls"),
    )
    unmatched = left.join(right, condition, "left_anti").crossJoin(stats)
    keep = (F.col("__rows") == 0) | (value.isNotNull() & (F.col("__nulls") == 0))
    return unmatched.where(keep).drop("__rows", "__nulls")


def _present(n: Column) -> Column:
    return F.when(n > 0, 1).otherwise(0)


_SET_COUNTS: dict[tuple[str, bool], Callable[[Column, Column], Column]] = {
    ("intersect", True): lambda left, right: F.least(left, right),
    ("intersect", False): lambda left, right: _present(left) * _present(right),
    ("except", True): lambda left, right: F.greatest(left - right, F.lit(0)),
    ("except", False): lambda left, right: _present(left) * (1 - _present(right)),
}


def cast_columns(changes: DataFrame, columns: Sequence[Mapping[str, Any]]) -> DataFrame:
    """`changes` with its columns cast to `columns`' types (the sides of a set operation)."""
    return changes.select(
        *(
            F.col(positional(i)).cast(spark_type(c["type"])).alias(positional(i))
            for i, c in enumerate(columns)
        ),
        WEIGHT,
    )


Rule = Callable[[Lowering, Mapping[str, Any], str], DataFrame]
RULES: dict[str, Rule] = {
    "union": _union,
    "values": _values,
    "hop": _hop,
    "unnest": _unnest,
    "distinct": _distinct,
    "aggregate": _aggregate,
    "join": _join,
    "intersect": _set_difference,
    "except": _set_difference,
    "sort": _sort,
    "window": _window,
    "semi": _semi_join,
}
