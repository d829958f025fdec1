import pytest

from backend.accounts.services import user_ensure
from backend.pipelines.metrics import StepFigures
from backend.pipelines.models import DroppedRow, Pipeline
from backend.pipelines.services import pipeline_create, pipeline_record_step
from backend.programs.services import program_create

PROGRAM = "CREATE TABLE t (x INT);\nCREATE VIEW v AS SELECT x FROM t;\n"


@pytest.mark.django_db(transaction=True)
def test_refused_rows_are_counted_and_logged_in_powers_of_ten() -> None:
    user = user_ensure(username="ops", password=None, team="ops")
    program_create(user=user, name="late", sql=PROGRAM)
    pipeline = pipeline_create(user=user, name="late", program="late")
    late = [{"relation": "t", "row": {"x": i}, "reason": "late"} for i in range(1, 13)]
    step = pipeline_record_step(
        pipeline_id=pipeline.pk, batch_id=0, figures=StepFigures(12, 1.0, 12), deltas={},
        dropped=late[:5],
    )  # fmt: skip
    pipeline_record_step(
        pipeline_id=pipeline.pk, batch_id=1, figures=StepFigures(7, 1.0, 19), deltas={},
        dropped=[*late[5:], {"relation": "s", "row": {}, "reason": "out_of_order"}],
    )  # fmt: skip
    assert step == 1
    assert Pipeline.objects.get(pk=pipeline.pk).dropped_counts == {"t": 12, "s": 1}
    logged = [(d.step, d.relation, d.ordinal, d.row) for d in DroppedRow.objects.order_by("id")]
    assert logged == [(1, "t", 1, {"x": 1}), (2, "t", 10, {"x": 10}), (2, "s", 1, {})]
