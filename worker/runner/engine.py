"""One step of a program on Spark: input changes in, every output view's changes out.

    engine = StepEngine(spark, plan, state=MemoryStateStore())
    result = engine.step(1, changes)   # changes: DataFrame (seq, relation, weight, row)
    result.deltas    # {view: [{"insert": row} | {"delete": row}, ...]}
    result.dropped   # [{"relation", "row", "reason": "late" | "out_of_order"}]
    result.pumped    # {pump: rows it inserted} (pumps: worker/runner/pumps.py)

A step is two Spark actions: the input changes are materialised once in Spark's
block manager (every part of the step reads them from there); then the output
views' changes, the changes of every stateful operator's state, the dropped and
held input rows and the new time maxima are tagged, unioned and collected
together. The state is integrated in the driver and committed as the
snapshot of this step. A program with `emit_final` views runs one more tiny
action to evaluate those views' waterlines.
"""

from __future__ import annotations

import json
import logging
from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pyarrow as pa
from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F

import worker.runner.recursion  # registers the recursive rules
import worker.runner.window_join  # noqa: F401  (registers the window_join rule)
from worker.runner.blocks import released_blocks
from worker.runner.clocks import max_key, time_columns, waterlines
from worker.runner.incremental import (
    Lowering,
    literal_rows,
    materialised,
    names,
    one_row,
    row_json,
    types_of,
    unioned,
)
from worker.runner.inputs import has_lateness, table_input, view_lateness
from worker.runner.keys import has_upserts, upserted
from worker.runner.lower import WEIGHT, scanned
from worker.runner.pumps import as_input_log, declared_states, pump_order, pumped
from worker.runner.source import SCHEMA
from worker.runner.state import (
    MemoryStateStore,
    Multiset,
    Snapshot,
    StateStore,
    as_multiset,
    integrated,
    rows_table,
)
from worker.runner.step import Change, _as_json, _consolidated, comparable, in_view_order
from worker.runner.temporal import History
from worker.runner.waterline import input_waterline, raised_by_lateness, rel_waterline

log = logging.getLogger("weir.runner")
INPUT_SCHEMA = "seq:bigint,relation:string,weight:smallint,row:string"
VIEW_DROP_SEQ = 2**62  # a view's late rows are reported after its step's input rows


@dataclass
class Backfill:
    """Views a deploy added (compat.py), filled at this step: they read the contents of
    the older relations as they stood before this step (contents.py), plus this step's
    changes, as if every row arrived now."""

    views: frozenset[str]
    contents: Mapping[str, DataFrame]  # older relations the new views read, before the step

    def with_history(self, name: str, changes: DataFrame) -> DataFrame:
        history = self.contents.get(name)
        return changes if history is None else unioned([history, changes])


@dataclass
class StepResult:
    deltas: dict[str, list[Change]] = field(default_factory=dict)
    dropped: list[dict[str, Any]] = field(default_factory=list)
    pumped: dict[str, int] = field(default_factory=dict)  # rows each running pump inserted
    dropped_seqs: list[int] = field(default_factory=list)  # input-log seqs of `dropped`
    state_rows: int = 0  # distinct rows the stateful operators keep after the step
    state_rows_by_key: dict[str, int] = field(default_factory=dict)  # the same, per state key
    # "relation.column" -> value: inputs' waterlines, and emit_final views' (their column)
    waterlines: dict[str, str] = field(default_factory=dict)
    extra: dict[str, list[Change]] = field(default_factory=dict)  # extra views' changes


def _tagged(df: DataFrame, tag: str, name: Any, weight: Any, row: Any, seq: Any) -> DataFrame:
    return df.select(
        F.lit(tag).alias("tag"),
        (name if not isinstance(name, str) else F.lit(name)).alias("name"),
        weight.cast("long").alias("weight"),
        row.alias("row"),
        seq.cast("long").alias("seq"),
    )


