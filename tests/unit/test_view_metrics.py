"""Per view metrics: each view's figures from its inputs (through views and pumps) and its
own state, in the stats, the sample series and the Prometheus text. Steps are recorded
as the runner records them (pipeline_record_step) on the test database."""

import re
from typing import Any

import pytest

from backend.accounts.services import user_ensure
from backend.pipelines import prometheus, stats, view_stats
from backend.pipelines.lineage import state_by_owner, view_inputs
from backend.pipelines.metrics import StepFigures
from backend.pipelines.models import InputChange, Pipeline, PipelineMetric
from backend.pipelines.services import pipeline_create, pipeline_record_step
from backend.programs.services import program_create

PROGRAM = """\
CREATE TABLE t (k INT NOT NULL, x INT, at TIMESTAMP NOT NULL LATENESS INTERVAL '1' HOUR);
CREATE STREAM s (x INT);
CREATE STREAM s2 (x INT);
CREATE VIEW per_k AS SELECT k, COUNT(*) AS n FROM t GROUP BY k;
CREATE VIEW big AS SELECT k, n FROM per_k WHERE n > 1;
CREATE VIEW fed AS SELECT STREAM x FROM s2;
CREATE PUMP p AS INSERT INTO s2 SELECT STREAM ROWTIME, x FROM s;
"""
ROW_T = {"k": 1, "x": 1, "at": "2026-01-01 10:00:00"}
ROW_S = {"x": 1, "rowtime": "2026-01-01 10:00:00"}


def a_pipeline(name: str) -> Pipeline:
    user = user_ensure(username="ops", password=None, team="ops")
    program_create(user=user, name=name, sql=PROGRAM)
    return pipeline_create(user=user, name=name, program=name)


def accept(pipeline: Pipeline, relation: str, n: int, row: dict[str, Any]) -> int:
    """`n` entries of `relation` in the input log, as the ingress leaves them; the last seq."""
    first = Pipeline.objects.get(pk=pipeline.pk).ingested_seq + 1
    InputChange.objects.bulk_create(
        InputChange(pipeline=pipeline, seq=first + i, relation=relation, weight=1, row=row)
        for i in range(n)
    )
    Pipeline.objects.filter(pk=pipeline.pk).update(ingested_seq=first + n - 1)
    return first + n - 1


