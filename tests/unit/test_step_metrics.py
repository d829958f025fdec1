import pytest
from django.test import override_settings

from backend.accounts.services import user_ensure
from backend.pipelines.metrics import StepFigures
from backend.pipelines.models import InputChange, Pipeline, PipelineMetric
from backend.pipelines.services import pipeline_create, pipeline_record_step
from backend.programs.services import program_create

PROGRAM = "CREATE TABLE t (x INT);\nCREATE VIEW v AS SELECT x FROM t;\n"


def a_pipeline(name: str) -> Pipeline:
    user = user_ensure(username="ops", password=None, team="ops")
    program_create(user=user, name=name, sql=PROGRAM)
    return pipeline_create(user=user, name=name, program=name)


def accept(pipeline: Pipeline, *xs: int) -> None:
    """Rows in the input log, as the ingress leaves them."""
    first = Pipeline.objects.get(pk=pipeline.pk).ingested_seq + 1
    for offset, x in enumerate(xs):
        InputChange.objects.create(
            pipeline=pipeline, seq=first + offset, relation="t", weight=1, row={"x": x}
        )
    Pipeline.objects.filter(pk=pipeline.pk).update(ingested_seq=first + len(xs) - 1)


def step(pipeline: Pipeline, batch: int, seq: int, deltas: dict, **kwargs) -> None:
    figures = StepFigures(input_rows=2, duration_ms=5.0, processed_seq=seq, state_rows=batch)
    pipeline_record_step(
        pipeline_id=pipeline.pk, batch_id=batch, figures=figures, deltas=deltas, **kwargs
    )


@pytest.mark.django_db(transaction=True)
def test_a_sample_per_step_counts_view_rows_lag_and_refused_rows() -> None:
    pipeline = a_pipeline("metrics")
    accept(pipeline, 1, 2, 3, 4, 5)
    step(pipeline, 0, 2, {"v": [{"insert": {"x": 1}}, {"insert": {"x": 2}}]})
    step(
        pipeline, 1, 4, {"v": [{"delete": {"x": 1}}, {"insert": {"x": 4}}]},
        dropped=[{"relation": "t", "row": {"x": 3}, "reason": "late"}], dropped_seqs=[3],
    )  # fmt: skip
    first, second = PipelineMetric.objects.filter(pipeline=pipeline)
    assert (first.step, first.views, first.lag_rows) == (1, {"v": [2, 2, 0]}, 3)
    assert (second.step, second.views, second.lag_rows) == (2, {"v": [2, 3, 1]}, 1)
    assert (second.late_rows, second.state_rows, second.processed_seq) == (1, 1, 4)
    assert second.lag_ms > 0, "seq 5 waits"
    assert second.processed_rows_per_second > 0
    dropped = InputChange.objects.filter(pipeline=pipeline, dropped=True)
    assert list(dropped.values_list("seq", flat=True)) == [3]
    assert Pipeline.objects.get(pk=pipeline.pk).processed_seq == 4


@pytest.mark.django_db(transaction=True)
@override_settings(METRICS_KEEP_SAMPLES=3)
def test_only_the_latest_samples_are_kept_and_totals_carry_on() -> None:
    pipeline = a_pipeline("bounded")
    for batch in range(6):
        accept(pipeline, batch)
        step(pipeline, batch, batch + 1, {"v": [{"insert": {"x": batch}}]})
    kept = PipelineMetric.objects.filter(pipeline=pipeline)
    assert [m.step for m in kept] == [4, 5, 6]
    assert kept.last().views == {"v": [6, 6, 0]}
    assert kept.last().lag_ms == 0.0
