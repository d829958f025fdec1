"""Pumps in a step: `CREATE PUMP p AS INSERT INTO target SELECT ... FROM source`.

A pump's query runs on the changes delivered to it, and its rows join the
target's input of the same step, where they meet the target's time rules like
any ingested row (a stream drops a row older than its clock). Each pump is in
one of three states, set by the operator between steps:

- running: the pump gets this step's changes of its sources, plus any it was
  holding from while it was paused;
- paused: the pump holds its sources' changes (in state) and inserts nothing;
  on resume it continues from where it stopped: nothing is lost;
- stopped: the pump ignores its sources' changes and drops what it was holding;
  started again, it continues from the changes of that step on.

    >>> pump_order({"inputs": [{"name": "a"}, {"name": "b"}],
    ...             "views": [{"name": "v", "query": {"op": "scan", "relation": "a"}}],
    ...             "pumps": [{"name": "p", "target": "b",
    ...                        "query": {"op": "scan", "relation": "v"}}]})
    [('input', 'a'), ('view', 'v'), ('pump', 'p'), ('input', 'b')]
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from pyspark.sql import DataFrame, Window
from pyspark.sql import functions as F

from worker.runner.incremental import AS_STRING, Lowering, negated, types_of, unioned
from worker.runner.lower import WEIGHT, LoweringError, positional, scanned

RUNNING, PAUSED, STOPPED = "running", "paused", "stopped"
STATES = (RUNNING, PAUSED, STOPPED)
# Pumped rows come after every ingested change of their step (whose sequence
# numbers are far below this), in the order of their values.
PUMPED_SEQ = 1 << 60

Node = tuple[str, str]  # ("input" | "view" | "pump", name)


def declared_states(plan: Mapping[str, Any]) -> dict[str, str]:
    """Each pump's state as the program declares it (STOPPED, else running)."""
    return {p["name"]: RUNNING if p["started"] else STOPPED for p in plan.get("pumps", [])}


def pump_order(plan: Mapping[str, Any]) -> list[Node]:
    """Inputs, views and pumps in an order where each comes after what it reads: a
    pump after its sources, an input after the pumps that insert into it (the
    compiler refuses cycles, SQL320). Program order otherwise."""
    nodes: list[Node] = [("input", r["name"]) for r in plan["inputs"]]
    nodes += [("view", v["name"]) for v in plan["views"]]
    nodes += [("pump", p["name"]) for p in plan.get("pumps", [])]
    needs: dict[Node, set[str]] = {}
    for relation in plan["inputs"]:
        targets = {p["name"] for p in plan.get("pumps", []) if p["target"] == relation["name"]}
        needs[("input", relation["name"])] = {f"pump {name}" for name in targets}
    for view in plan["views"]:
        needs[("view", view["name"])] = set(scanned(view["query"]))
    for pump in plan.get("pumps", []):
        needs[("pump", pump["name"])] = set(scanned(pump["query"]))
    done: set[str] = set()
    order: list[Node] = []
    while len(order) < len(nodes):
        ready = [n for n in nodes if n not in order and needs[n] <= done]
        if not ready:
            raise LoweringError("the program's pumps form a cycle")
        node = ready[0]
        order.append(node)
        done.add(f"pump {node[1]}" if node[0] == "pump" else node[1])
    return order


def pumped(
    ctx: Lowering,
    pump: Mapping[str, Any],
    state: str,
    columns_of: Mapping[str, Sequence[Mapping[str, Any]]],
) -> DataFrame | None:
    """The pump's rows of this step (c0..cN of its target, WEIGHT), or None when it
    inserts nothing; holds or drops its sources' changes as its state says."""
    if state not in STATES:
        raise LoweringError(f"pump {pump['name']}: unknown state {state!r}")
    key = f"pump:{pump['name']}"
    delivered: dict[str, DataFrame] = {}
    for source in sorted(set(scanned(pump["query"]))):
        types = types_of(columns_of[source])
        buffer = f"{key}#held:{source}"
        held = ctx.stored_state.get(buffer)
        holding = held is not None and held.num_rows > 0
        if state == PAUSED:
            ctx.save(buffer, ctx.changes[source], types)
            continue
        if holding:  # released (running) or dropped (stopped): the buffer empties
            ctx.save(buffer, negated(ctx.stored(buffer, types)), types)
        if state == RUNNING:
            changes = ctx.changes[source]
            delivered[source] = (
                unioned([changes, ctx.stored(buffer, types)]) if holding else changes
            )
    if state != RUNNING:
        return None
    own = dataclasses.replace(ctx, changes=delivered)  # the same state, saves and history
    return own.rel(pump["query"], key)


def as_input_log(rows: DataFrame, target: Mapping[str, Any], pump_index: int) -> DataFrame:
    """Pumped rows as the target's input-log changes (seq, relation, weight, row): one
    change of weight +1 or -1 per copy, the row as JSON text with the target's names."""
    columns = target["columns"]
    fields = []
    for i, column in enumerate(columns):
        value = F.col(positional(i))
        if column["type"].startswith(AS_STRING):
            value = value.cast("string")
        fields.append(value.alias(column["name"]))
    row = F.to_json(F.struct(*fields), {"ignoreNullFields": "false"})
    copies = rows.select(
        row.alias("row"),
        F.signum(F.col(WEIGHT)).cast("smallint").alias("weight"),
        F.explode(F.sequence(F.lit(1), F.abs(F.col(WEIGHT)))).alias("__copy"),
        *(positional(i) for i in range(len(columns))),
    )
    # A stream's pumped rows in rowtime order, so none is out of order against another.
    first = [i for i, c in enumerate(columns) if c["name"] == "rowtime"]
    keys = [*first, *range(len(columns))]
    order = Window.orderBy(*(F.col(positional(i)).asc_nulls_first() for i in keys))
    seq = F.lit(PUMPED_SEQ + (pump_index << 40)) + F.row_number().over(order)
    return copies.select(
        seq.cast("long").alias("seq"),
        F.lit(target["name"]).alias("relation"),
        "weight",
        "row",
    )
