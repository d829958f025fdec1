"""Every visible pipeline's and view's figures in Prometheus' text exposition format
(version 0.0.4): what `GET /metrics` answers a scraper (docs/api.md, "Stats and metrics")."""

import datetime as dt
from collections.abc import Iterable
from typing import Any

from django.utils import timezone

from backend.pipelines.metrics import lag_ms
from backend.pipelines.models import Pipeline
from backend.pipelines.stats import errors, latest_samples, pipeline_summaries, rates_fresh
from backend.pipelines.view_stats import current_views

PROMETHEUS_METRICS = (
    ("weir_pipeline_state", "gauge", "1 for the pipeline's current state"),
    ("weir_pipeline_input_rows_total", "counter", "changes accepted by the ingress"),
    ("weir_pipeline_input_rows_per_second", "gauge", "changes accepted per second, lately"),
    ("weir_pipeline_processed_rows_per_second", "gauge", "input rows per second of the last step"),
    ("weir_pipeline_step_duration_ms", "gauge", "duration of the last step"),
    ("weir_pipeline_state_rows", "gauge", "rows kept by stateful operators"),
    ("weir_pipeline_late_rows_total", "counter", "input rows refused as late or out of order"),
    ("weir_pipeline_lag_rows", "gauge", "accepted changes not processed yet"),
    ("weir_pipeline_lag_ms", "gauge", "how long the oldest change not processed yet has waited"),
    (
        "weir_pipeline_waterline",
        "gauge",
        "a column's waterline (LATENESS, a stream's clock, an emit_final view): Unix seconds "
        "for times and dates, the value for numbers",
    ),
    ("weir_pipeline_errors_total", "counter", "how many times the pipeline failed"),
    ("weir_view_rows", "gauge", "rows in a view"),
    ("weir_view_input_rows_per_second", "gauge", "changes accepted per second for its inputs"),
    ("weir_view_processed_rows_per_second", "gauge", "its inputs' rows processed per second"),
    ("weir_view_state_rows", "gauge", "rows its own stateful operators keep"),
    ("weir_view_late_rows_total", "counter", "rows its inputs refused as late or out of order"),
    ("weir_view_lag_rows", "gauge", "its inputs' changes not processed yet"),
    ("weir_view_lag_ms", "gauge", "how long the oldest of them has waited"),
)


def _label(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def waterline_value(text: str) -> float | None:
    """A waterline as a sample value: numbers as they are, timestamps and dates (UTC, as
    Weir's times are) as Unix seconds; None for anything else.

    >>> [waterline_value(t) for t in ("1970-01-02 00:00:01.5", "1970-01-02", "7", "x")]
    [86401.5, 86400.0, 7.0, None]
    """
    try:
        return float(text)
    except ValueError:
        pass
    try:
        moment = dt.datetime.fromisoformat(text)
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt.UTC)
    return moment.timestamp()


def prometheus_text(pipelines: Iterable[Pipeline]) -> str:
    """Every pipeline's figures in Prometheus' text exposition format (version 0.0.4)."""
    pipelines = list(pipelines)
    samples = latest_samples(pipelines)
    summaries = pipeline_summaries(pipelines)
    failures = errors(pipelines)
    now = timezone.now()
    lines: dict[str, list[str]] = {name: [] for name, _, _ in PROMETHEUS_METRICS}
    for pipeline in pipelines:
        # Names are unique within a team only: the team label keeps two series apart.
        p = f'team="{_label(pipeline.team.name)}",pipeline="{_label(pipeline.name)}"'
        sample = samples.get(pipeline.pk)
        summary = summaries[pipeline.pk]

        def add(metric: str, value: Any, labels: str = "", p: str = p) -> None:
            lines[metric].append(f"{{{p}{labels}}} {value}")

        add("weir_pipeline_state", 1, f',state="{pipeline.state}"')
        add("weir_pipeline_input_rows_total", pipeline.ingested_seq)
        add("weir_pipeline_input_rows_per_second", summary["input_rows_per_second"])
        add("weir_pipeline_processed_rows_per_second", summary["processed_rows_per_second"])
        if sample is not None:
            add("weir_pipeline_step_duration_ms", sample.duration_ms)
            add("weir_pipeline_state_rows", sample.state_rows)
        for relation, count in sorted(pipeline.dropped_counts.items()):
            add("weir_pipeline_late_rows_total", count, f',relation="{_label(relation)}"')
        add("weir_pipeline_lag_rows", summary["lag_rows"])
        add("weir_pipeline_lag_ms", round(lag_ms(pipeline, pipeline.processed_seq, now), 3))
        for key, text in sorted((sample.waterlines if sample else {}).items()):
            value = waterline_value(text)
            if value is not None:
                relation, _, column = key.rpartition(".")
                labels = f',relation="{_label(relation)}",column="{_label(column)}"'
                add("weir_pipeline_waterline", value, labels)
        add("weir_pipeline_errors_total", failures.get(pipeline.pk, 0))
        recent = [sample] if sample else []
        for view in current_views(pipeline, recent, fresh=rates_fresh(sample, now), now=now):
            v = f',view="{_label(view["name"])}"'
            add("weir_view_rows", view["rows"], v)
            add("weir_view_input_rows_per_second", view["input_rows_per_second"], v)
            add("weir_view_processed_rows_per_second", view["processed_rows_per_second"], v)
            add("weir_view_state_rows", view["state_rows"], v)
            add("weir_view_late_rows_total", view["late_rows"], v)
            add("weir_view_lag_rows", view["lag_rows"], v)
            add("weir_view_lag_ms", view["lag_ms"], v)
    text = []
    for name, kind, help_ in PROMETHEUS_METRICS:
        text.append(f"# HELP {name} {help_}")
        text.append(f"# TYPE {name} {kind}")
        text.extend(name + line for line in lines[name])
    return "\n".join(text) + "\n"
