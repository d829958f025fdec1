"""Output connectors deliver each step's changes of a view once per step id, into files
and into a PostgreSQL table (a real database), catching up after failures."""

import json
import os
import uuid
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.conf import settings

from backend.accounts.services import user_ensure
from backend.devstack import _ensure_database
from backend.pipelines.connectors import Connectors
from backend.pipelines.metrics import StepFigures
from backend.pipelines.models import Pipeline, PipelineEvent
from backend.pipelines.services import pipeline_create, pipeline_deploy, pipeline_record_step
from backend.programs.services import program_create
from worker.runner.connectors import ConnectorError, validate_connector

PROGRAM = """
CREATE TABLE t (id INT, name VARCHAR, amount DECIMAL(10, 2), at TIMESTAMP);
CREATE VIEW v AS SELECT id, name, amount, at FROM t;
CREATE VIEW other AS SELECT id FROM t;
"""


def row(i: int, name: str = "x") -> dict[str, Any]:
    return {"id": i, "name": name, "amount": f"{i}.50", "at": f"2026-01-01 10:0{i}:00"}


class Steps:
    def __init__(self) -> None:
        self.user = user_ensure(username="ops", password=None, team="ops")
        name = f"p-{uuid.uuid4().hex[:6]}"
        program_create(user=self.user, name=name, sql=PROGRAM)
        self.pipeline = pipeline_create(user=self.user, name=name, program=name)
        self.batch = 0

    def record(self, **deltas: list[dict[str, Any]]) -> None:
        pipeline_record_step(
            pipeline_id=self.pipeline.pk, batch_id=self.batch,
            figures=StepFigures(1, 1.0, self.batch + 1), deltas=deltas,
        )  # fmt: skip
        self.batch += 1

    def connectors(self, *specs: dict[str, Any]) -> Connectors:
        return Connectors(Pipeline.objects.get(pk=self.pipeline.pk), list(specs))


@pytest.fixture()
def steps(transactional_db: Any) -> Steps:
    return Steps()


