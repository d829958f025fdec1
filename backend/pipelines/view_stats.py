"""Each published view's figures: made of its inputs' figures (the tables and streams it
reads, through other views and pumps: lineage.py) and of the state its own operators keep.

All of a step's views are computed in one Spark job, so a view's step duration is that of
the latest step that brought its inputs changes; its rates are its inputs' entries (rows,
deletes, rowtime bounds) accepted and processed per second; its lag is its inputs' entries
not processed yet, and how long the oldest of them has waited.
"""

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any

from django.db.models import Count, Min

from backend.pipelines.lineage import view_inputs
from backend.pipelines.models import InputChange, Pipeline, PipelineMetric


def published_views(plan: Mapping[str, Any]) -> list[str]:
    return [v["name"] for v in plan.get("views", []) if not v.get("local")]


def _waterlines(sample: PipelineMetric | None, names: Sequence[str]) -> dict[str, str]:
    lines = sample.waterlines if sample else {}
    return {k: v for k, v in lines.items() if any(k.startswith(f"{n}.") for n in names)}


def _sample_figures(
    view: str, inputs: Sequence[str], sample: PipelineMetric | None
) -> dict[str, Any]:
    """A view's figures after the step of `sample` (zeros before any)."""
    relations = [sample.relations.get(r, {}) for r in inputs] if sample else []
    rows, inserted, deleted = (sample.views if sample else {}).get(view, [0, 0, 0])
    stepped = any(r.get("step_rows", 0) for r in relations)
    return {
        "name": view,
        "inputs": list(inputs),
        "rows": rows,
        "inserts_total": inserted,
        "deletes_total": deleted,
        "input_rows_per_second": round(
            sum(r.get("input_rows_per_second", 0.0) for r in relations), 3
        ),
        "processed_rows_per_second": round(
            sum(r.get("processed_rows_per_second", 0.0) for r in relations), 3
        ),
        "step_duration_ms": sample.duration_ms if sample and stepped else None,
        "state_rows": (sample.state_by if sample else {}).get(view, 0),
        "late_rows": sum(r.get("late_rows", 0) for r in relations),
        "lag_rows": sum(
            r.get("ingested_total", 0) - r.get("processed_total", 0) for r in relations
        ),
        "lag_ms": max((r.get("lag_ms", 0.0) for r in relations), default=0.0),
        "waterlines": _waterlines(sample, [*inputs, view]),
    }


def sample_views(plan: Mapping[str, Any], sample: PipelineMetric) -> list[dict[str, Any]]:
    """Every published view's figures in one sample of the series (`late_rows`: refused
    by its inputs in that step; `step_duration_ms`: null when the step did not touch it)."""
    inputs = view_inputs(plan)
    return [_sample_figures(v, inputs[v], sample) for v in published_views(plan)]


def waiting_inputs(pipeline: Pipeline) -> dict[str, tuple[int, dt.datetime]]:
    """Per relation: its entries not processed yet, and when the oldest was accepted."""
    rows = (
        InputChange.objects.filter(pipeline=pipeline, seq__gt=pipeline.processed_seq)
        .values("relation")
        .annotate(n=Count("id"), oldest=Min("accepted_at"))
    )
    return {row["relation"]: (row["n"], row["oldest"]) for row in rows}


def current_views(
    pipeline: Pipeline, recent: Sequence[PipelineMetric], *, fresh: bool, now: dt.datetime
) -> list[dict[str, Any]]:
    """Every published view's figures now: its latest sample's, with rates 0 when no step
    ran lately (`fresh` false), late rows and lag counted as of now.

    `recent`: the latest samples, newest first.
    """
    plan = pipeline.program_version.plan or {}
    inputs = view_inputs(plan)
    latest = recent[0] if recent else None
    waiting = waiting_inputs(pipeline)
    figures = []
    for view in published_views(plan):
        mine = inputs[view]
        found = _sample_figures(view, mine, latest)
        if not fresh:
            found["input_rows_per_second"] = found["processed_rows_per_second"] = 0.0
        found["step_duration_ms"] = next(
            (
                s.duration_ms
                for s in recent
                if any(s.relations.get(r, {}).get("step_rows") for r in mine)
            ),
            None,
        )
        found["late_rows"] = sum(pipeline.dropped_counts.get(r, 0) for r in mine)
        found["lag_rows"] = sum(waiting[r][0] for r in mine if r in waiting)
        oldest = [waiting[r][1] for r in mine if r in waiting]
        found["lag_ms"] = (
            round(max((now - min(oldest)).total_seconds() * 1000, 0.0), 3) if oldest else 0.0
        )
        figures.append(found)
    return figures
