"""One step of a program on Spark: input changes in, every output view's changes out.

    engine = StepEngine(spark, plan, state=MemoryStateStore())
    result = engine.step(1, changes)   # changes: DataFrame (seq, relation, weight, row)
    result.deltas    # {view: [{"insert": row} | {"delete": row}, ...]}
    result.dropped   # [{"relation", "row", "reason": "late" | "out_of_order"}]

A step is two Spark actions: the input changes are materialised once in Spark's
block manager (every part of the step reads them from there); then the output
views' changes, the changes of every stateful operator's state, the dropped and
held input rows and the new time maxima are tagged, unioned and collected
together. The state is integrated in the driver and committed as the
snapshot of this step. A program with `emit_final` views runs one more tiny
action to evaluate those views' waterlines.
"""

from __future__ import annotations

import decimal
import json
import logging
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F

from worker.runner.incremental import Lowering, consolidate, literal_rows, names, row_json
from worker.runner.inputs import table_input
from worker.runner.keys import has_upserts, upserted
from worker.runner.lower import WEIGHT
from worker.runner.source import SCHEMA
from worker.runner.state import MemoryStateStore, Multiset, Snapshot, StateStore
from worker.runner.step import AS_STRING, Change, _as_json, _consolidated, in_view_order
from worker.runner.temporal import History
from worker.runner.waterline import input_waterline, rel_waterline

log = logging.getLogger("weir.runner")
INPUT_SCHEMA = "seq:bigint,relation:string,weight:smallint,row:string"