@pytest.fixture()
def sink_url() -> str:
    """A database of its own on the test server, as an outside system would be (one per
    test process)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    return _ensure_database(settings.DATABASE_URL, f"weir_sink_test_{worker}")


def read_table(url: str, table: str) -> list[tuple[Any, ...]]:
    with psycopg.connect(url) as conn:
        return sorted(conn.execute(f"SELECT * FROM {table}").fetchall(), key=repr)


def test_a_file_connector_writes_a_file_per_changed_step_once(steps: Steps, tmp_path: Path) -> None:
    out = tmp_path / "v"
    connectors = steps.connectors({"view": "v", "type": "file", "path": str(out)})
    steps.record(v=[{"insert": row(1)}, {"insert": row(2)}])
    steps.record(other=[{"insert": {"id": 9}}])
    steps.record(v=[{"delete": row(1)}])
    connectors.deliver()
    assert sorted(p.name for p in out.iterdir()) == [
        ".weir-progress",
        "step-000000000001.jsonl",
        "step-000000000003.jsonl",
    ]
    lines = (out / "step-000000000003.jsonl").read_text().splitlines()
    assert [json.loads(line) for line in lines] == [{"step": 3, "delete": row(1)}]
    first = out / "step-000000000001.jsonl"
    written = first.stat().st_mtime_ns
    # A runner that died after writing a step but before its progress: nothing twice.
    (out / ".weir-progress").unlink()
    steps.record(v=[{"insert": row(4)}])
    connectors.deliver()
    assert first.stat().st_mtime_ns == written
    assert json.loads((out / ".weir-progress").read_text()) == {"step": 4}
    assert (out / "step-000000000004.jsonl").exists()


def test_a_csv_file_connector_writes_columns_step_and_weight(steps: Steps, tmp_path: Path) -> None:
    spec = {"view": "v", "type": "file", "path": str(tmp_path), "format": "csv"}
    steps.record(v=[{"insert": row(1, "a,b")}, {"delete": row(2)}])
    steps.connectors(spec).deliver()
    assert (tmp_path / "step-000000000001.csv").read_text().splitlines() == [
        "id,name,amount,at,weir_step,weir_weight",
        '1,"a,b",1.50,2026-01-01 10:01:00,1,1',
        "2,x,2.50,2026-01-01 10:02:00,1,-1",
    ]


def test_a_connector_ahead_of_its_pipeline_starts_over(steps: Steps, tmp_path: Path) -> None:
    spec = {"view": "v", "type": "file", "path": str(tmp_path)}
    steps.record(v=[{"insert": row(1)}])
    steps.record(v=[{"insert": row(2)}])
    steps.connectors(spec).deliver()
    # A deploy resets the pipeline's run: its steps count from 1 again.
    pipeline_deploy(user=steps.user, name=steps.pipeline.name, actor="ops", reset_state=True)
    steps.record(v=[{"insert": row(3)}])
    steps.connectors(spec).deliver()
    assert sorted(p.name for p in tmp_path.glob("step-*")) == ["step-000000000001.jsonl"]
    assert json.loads((tmp_path / "step-000000000001.jsonl").read_text())["insert"] == row(3)


def test_a_postgres_content_table_equals_the_view(steps: Steps, sink_url: str) -> None:
    table = f"v_{uuid.uuid4().hex[:6]}"
    connectors = steps.connectors({"view": "v", "type": "postgres", "url": sink_url,
                                   "table": table})  # fmt: skip
    steps.record(v=[{"insert": row(1)}, {"insert": row(1)}, {"insert": row(2)}])
    steps.record(v=[{"delete": row(1)}, {"insert": {**row(3), "name": None}}])
    connectors.deliver()
    connectors.deliver()  # nothing twice
    expected = [(1, "x", "1.50"), (2, "x", "2.50"), (3, None, "3.50")]
    got = [(r[0], r[1], str(r[2])) for r in read_table(sink_url, table)]
    assert sorted(got, key=repr) == sorted(expected, key=repr)
    steps.record(v=[{"delete": {**row(3), "name": None}}])
    connectors.deliver()
    assert [r[0] for r in read_table(sink_url, table)] == [1, 2]


def test_a_postgres_step_is_applied_with_its_progress_or_not_at_all(
    steps: Steps, sink_url: str
) -> None:
    table = f"c_{uuid.uuid4().hex[:6]}"
    spec = {"view": "v", "type": "postgres", "url": sink_url, "table": table, "mode": "changes"}
    connectors = steps.connectors(spec)
    steps.record(v=[{"insert": row(1)}])
    connectors.deliver()
    with psycopg.connect(sink_url) as conn:  # the outside table refuses id 3 for a while
        conn.execute(f"ALTER TABLE {table} ADD CONSTRAINT no3 CHECK (id <> 3)")
    steps.record(v=[{"insert": row(2)}, {"insert": row(3)}])
    connectors.deliver()
    assert [r[0] for r in read_table(sink_url, table)] == [1]  # step 2 not half applied
    events = [e.message for e in PipelineEvent.objects.filter(pipeline=steps.pipeline)]
    assert any(f"postgres table {table} of view v failed" in m for m in events)
    with psycopg.connect(sink_url) as conn:
        conn.execute(f"ALTER TABLE {table} DROP CONSTRAINT no3")
    connectors.deliver()
    assert [(r[0], r[-2], r[-1]) for r in read_table(sink_url, table)] == [
        (1, 1, 1),
        (2, 2, 1),
        (3, 2, 1),
    ]
    messages = [e.message for e in PipelineEvent.objects.filter(pipeline=steps.pipeline)]
    assert messages[-1] == f"postgres table {table} of view v delivers again"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ({"view": "v", "type": "kafka"}, "type is 'file' or 'postgres'"),
        ({"view": "nope", "type": "file", "path": "/tmp/x"}, "no output view 'nope'"),
        ({"view": "v", "type": "file", "path": "relative"}, "absolute directory"),
        ({"view": "v", "type": "file", "path": "/x", "format": "xml"}, "'jsonl' or 'csv'"),
        ({"view": "v", "type": "postgres", "url": "postgresql://h/d"}, "needs 'table'"),
        ({"view": "v", "type": "file", "path": "/x", "colour": 1}, "unknown file connector keys"),
    ],
)
def test_bad_connectors_are_refused_with_a_reason(spec: dict[str, Any], message: str) -> None:
    with pytest.raises(ConnectorError, match=message):
        validate_connector(spec, {"v": []})
