"""Recording a metrics sample per step, in the step's own transaction.

A sample says what the step did (input rows, duration, rows refused) and how the
pipeline stood after it (rows in state, input sequence numbers, waterlines, each
published view's row count and insert/delete totals), and the same per input relation
(entries accepted and processed, rates, refused rows, lag) and per state owner: a view's
figures are made of these (stats.py, lineage.py). Rates are over the time since the
previous sample. Only the latest `METRICS_KEEP_SAMPLES` samples of a pipeline are kept,
so the series stays bounded.
"""

import datetime as dt
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db.models import Count
from django.utils import timezone

from backend.pipelines.lineage import state_by_owner
from backend.pipelines.models import InputChange, Pipeline, PipelineMetric
from backend.programs.models import ProgramVersion


@dataclass
class StepFigures:
    """What the runner measured of one step."""

    input_rows: int
    duration_ms: float
    processed_seq: int
    state_rows: int = 0
    waterlines: dict[str, str] = field(default_factory=dict)
    state_rows_by_key: dict[str, int] = field(default_factory=dict)


def lag_ms(pipeline: Pipeline, processed_seq: int, now: Any) -> float:
    """How long the oldest input not yet processed has waited (0 when there is none)."""
    if pipeline.ingested_seq <= processed_seq:
        return 0.0
    waiting = (
        InputChange.objects.filter(pipeline=pipeline, seq=processed_seq + 1)
        .values_list("accepted_at", flat=True)
        .first()
    )
    return 0.0 if waiting is None else max((now - waiting).total_seconds() * 1000, 0.0)


def record_sample(
    *,
    pipeline: Pipeline,
    step: int,
    figures: StepFigures,
    dropped: list[dict[str, Any]],
    deltas: dict[str, list[dict[str, Any]]],
) -> PipelineMetric:
    """Store the sample of `step` (the caller holds the pipeline's row lock)."""
    now = timezone.now()
    previous = PipelineMetric.objects.filter(pipeline=pipeline).order_by("-step").first()
    if previous is not None:
        seconds = max((now - previous.time).total_seconds(), 1e-3)
        ingested = pipeline.ingested_seq - previous.ingested_seq
    else:
        seconds = max(figures.duration_ms / 1000, 1e-3)
        ingested = figures.input_rows
    views: dict[str, list[int]] = {
        k: list(v) for k, v in (previous.views if previous else {}).items()
    }
    for view, changes in deltas.items():
        inserts = sum(1 for change in changes if "insert" in change)
        rows, inserted, deleted = views.get(view, [0, 0, 0])
        deletes = len(changes) - inserts
        views[view] = [rows + inserts - deletes, inserted + inserts, deleted + deletes]
    plan = ProgramVersion.objects.values_list("plan", flat=True).get(pk=pipeline.program_version_id)
    sample = PipelineMetric.objects.create(
        pipeline=pipeline,
        step=step,
        time=now,
        input_rows=figures.input_rows,
        duration_ms=figures.duration_ms,
        state_rows=figures.state_rows,
        late_rows=len(dropped),
        processed_seq=figures.processed_seq,
        ingested_seq=pipeline.ingested_seq,
        lag_ms=lag_ms(pipeline, figures.processed_seq, now),
        input_rows_per_second=round(ingested / seconds, 3),
        processed_rows_per_second=round(figures.input_rows / seconds, 3),
        # A step that does not run an emit_final view does not compute its waterline:
        # the last one computed still holds (waterlines only rise).
        waterlines={**(previous.waterlines if previous else {}), **figures.waterlines},
        views=views,
        relations=_relation_figures(
            pipeline, plan or {}, previous, figures, dropped, seconds=seconds, now=now
        ),
        state_by=state_by_owner(plan or {}, figures.state_rows_by_key),
    )
    PipelineMetric.objects.filter(
        pipeline=pipeline, step__lte=step - settings.METRICS_KEEP_SAMPLES
    ).delete()
    return sample


def _counts(pipeline: Pipeline, after: int, through: int) -> Counter[str]:
    """Input-log entries per relation with sequence numbers in (after, through]."""
    if through <= after:
        return Counter()
    rows = (
        InputChange.objects.filter(pipeline=pipeline, seq__gt=after, seq__lte=through)
        .values("relation")
        .annotate(n=Count("id"))
    )
    return Counter({row["relation"]: row["n"] for row in rows})


def _relation_figures(
    pipeline: Pipeline,
    plan: dict[str, Any],
    previous: PipelineMetric | None,
    figures: StepFigures,
    dropped: list[dict[str, Any]],
    *,
    seconds: float,
    now: dt.datetime,
) -> dict[str, dict[str, Any]]:
    """Each input's figures after the step. Counting costs what the step and the ingress
    since the previous sample did (two ranges of the input log), not the backlog."""
    before = previous.relations if previous else {}
    processed_from = previous.processed_seq if previous else 0
    step_rows = _counts(pipeline, processed_from, figures.processed_seq)
    # Before the first sample every accepted entry is new; its rate is the step's.
    ingested = _counts(pipeline, previous.ingested_seq if previous else 0, pipeline.ingested_seq)
    late = Counter(item["relation"] for item in dropped)
    figures_by_relation = {}
    for relation in (r["name"] for r in plan.get("inputs", [])):
        was = before.get(relation, {})
        ingested_total = was.get("ingested_total", 0) + ingested[relation]
        processed_total = was.get("processed_total", 0) + step_rows[relation]
        arrived = ingested[relation] if previous else step_rows[relation]
        figures_by_relation[relation] = {
            "ingested_total": ingested_total,
            "processed_total": processed_total,
            "step_rows": step_rows[relation],
            "late_rows": late[relation],
            "input_rows_per_second": round(arrived / seconds, 3),
            "processed_rows_per_second": round(step_rows[relation] / seconds, 3),
            "lag_ms": _relation_lag_ms(
                pipeline, relation, figures.processed_seq, ingested_total - processed_total, now
            ),
        }
    return figures_by_relation


def _relation_lag_ms(
    pipeline: Pipeline, relation: str, processed_seq: int, waiting: int, now: dt.datetime
) -> float:
    """How long the relation's oldest entry not yet processed has waited."""
    if waiting <= 0:
        return 0.0
    oldest = (
        InputChange.objects.filter(pipeline=pipeline, relation=relation, seq__gt=processed_seq)
        .order_by("seq")
        .values_list("accepted_at", flat=True)
        .first()
    )
    return 0.0 if oldest is None else round(max((now - oldest).total_seconds() * 1000, 0.0), 3)
