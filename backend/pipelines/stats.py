"""Reads of a pipeline's metrics: stats, the sample series, dashboard summaries, Prometheus.

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

RATE_WINDOW_S = 60
DURATION_SAMPLES = 100  # the step durations p50 and p95 are taken over


def _published_views(pipeline: Pipeline) -> list[str]:
    plan = pipeline.program_version.plan or {}
    return [v["name"] for v in plan.get("views", []) if not v.get("local")]


def _rates(sample: PipelineMetric | None, now: dt.datetime) -> tuple[float, float]:
    if sample is None or (now - sample.time).total_seconds() > RATE_WINDOW_S:
        return 0.0, 0.0
    return sample.input_rows_per_second, sample.processed_rows_per_second


def _errors(pipelines: Iterable[Pipeline]) -> dict[int, int]:
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
    errors = _errors(pipelines)
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
            "errors": errors.get(pipeline.pk, 0),
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
    views = sample.views if sample else {}
    return {
        "pipeline": pipeline.name,
        "state": pipeline.state,
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
        "views": [
            {
                "name": name,
                "rows": views.get(name, [0, 0, 0])[0],
                "inserts_total": views.get(name, [0, 0, 0])[1],
                "deletes_total": views.get(name, [0, 0, 0])[2],
            }
            for name in _published_views(pipeline)
        ],
        "errors": _errors([pipeline]).get(pipeline.pk, 0),
    }


def pipeline_metric_series(
    *, pipeline: Pipeline, since: dt.datetime | None = None, limit: int = 300
) -> list[PipelineMetric]:
    """The latest `limit` samples (after `since`), oldest first."""
    samples: QuerySet[PipelineMetric] = PipelineMetric.objects.filter(pipeline=pipeline)
    if since is not None:
        samples = samples.filter(time__gt=since)
    return list(reversed(samples.order_by("-step")[:limit]))


def _label(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


PROMETHEUS_METRICS = (
    ("weir_pipeline_state", "gauge", "1 for the pipeline's current state"),
    ("weir_pipeline_input_rows_total", "counter", "changes accepted by the ingress"),
    ("weir_pipeline_processed_rows_per_second", "gauge", "input rows per second of the last step"),
    ("weir_pipeline_step_duration_ms", "gauge", "duration of the last step"),
    ("weir_pipeline_state_rows", "gauge", "rows kept by stateful operators"),
    ("weir_pipeline_late_rows_total", "counter", "input rows refused as late or out of order"),
    ("weir_pipeline_lag_rows", "gauge", "accepted changes not processed yet"),
    ("weir_view_rows", "gauge", "rows in a view"),
)


def prometheus_text(pipelines: Iterable[Pipeline]) -> str:
    """Every pipeline's figures in Prometheus' text exposition format (version 0.0.4)."""
    pipelines = list(pipelines)
    samples = latest_samples(pipelines)
    summaries = pipeline_summaries(pipelines)
    lines: dict[str, list[str]] = {name: [] for name, _, _ in PROMETHEUS_METRICS}
    for pipeline in pipelines:
        p = f'pipeline="{_label(pipeline.name)}"'
        sample = samples.get(pipeline.pk)
        summary = summaries[pipeline.pk]
        lines["weir_pipeline_state"].append(f'{{{p},state="{pipeline.state}"}} 1')
        lines["weir_pipeline_input_rows_total"].append(f"{{{p}}} {pipeline.ingested_seq}")
        lines["weir_pipeline_processed_rows_per_second"].append(
            f"{{{p}}} {summary['processed_rows_per_second']}"
        )
        if sample is not None:
            lines["weir_pipeline_step_duration_ms"].append(f"{{{p}}} {sample.duration_ms}")
            lines["weir_pipeline_state_rows"].append(f"{{{p}}} {sample.state_rows}")
        for relation, count in sorted(pipeline.dropped_counts.items()):
            lines["weir_pipeline_late_rows_total"].append(
                f'{{{p},relation="{_label(relation)}"}} {count}'
            )
        lines["weir_pipeline_lag_rows"].append(f"{{{p}}} {summary['lag_rows']}")
        views = sample.views if sample else {}
        for view in _published_views(pipeline):
            rows = views.get(view, [0])[0]
            lines["weir_view_rows"].append(f'{{{p},view="{_label(view)}"}} {rows}')
    text = []
    for name, kind, help_ in PROMETHEUS_METRICS:
        text.append(f"# HELP {name} {help_}")
        text.append(f"# TYPE {name} {kind}")
        text.extend(name + line for line in lines[name])
    return "\n".join(text) + "\n"
