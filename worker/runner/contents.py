"""What a program's relations hold after a step, as weighted rows (c0..cN, WEIGHT).

Where a query must see whole relations rather than a step's changes: ad-hoc
queries (a plain SELECT, worker/runner/adhoc.py) and views a deploy added, which
their first step fills (engine.py, Backfill). After step n:

- a table with a primary key holds its rows as state (`<table>#rows`, keys.py);
- another table or a stream holds the changes of it that steps consumed
  (seq <= the pipeline's processed seq), less the ones refused (late, out of
  order: `InputChange.dropped`) and the ones still held for a WATERMARK (the
  state's "held"), added up: this is what its scans have passed on;
- a published view holds its stored deltas through step n, added up;
- a LOCAL view (not stored) is its query evaluated over the contents of what it
  reads.

Queries then run over these as if every row arrived in one first step, from
empty state: incremental rules applied to whole relations give the batch answer.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from django.db.models import Sum
from pyspark.sql import DataFrame, SparkSession

import worker.runner.recursion  # noqa: F401  (registers the recursive rules)
from backend.pipelines.models import InputChange
from backend.pipelines.selectors import view_counts
from worker.runner.incremental import evaluate, literal_rows, names, typed_rows, types_of
from worker.runner.keys import has_upserts
from worker.runner.lower import WEIGHT, parse_rows, scanned
from worker.runner.state import Snapshot

LOG_ROWS = "seq:bigint,relation:string,weight:bigint,row:string"


class Contents:
    """The contents of a pipeline's relations after one step."""

    def __init__(
        self,
        spark: SparkSession,
        pipeline_id: int,
        plan: Mapping[str, Any],
        snapshot: Snapshot,
        *,
        processed_seq: int,
        through_step: int,
    ) -> None:
        self.spark = spark
        self.pipeline_id = pipeline_id
        self.snapshot = snapshot
        self.processed_seq = processed_seq
        self.through_step = through_step
        self.inputs = {r["name"]: r for r in plan["inputs"]}
        self.views = {v["name"]: v for v in plan["views"]}
        self.order = [*self.inputs, *self.views]

    def of(self, wanted: Iterable[str]) -> dict[str, DataFrame]:
        """The contents of `wanted` relations (and of the LOCAL views they need)."""
        needed: set[str] = set()
        pending = list(wanted)
        while pending:
            name = pending.pop()
            if name in needed or name not in self.order:
                continue
            needed.add(name)
            view = self.views.get(name)
            if view is not None and view.get("local"):
                pending.extend(scanned(view["query"]))
        contents: dict[str, DataFrame] = {}
        for name in self.order:  # program order: a LOCAL view after what it reads
            if name in needed:
                contents[name] = self._one(name, contents)
        return contents

    def _one(self, name: str, known: Mapping[str, DataFrame]) -> DataFrame:
        if name in self.inputs:
            relation = self.inputs[name]
            if has_upserts(relation):
                rows = self.snapshot.multisets.get(f"{name}#rows")
                return typed_rows(self.spark, rows, types_of(relation["columns"]))
            return self._logged(relation)
        view = self.views[name]
        if view.get("local"):
            return evaluate(self.spark, view["query"], known)
        counts, rows = view_counts(
            pipeline_id=self.pipeline_id, view=name, through_step=self.through_step
        )
        items = [
            {"seq": 0, "relation": name, "weight": count, "row": json.dumps(rows[key])}
            for key, count in counts.items()
        ]
        return self._parsed(view, items)

    def _logged(self, relation: Mapping[str, Any]) -> DataFrame:
        name = relation["name"]
        held = [int(h[0]) for h in self.snapshot.values.get("held", []) if h[1] == name]
        summed = (
            InputChange.objects.filter(
                pipeline_id=self.pipeline_id,
                relation=name,
                seq__lte=self.processed_seq,
                dropped=False,
            )
            .exclude(weight=0)
            .exclude(seq__in=held)
            .values("row")
            .annotate(total=Sum("weight"))
            .exclude(total=0)
        )
        items = [
            {"seq": 0, "relation": name, "weight": r["total"], "row": json.dumps(r["row"])}
            for r in summed.iterator()
        ]
        return self._parsed(relation, items)

    def _parsed(self, relation: Mapping[str, Any], items: list[dict[str, Any]]) -> DataFrame:
        rows = literal_rows(self.spark, items, LOG_ROWS)
        return parse_rows(rows, relation).select(*names(len(relation["columns"])), WEIGHT)
