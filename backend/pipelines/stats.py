"""Reads of a pipeline's metrics: stats, the sample series, dashboard summaries (the
Prometheus text: prometheus.py; each view's figures: view_stats.py).

Rates come from the latest sample (over the time since the sample before it);
when no step was recorded for `RATE_WINDOW_S`, nothing is flowing and they are 0.
"""

import datetime as dt
import statistics
from collections.abc import Iterable
from typing import Any

from django.db.models import Count, QuerySet
from django.utils import timezone

from backend.pipelines.metrics import lag_ms
from backend.pipelines.models import Pipeline, PipelineEvent, PipelineMetric, State
from backend.pipelines.view_stats import current_views

RATE_WINDOW_S = 60
DURATION_SAMPLES = 100  # the step durations p50 and p95 are taken over


def rates_fresh(sample: PipelineMetric | None, now: dt.datetime) -> bool:
    """Was a step recorded lately (else nothing flows, and rates are 0)?"""
    return sample is not None and (now - sample.time).total_seconds() <= RATE_WINDOW_S


def _rates(sample: PipelineMetric | None, now: dt.datetime) -> tuple[float, float]:
    if sample is None or not rates_fresh(sample, now):
        return 0.0, 0.0
    return sample.input_rows_per_second, sample.processed_rows_per_second


def errors(pipelines: Iterable[Pipeline]) -> dict[int, int]:
    """How many times each pipeline failed."""
    failed = (
        PipelineEvent.objects.filter(pipeline__in=list(pipelines), to_state=State.FAILED)
        .values("pipeline_id")
        .annotate(n=Count("id"))
    )
    return {row["pipeline_id"]: row["n"] for row in failed}


def latest_samples(pipelines: Iterable[Pipeline]) -> dict[int, PipelineMetric]:
    """Each pipeline's latest metrics sample, in one query."""
    latest = (
        PipelineMetric.objects.filter(pipeline__in=list(pipelines))
        .order_by("pipeline_id", "-step")
        .distinct("pipeline_id")
    )
    return {sample.pipeline_id: sample for sample in latest}


def pipeline_summaries(pipelines: Iterable[Pipeline]) -> dict[int, dict[str, Any]]:
    """The dashboard figures of each pipeline (`Pipeline.summary`)."""
    pipelines = list(pipelines)
    samples = latest_samples(pipelines)
    failures = errors(pipelines)
    now = timezone.now()
    summaries = {}
    for pipeline in pipelines:
        sample = samples.get(pipeline.pk)
        inputs, processed = _rates(sample, now)
        summaries[pipeline.pk] = {
            "input_rows_per_second": inputs,
            "processed_rows_per_second": processed,
            "lag_rows": pipeline.ingested_seq - pipeline.processed_seq,
            "late_rows": sum(pipeline.dropped_counts.values()),
            "errors": failures.get(pipeline.pk, 0),
            "last_step_duration_ms": sample.duration_ms if sample else None,
        }
    return summaries


def _percentile(values: list[float], fraction: float) -> float | None:
    if not values:
        return None
    if len(values) == 1:
        return values[0]
    return round(
        statistics.quantiles(values, n=100, method="inclusive")[int(fraction * 100) - 1], 3
    )


def pipeline_stats(*, pipeline: Pipeline) -> dict[str, Any]:
    """Where the pipeline stands: input, progress, lag, rates, state, late rows, views."""
    now = timezone.now()
    recent = list(
        PipelineMetric.objects.filter(pipeline=pipeline).order_by("-step")[:DURATION_SAMPLES]
    )
    sample = recent[0] if recent else None
    durations = [s.duration_ms for s in recent]
    inputs, processed = _rates(sample, now)
    return {
        "pipeline": pipeline.name,
        "team": pipeline.team.name,
        "state": pipeline.state,
        "run": pipeline.run,
        "last_step": pipeline.last_step,
        "input_rows_total": pipeline.ingested_seq,
        "ingested_seq": pipeline.ingested_seq,
        "processed_seq": pipeline.processed_seq,
        "lag_rows": pipeline.ingested_seq - pipeline.processed_seq,
        "lag_ms": round(lag_ms(pipeline, pipeline.processed_seq, now), 3),
        "input_rows_per_second": inputs,
        "processed_rows_per_second": processed,
        "step_duration_ms": {
            "last": durations[0] if durations else None,
            "p50": _percentile(durations, 0.5),
            "p95": _percentile(durations, 0.95),
        },
        "state_rows": sample.state_rows if sample else 0,
        "late_rows": dict(pipeline.dropped_counts),
        "late_rows_total": sum(pipeline.dropped_counts.values()),
        "waterlines": sample.waterlines if sample else {},
        "views": current_views(pipeline, recent, fresh=rates_fresh(sample, now), now=now),
        "errors": errors([pipeline]).get(pipeline.pk, 0),
    }


def pipeline_metric_series(
    *, pipeline: Pipeline, since: dt.datetime | None = None, limit: int = 300
) -> list[PipelineMetric]:
    """The latest `limit` samples (after `since`), oldest first."""
    samples: QuerySet[PipelineMetric] = PipelineMetric.objects.filter(pipeline=pipeline)
    if since is not None:
        samples = samples.filter(time__gt=since)
    return list(reversed(samples.order_by("-step")[:limit]))