class StepEngine:
    def __init__(
        self, spark: SparkSession, plan: Mapping[str, Any], state: StateStore | None = None
    ) -> None:
        self.spark = spark
        self.plan = plan
        self.state: StateStore = state if state is not None else MemoryStateStore()
        self.emit_final = {
            v["name"]: v["emit_final"]
            for v in plan["views"]
            if v.get("emit_final") is not None and not v.get("local")
        }
        self.relations = {r["name"]: r for r in plan["inputs"]}
        self.views = {v["name"]: v for v in plan["views"]}
        # The relations with waterlines of their own: inputs, and views with LATENESS.
        self.timed = [*plan["inputs"], *(v for v in plan["views"] if has_lateness(v))]
        self.pumps = {p["name"]: (i, p) for i, p in enumerate(plan.get("pumps", []))}
        self.columns = {r["name"]: r["columns"] for r in [*plan["inputs"], *plan["views"]]}
        self.order = pump_order(plan)

    def step(
        self,
        step_no: int,
        changes: DataFrame,
        pumps: Mapping[str, str] | None = None,
        *,
        backfill: Backfill | None = None,
        extra_views: Sequence[Mapping[str, Any]] = (),
        relations: Collection[str] | None = None,
    ) -> StepResult:
        """Run one step. `pumps` gives each pump's state (running, paused or stopped; as
        the program declares them when absent). `extra_views`: stateless views (ad-hoc
        SELECT STREAM queries) over the program's relations, computed on this step's
        changes and answered apart, keyed by their name. `relations`: the tables and
        streams with changes (rows or bounds) in `changes`, found when not given."""
        with released_blocks(self.spark):
            return self._step(step_no, changes, pumps, backfill, extra_views, relations)

    def _step(
        self,
        step_no: int,
        changes: DataFrame,
        pumps: Mapping[str, str] | None,
        backfill: Backfill | None,
        extra_views: Sequence[Mapping[str, Any]],
        relations: Collection[str] | None,
    ) -> StepResult:
        snapshot = self.state.load(before_step=step_no)
        values = snapshot.values
        maxima: dict[str, str] = values.get("maxima", {})
        # The step's input is read by many parts of the job: materialise it once, as one
        # partition. Every source of a step is one partition (stored state too:
        # incremental.py), so its joins and aggregates run where their rows are, without
        # a shuffle (session.py): a stage for each would cost more than a step's rows.
        changes = materialised(changes.select(*SCHEMA.names))
        if relations is None:
            relations = {r["relation"] for r in changes.select("relation").distinct().collect()}
        held_rows = [dict(zip(SCHEMA.names, r, strict=True)) for r in values.get("held", [])]
        held = literal_rows(self.spark, held_rows, INPUT_SCHEMA)
        first_step = not values.get("started")
        ctx = Lowering(self.spark, {}, snapshot.multisets, first_step, views=frozenset(self.views))
        if ctx.first_step or backfill is not None or self.pumps:
            touched = {*self.relations, *self.views}  # every view runs
        else:
            changed = {*relations, *(r["relation"] for r in held_rows)}
            touched = touched_by(self.plan, changed)
        states = {**declared_states(self.plan), **(pumps or {})}
        pumped_rows: dict[str, list[DataFrame]] = defaultdict(list)
        # New views see the older relations' contents too; their state starts empty.
        fill = (
            None
            if backfill is None
            else Lowering(self.spark, {}, {}, True, ctx.saves, views=frozenset(self.views))
        )
        if fill is not None:
            fill.clocks = ctx.clocks  # the same inputs, the same clocks
        records: list[DataFrame] = []
        for kind, name in self.order:
            if kind == "input":
                relation = self.relations[name]
                if name not in touched:  # no rows, bounds or held rows: nothing to read
                    _unchanged(ctx, relation, maxima)
                    continue
                new = unioned([changes.where(F.col("relation") == name), *pumped_rows[name]])
                records += self._input(ctx, relation, new, held, maxima)
                if fill is not None and backfill is not None:
                    fill.changes[name] = backfill.with_history(name, ctx.changes[name])
            elif kind == "pump":
                index, pump = self.pumps[name]
                rows = pumped(ctx, pump, states[name], self.columns)
                if rows is not None:
                    target = self.relations[pump["target"]]
                    pumped_rows[pump["target"]].append(as_input_log(rows, target, index))
                    count = rows.agg(F.sum(F.abs(WEIGHT)).alias("n"))
                    records.append(
                        _tagged(
                            count, "pumped", name, F.col("n"), F.lit(None).cast("string"), F.lit(0)
                        )
                    )
            else:
                view = self.views[name]
                if name not in touched:
                    ctx.changes[name] = ctx.empty(types_of(view["columns"]))
                    continue
                if fill is not None and backfill is not None:
                    delta = (fill if name in backfill.views else ctx).rel(view["query"], name)
                    fill.changes[name] = backfill.with_history(name, delta)
                else:
                    delta = ctx.rel(view["query"], name)
                if ctx.is_empty(delta):  # nothing to publish, drop or move
                    ctx.changes[name] = delta
                    continue
                if has_lateness(view):
                    late = view_lateness(view, delta, maxima)
                    delta = late.changes
                    dropped = _as_json(view, _consolidated(late.dropped, len(view["columns"])))
                    dropped = dropped.select(
                        F.lit(VIEW_DROP_SEQ).alias("seq"), F.lit("late").alias("reason"), "row"
                    )
                    records += _time_records(name, dropped, late.maxima)
                ctx.changes[name] = delta
                if view.get("local"):
                    continue
                records.append(_published(view, delta, "out", name))
        for view in extra_views:
            if touched.isdisjoint(scanned(view["query"])):
                continue
            records.append(
                _published(view, ctx.rel(view["query"], "__extra"), "extra", view["name"])
            )
        for save in ctx.saves:  # equal rows are summed as the driver integrates them
            row = row_json(save.changes, save.types)
            records.append(_tagged(save.changes, "state", save.key, F.col(WEIGHT), row, F.lit(0)))
        collected = []
        if records:
            collected = unioned(records).collect()
        return self._finish(step_no, snapshot, collected, extra_views, touched)

    def _input(
        self,
        ctx: Lowering,
        relation: Mapping[str, Any],
        new: DataFrame,
        held: DataFrame,
        maxima: Mapping[str, str],
    ) -> list[DataFrame]:
        """A table's or stream's changes of the step into `ctx`; its records (dropped and
        held rows, new time maxima) to collect."""
        name = relation["name"]
        tables = table_input(relation, new, held.where(F.col("relation") == name), maxima)
        ctx.history[name] = History(relation, tables.changes, maxima)
        if has_upserts(relation):
            ctx.changes[name] = upserted(ctx, relation, tables.changes)
        else:
            ctx.changes[name] = tables.changes.drop("seq")
        ctx.clocks.update(tables.maxima)
        return [
            _tagged(tables.held, "held", name, F.col("weight"), F.col("row"), F.col("seq")),
            *_time_records(name, tables.dropped, tables.maxima),
        ]

    def _finish(
        self,
        step_no: int,
        snapshot: Snapshot,
        collected: list[Any],
        extra_views: Sequence[Mapping[str, Any]],
        touched: set[str],
    ) -> StepResult:
        multisets = snapshot.multisets
        values = dict(snapshot.values)
        maxima = dict(values.get("maxima", {}))
        outputs: dict[str, Multiset] = defaultdict(dict)
        extra: dict[str, Multiset] = defaultdict(dict)
        dropped: list[tuple[int, dict[str, Any]]] = []
        held: list[list[Any]] = []
        pumped_counts: dict[str, int] = {}
        state_changes: dict[str, tuple[list[str], list[int]]] = defaultdict(lambda: ([], []))
        for record in collected:
            tag = record["tag"]
            if tag == "out":
                _add(outputs[record["name"]], record["row"], record["weight"])
            elif tag == "extra":
                _add(extra[record["name"]], record["row"], record["weight"])
            elif tag == "state":
                rows, weights = state_changes[record["name"]]
                rows.append(record["row"])
                weights.append(record["weight"])
            elif tag == "dropped":
                relation, reason = record["name"].split("\u0000")
                dropped.append(
                    (
                        record["seq"],
                        {"relation": relation, "row": json.loads(record["row"]), "reason": reason},
                    )
                )
            elif tag == "held":
                held.append([record["seq"], record["name"], record["weight"], record["row"]])
            elif tag == "max" and record["row"] is not None:
                maxima[record["name"]] = record["row"]
            elif tag == "pumped":
                pumped_counts[record["name"]] = int(record["weight"] or 0)
        for key, (rows, weights) in state_changes.items():
            multisets[key] = integrated(multisets.get(key), rows, weights)
        counts = dict(values.get("dropped_counts", {}))
        # In input order; a view's late rows (one seq for all) by their text.
        dropped.sort(key=lambda d: (d[0], json.dumps(d[1]["row"], sort_keys=True)))
        for _, drop in dropped:
            count = counts[drop["relation"]] = counts.get(drop["relation"], 0) + 1
            if _power_of_ten(count):  # the 1st, 10th, 100th, ... dropped row of a table
                log.warning(
                    "step %s: %s row #%s of %s dropped: %s",
                    step_no,
                    drop["reason"],
                    count,
                    drop["relation"],
                    json.dumps(drop["row"]),
                )
        values.update(
            started=True,
            maxima=maxima,
            held=sorted(held),
            dropped_counts=counts,
        )
        view_lines: dict[str, str] = {}  # the emit_final views' waterlines, when the step ran one
        if not touched.isdisjoint(self.emit_final):
            view_lines = self._emit_final(outputs, multisets, maxima, touched)
        self.state.commit(step_no, Snapshot(multisets, values, step_no))
        deltas: dict[str, list[Change]] = {}
        for view in self.plan["views"]:
            changes = _changes(view, outputs.get(view["name"], {}))
            if changes:
                deltas[view["name"]] = changes
        return StepResult(
            deltas,
            [drop for _, drop in dropped],
            pumped=pumped_counts,
            dropped_seqs=[seq for seq, d in dropped if d["relation"] in self.relations],
            state_rows=sum(table.num_rows for table in multisets.values()),
            state_rows_by_key={key: table.num_rows for key, table in multisets.items()},
            waterlines={**waterlines(self.timed, maxima), **view_lines},
            extra={v["name"]: _changes(v, extra.get(v["name"], {})) for v in extra_views},
        )

    def _emit_final(
        self,
        outputs: dict[str, Multiset],
        multisets: dict[str, pa.Table],
        maxima: dict[str, str],
        touched: set[str],
    ) -> dict[str, str]:
        """Move each emit_final view's changes into its pending rows; emit those now final.
        The touched views' waterlines, by "view.column" (the emit_final column); an
        untouched view's pending rows and waterline are as the last step left them."""
        waterlines = self._view_waterlines(maxima)
        lines = {}
        for view in self.plan["views"]:
            name = view["name"]
            if name not in self.emit_final or name not in touched:
                continue
            index = self.emit_final[name]
            column = view["columns"][index]
            key = f"{name}#pending"
            pending = as_multiset(multisets.get(key))
            for row, weight in outputs.pop(name, {}).items():
                _add(pending, row, weight)
            line = waterlines.get(name)
            if line is None:
                multisets[key] = rows_table(pending)
                continue
            lines[f"{name}.{column['name']}"] = str(line)
            limit = comparable(column["type"], line)
            emitted: Multiset = {}
            for row in list(pending):
                value = json.loads(row)[column["name"]]
                if value is not None and comparable(column["type"], value) < limit:
                    weight = pending.pop(row)
                    if weight > 0:  # a delete of a row never emitted cancels nothing
                        emitted[row] = weight
            multisets[key] = rows_table(pending)
            if emitted:
                outputs[name] = emitted
        return lines

    def _view_waterlines(self, maxima: Mapping[str, str]) -> dict[str, Any]:
        relations = {r["name"]: input_waterline(self.spark, r, maxima) for r in self.plan["inputs"]}
        rows = []
        for view in self.plan["views"]:
            line = rel_waterline(self.spark, view["query"], relations)
            relations[view["name"]] = raised_by_lateness(line, view, maxima)
            if view["name"] in self.emit_final:
                index = self.emit_final[view["name"]]
                value = relations[view["name"]].select(names(index + 1)[index])
                rows.append(
                    value.select(
                        F.lit(view["name"]).alias("view"),
                        F.col(value.columns[0]).cast("string").alias("value"),
                    )
                )
        return {r["view"]: r["value"] for r in unioned(rows).collect() if r["value"] is not None}