def by_name(views: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {v["name"]: v for v in views}


def test_a_view_reads_its_inputs_through_views_and_pumps() -> None:
    from backend.compiler import compile_program

    plan = compile_program(PROGRAM).to_json()["plan"]
    assert view_inputs(plan) == {"per_k": ["t"], "big": ["t"], "fed": ["s", "s2"]}
    keys = {"per_k.i": 3, "per_k#pending": 1, "big.i.i": 2, "t#rows": 5, "pump:p#held:s": 4}
    assert state_by_owner(plan, keys) == {"per_k": 4, "big": 2, "t": 5, "pump:p": 4}


@pytest.mark.django_db(transaction=True)
def test_stats_series_and_prometheus_carry_each_views_figures() -> None:
    pipeline = a_pipeline("per-view")
    accept(pipeline, "t", 3, ROW_T)
    through = accept(pipeline, "s", 2, ROW_S)
    late = [{"relation": "t", "row": ROW_T, "reason": "late"}]
    lines = {"t.at": "2026-01-01 09:00:00", "s.rowtime": "2026-01-01 10:00:00"}
    state = {"per_k.i": 3, "big.i.i": 1, "pump:p#held:s": 2}
    pipeline_record_step(
        pipeline_id=pipeline.pk, batch_id=0, deltas={}, dropped=late,
        figures=StepFigures(input_rows=5, duration_ms=120.0, processed_seq=through,
                            state_rows=6, state_rows_by_key=state, waterlines=lines),
    )  # fmt: skip
    through = accept(pipeline, "t", 4, ROW_T)
    pipeline_record_step(
        pipeline_id=pipeline.pk, batch_id=1, deltas={},
        figures=StepFigures(input_rows=4, duration_ms=80.0, processed_seq=through,
                            state_rows_by_key={"per_k.i": 7},
                            waterlines={"t.at": "2026-01-01 09:00:00"}),
    )  # fmt: skip
    accept(pipeline, "s", 6, ROW_S)  # waiting: not processed by any step yet

    first, second = PipelineMetric.objects.filter(pipeline=pipeline).order_by("step")
    assert first.relations["t"]["step_rows"] == 3 and first.relations["s"]["step_rows"] == 2
    assert first.relations["s2"]["step_rows"] == 0
    assert (second.relations["t"]["ingested_total"], second.relations["t"]["processed_total"]) == (
        7,
        7,
    )
    assert second.state_by == {"per_k": 7}
    assert second.waterlines == lines, "a waterline the step did not compute still holds"

    pipeline.refresh_from_db()
    views = by_name(stats.pipeline_stats(pipeline=pipeline)["views"])
    assert list(views) == ["per_k", "big", "fed"]
    per_k, big, fed = views["per_k"], views["big"], views["fed"]
    assert per_k["inputs"] == ["t"] and fed["inputs"] == ["s", "s2"]
    assert per_k["processed_rows_per_second"] > 0 and per_k["input_rows_per_second"] > 0
    assert fed["processed_rows_per_second"] == 0, "the last step brought s nothing"
    assert per_k["step_duration_ms"] == 80.0 and fed["step_duration_ms"] == 120.0
    assert (per_k["state_rows"], big["state_rows"], fed["state_rows"]) == (7, 0, 0)
    assert (per_k["late_rows"], big["late_rows"], fed["late_rows"]) == (1, 1, 0)
    assert (per_k["lag_rows"], fed["lag_rows"]) == (0, 6)
    assert fed["lag_ms"] > 0 and per_k["lag_ms"] == 0
    assert per_k["waterlines"] == {"t.at": "2026-01-01 09:00:00"}
    assert fed["waterlines"] == {"s.rowtime": "2026-01-01 10:00:00"}

    series = stats.pipeline_metric_series(pipeline=pipeline)
    plan = pipeline.program_version.plan
    step_one = by_name(view_stats.sample_views(plan, series[0]))
    assert (step_one["per_k"]["late_rows"], step_one["fed"]["state_rows"]) == (1, 0)
    assert step_one["big"]["state_rows"] == 1 and step_one["fed"]["step_duration_ms"] == 120.0
    step_two = by_name(view_stats.sample_views(plan, series[1]))
    assert step_two["fed"]["step_duration_ms"] is None, "the step did not touch fed's inputs"
    assert step_two["per_k"]["late_rows"] == 0 and step_two["per_k"]["lag_rows"] == 0

    text = prometheus.prometheus_text([pipeline])
    p = 'team="ops",pipeline="per-view"'
    for line in (
        f'weir_view_lag_rows{{{p},view="fed"}} 6',
        f'weir_view_state_rows{{{p},view="per_k"}} 7',
        f'weir_view_late_rows_total{{{p},view="big"}} 1',
        f'weir_pipeline_waterline{{{p},relation="t",column="at"}} 1767258000.0',
        f"weir_pipeline_errors_total{{{p}}} 0",
        f"weir_pipeline_lag_rows{{{p}}} 6",
    ):
        assert line in text.splitlines(), line
    assert re.search(rf"^weir_pipeline_input_rows_per_second\{{{p}\}} [0-9.]+$", text, re.M)
    assert re.search(rf"^weir_pipeline_lag_ms\{{{p}\}} [1-9][0-9.]*$", text, re.M)
    assert re.search(rf'^weir_view_input_rows_per_second\{{{p},view="per_k"\}} [1-9]', text, re.M)
    for line in text.splitlines():
        assert line.startswith("#") or re.fullmatch(r"[a-z_]+\{[^}]*\} \S+", line), line
