"""Recording a metrics sample per step, in the step's own transaction.

A sample says what the step did (input rows, duration, rows refused) and how the
pipeline stood after it (rows in state, input sequence numbers, waterlines, each
published view's row count and insert/delete totals). Rates are over the time
since the previous sample. Only the latest `METRICS_KEEP_SAMPLES` samples of a
pipeline are kept, so the series stays bounded.
"""

from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.utils import timezone

from backend.pipelines.models import InputChange, Pipeline, PipelineMetric


@dataclass
class StepFigures:
    """What the runner measured of one step."""

    input_rows: int
    duration_ms: float
    processed_seq: int
    state_rows: int = 0
    waterlines: dict[str, str] = field(default_factory=dict)


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
    late_rows: int,
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
    sample = PipelineMetric.objects.create(
        pipeline=pipeline,
        step=step,
        time=now,
        input_rows=figures.input_rows,
        duration_ms=figures.duration_ms,
        state_rows=figures.state_rows,
        late_rows=late_rows,
        processed_seq=figures.processed_seq,
        ingested_seq=pipeline.ingested_seq,
        lag_ms=lag_ms(pipeline, figures.processed_seq, now),
        input_rows_per_second=round(ingested / seconds, 3),
        processed_rows_per_second=round(figures.input_rows / seconds, 3),
        waterlines=figures.waterlines,
        views=views,
    )
    PipelineMetric.objects.filter(
        pipeline=pipeline, step__lte=step - settings.METRICS_KEEP_SAMPLES
    ).delete()
    return sample