def _unchanged(ctx: Lowering, relation: Mapping[str, Any], maxima: Mapping[str, str]) -> None:
    """An input without changes this step (not touched): no changes for the views that
    read it beside a touched input, and its time maxima as the last step left them."""
    name = relation["name"]
    none = ctx.empty(types_of(relation["columns"]))
    ctx.changes[name] = none
    ctx.history[name] = History(relation, none.withColumn("seq", F.lit(0).cast("long")), maxima)
    for index in time_columns(relation):
        key = max_key(relation, index)
        value = F.lit(maxima.get(key)).cast("string").alias("value")
        ctx.clocks[key] = one_row(ctx.spark).select(value)


def touched_by(plan: Mapping[str, Any], changed: Collection[str]) -> set[str]:
    """The inputs and views a step can change: the inputs with changes (rows, bounds or
    held rows) and the views that read them, directly or through other views.

    A view whose inputs did not change has no changes and keeps its state; its
    waterline stays put too, and with it what emit_final, windowed joins and sorts
    release. (A program's first step, a backfill and pumps run every view.)

    >>> scan = lambda name: {"op": "scan", "relation": name}
    >>> plan = {"inputs": [{"name": "a"}, {"name": "b"}],
    ...         "views": [{"name": "v", "query": scan("a")},
    ...                   {"name": "w", "query": scan("b")},
    ...                   {"name": "x", "query": {"op": "union",
    ...                                           "inputs": [scan("v"), scan("b")]}}]}
    >>> sorted(touched_by(plan, {"a"}))
    ['a', 'v', 'x']
    """
    touched = {r["name"] for r in plan["inputs"]} & set(changed)
    for view in plan["views"]:  # in program order: a view comes after what it reads
        if not touched.isdisjoint(scanned(view["query"])):
            touched.add(view["name"])
    return touched