@dataclass
class StepResult:
    deltas: dict[str, list[Change]] = field(default_factory=dict)
    dropped: list[dict[str, Any]] = field(default_factory=list)


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

    def step(self, step_no: int, changes: DataFrame) -> StepResult:
        snapshot = self.state.load(before_step=step_no)
        values = snapshot.values
        maxima: dict[str, str] = values.get("maxima", {})
        # The step's input is read by many parts of the job: materialise it once.
        changes = changes.select(*SCHEMA.names).localCheckpoint(eager=True)
        held_rows = [dict(zip(SCHEMA.names, r, strict=True)) for r in values.get("held", [])]
        held = literal_rows(self.spark, held_rows, INPUT_SCHEMA)
        ctx = Lowering(self.spark, {}, snapshot.multisets, not values.get("started"))
        records: list[DataFrame] = []
        for relation in self.plan["inputs"]:
            name = relation["name"]
            tables = table_input(
                relation,
                changes.where(F.col("relation") == name),
                held.where(F.col("relation") == name),
                maxima,
            )
            ctx.history[name] = History(relation, tables.changes, maxima)
            if has_upserts(relation):
                ctx.changes[name] = upserted(ctx, relation, tables.changes)
            else:
                ctx.changes[name] = tables.changes.drop("seq")
            records.append(
                _tagged(
                    tables.dropped,
                    "dropped",
                    F.concat_ws("\u0000", F.lit(name), F.col("reason")),
                    F.lit(0),
                    F.col("row"),
                    F.col("seq"),
                )
            )
            records.append(
                _tagged(tables.held, "held", name, F.col("weight"), F.col("row"), F.col("seq"))
            )
            for key, top in tables.maxima.items():
                records.append(_tagged(top, "max", key, F.lit(0), F.col("value"), F.lit(0)))
        for view in self.plan["views"]:
            delta = ctx.rel(view["query"], view["name"])
            ctx.changes[view["name"]] = delta
            if view.get("local"):
                continue
            width = len(view["columns"])
            published = _as_json(view, _consolidated(delta, width))
            records.append(
                _tagged(published, "out", view["name"], F.col("weight"), F.col("row"), F.lit(0))
            )
        for save in ctx.saves:
            keyed = save.changes.select(row_json(save.changes, save.types).alias("row"), WEIGHT)
            summed = consolidate(keyed, ["row"])
            records.append(
                _tagged(summed, "state", save.key, F.col(WEIGHT), F.col("row"), F.lit(0))
            )
        union = records[0]
        for more in records[1:]:
            union = union.unionByName(more)
        collected = union.collect()
        return self._finish(step_no, snapshot, collected)

    def _finish(self, step_no: int, snapshot: Snapshot, collected: list[Any]) -> StepResult:
        multisets = snapshot.multisets
        values = dict(snapshot.values)
        maxima = dict(values.get("maxima", {}))
        outputs: dict[str, Multiset] = defaultdict(dict)
        dropped: list[tuple[int, dict[str, Any]]] = []
        held: list[list[Any]] = []
        for record in collected:
            tag = record["tag"]
            if tag == "out":
                _add(outputs[record["name"]], record["row"], record["weight"])
            elif tag == "state":
                _add(multisets.setdefault(record["name"], {}), record["row"], record["weight"])
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
        counts = dict(values.get("dropped_counts", {}))
        for _, drop in sorted(dropped, key=lambda d: d[0]):
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
        if self.emit_final:
            self._emit_final(outputs, multisets, maxima)
        self.state.commit(step_no, Snapshot(multisets, values, step_no))
        deltas: dict[str, list[Change]] = {}
        for view in self.plan["views"]:
            changes = [
                {("insert" if weight > 0 else "delete"): json.loads(row)}
                for row, weight in outputs.get(view["name"], {}).items()
                for _ in range(abs(weight))
            ]
            if changes:
                deltas[view["name"]] = in_view_order(view, changes)
        return StepResult(deltas, [drop for _, drop in sorted(dropped, key=lambda d: d[0])])

    def _emit_final(
        self, outputs: dict[str, Multiset], multisets: dict[str, Multiset], maxima: dict[str, str]
    ) -> None:
        """Move each emit_final view's changes into its pending rows; emit those now final."""
        waterlines = self._view_waterlines(maxima)
        for view in self.plan["views"]:
            name = view["name"]
            if name not in self.emit_final:
                continue
            index = self.emit_final[name]
            column = view["columns"][index]
            pending = multisets.setdefault(f"{name}#pending", {})
            for row, weight in outputs.pop(name, {}).items():
                _add(pending, row, weight)
            line = waterlines.get(name)
            if line is None:
                continue
            limit = _comparable(column["type"], line)
            emitted: Multiset = {}
            for row in list(pending):
                value = json.loads(row)[column["name"]]
                if value is not None and _comparable(column["type"], value) < limit:
                    weight = pending.pop(row)
                    if weight > 0:  # a delete of a row never emitted cancels nothing
                        emitted[row] = weight
            if emitted:
                outputs[name] = emitted

    def _view_waterlines(self, maxima: Mapping[str, str]) -> dict[str, Any]:
        relations = {r["name"]: input_waterline(self.spark, r, maxima) for r in self.plan["inputs"]}
        rows = []
        for view in self.plan["views"]:
            relations[view["name"]] = rel_waterline(self.spark, view["query"], relations)
            if view["name"] in self.emit_final:
                index = self.emit_final[view["name"]]
                value = relations[view["name"]].select(names(index + 1)[index])
                rows.append(
                    value.select(
                        F.lit(view["name"]).alias("view"),
                        F.col(value.columns[0]).cast("string").alias("value"),
                    )
                )
        union = rows[0]
        for more in rows[1:]:
            union = union.unionByName(more)
        return {r["view"]: r["value"] for r in union.collect() if r["value"] is not None}


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


def _comparable(sql_type: str, value: Any) -> Any:
    """A JSON value of the type, ordered as SQL orders it (timestamps and dates as text)."""
    if sql_type.startswith("DECIMAL"):
        return decimal.Decimal(str(value))
    if sql_type.startswith(AS_STRING) or isinstance(value, str):
        if sql_type in ("INTEGER", "BIGINT", "SMALLINT", "TINYINT", "DOUBLE", "REAL"):
            return float(value)
        return str(value)
    return value