def _time_records(
    name: str, dropped: DataFrame, maxima: Mapping[str, DataFrame]
) -> list[DataFrame]:
    """A relation's dropped rows (seq, reason, row) and new time maxima, tagged."""
    reason = F.concat_ws("\u0000", F.lit(name), F.col("reason"))
    records = [_tagged(dropped, "dropped", reason, F.lit(0), F.col("row"), F.col("seq"))]
    for key, top in maxima.items():
        records.append(_tagged(top, "max", key, F.lit(0), F.col("value"), F.lit(0)))
    return records


def _published(view: Mapping[str, Any], delta: DataFrame, tag: str, name: str) -> DataFrame:
    """A view's changes as JSON rows, tagged for the step's one collect. Equal rows are
    summed as the driver collects them (`_add`): a groupBy per view here cost more, in
    building and planning the step, than the rows it spared the collect."""
    rows = _as_json(view, delta)
    return _tagged(rows, tag, name, F.col("weight"), F.col("row"), F.lit(0))


def _changes(view: Mapping[str, Any], output: Multiset) -> list[Change]:
    """A view's collected changes as {"insert": row} / {"delete": row}, in view order."""
    changes = [
        {("insert" if weight > 0 else "delete"): json.loads(row)}
        for row, weight in output.items()
        for _ in range(abs(weight))
    ]
    return in_view_order(view, changes) if changes else []


def _power_of_ten(n: int) -> bool:
    while n % 10 == 0 and n > 1:
        n //= 10
    return n == 1


def _add(multiset: Multiset, row: str, weight: int) -> None:
    total = multiset.get(row, 0) + weight
    if total:
        multiset[row] = total
    else:
        multiset.pop(row, None)
