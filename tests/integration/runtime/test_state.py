"""State between steps: re-running a step after a crash starts from the previous step."""

import json
from pathlib import Path
from typing import Any

from pyspark.sql import SparkSession

from tests.integration.runtime.plans import agg, aggregate, col, column, plan, scan, table, view
from worker.runner.engine import StepEngine
from worker.runner.source import SCHEMA
from worker.runner.state import (
    DiskStateStore,
    Snapshot,
    as_multiset,
    integrated,
    rows_table,
)

T = table("t", [column("g", "VARCHAR"), column("x", "INTEGER")])
PLAN = plan(
    [T],
    [
        view(
            "lo",
            aggregate(
                scan(T),
                [("g", col(0, "VARCHAR"))],
                [("m", agg("min", "INTEGER", col(1, "INTEGER")))],
            ),
        )
    ],
)


def batch(spark: SparkSession, *changes: tuple[int, dict[str, Any]]) -> Any:
    return spark.createDataFrame(
        [(i, "t", w, json.dumps(row)) for i, (w, row) in enumerate(changes)], SCHEMA
    )


def test_a_rerun_step_starts_from_the_previous_steps_state(
    spark: SparkSession, tmp_path: Path
) -> None:
    engine = StepEngine(spark, PLAN, DiskStateStore(tmp_path))
    engine.step(1, batch(spark, (1, {"g": "a", "x": 1}), (1, {"g": "a", "x": 5})))
    step2 = batch(spark, (-1, {"g": "a", "x": 1}))
    first = engine.step(2, step2).deltas
    # The min was deleted: the group's next smallest value takes its place.
    assert first == {"lo": [{"delete": {"g": "a", "m": 1}}, {"insert": {"g": "a", "m": 5}}]}
    restarted = StepEngine(spark, PLAN, DiskStateStore(tmp_path))
    assert restarted.step(2, step2).deltas == first
    assert restarted.step(3, batch(spark, (-1, {"g": "a", "x": 5}))).deltas == {
        "lo": [{"delete": {"g": "a", "m": 5}}]
    }


def test_disk_state_keeps_two_versions(tmp_path: Path) -> None:
    store = DiskStateStore(tmp_path)
    for step in range(1, 5):
        rows = rows_table({"r": step})
        store.commit(step, Snapshot(multisets={"k": rows}, values={"step": step}))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["step-000000000003", "step-000000000004"]
    assert as_multiset(store.load(before_step=4).multisets["k"]) == {"r": 3}
    assert store.load(before_step=9).values == {"step": 4}


def test_a_step_leaves_nothing_persisted_in_spark(spark: SparkSession, tmp_path: Path) -> None:
    """A step's materialised input and large stored state (over LITERAL_ROWS rows go
    through the block manager) are released when it ends, not when the JVM gets to it."""
    engine = StepEngine(spark, PLAN, DiskStateStore(tmp_path))
    persisted = spark.sparkContext._jsc.getPersistentRDDs
    before = set(persisted().keys())
    many = [(1, {"g": f"g{i}", "x": i}) for i in range(1_200)]
    for step in (1, 2, 3):
        outcome = engine.step(step, batch(spark, *many[(step - 1) * 400 : step * 400]))
        assert len(outcome.deltas["lo"]) == 400
        assert set(persisted().keys()) == before, step


def test_a_multiset_a_step_left_alone_is_linked_not_written_again(tmp_path: Path) -> None:
    store = DiskStateStore(tmp_path)
    kept = rows_table({'{"c0":1}': 2})
    store.commit(1, Snapshot(multisets={"kept": kept, "changed": rows_table({"a": 1})}))
    loaded = store.load(before_step=2)
    changed = integrated(loaded.multisets["changed"], ["a", "b"], [-1, 3])
    store.commit(2, Snapshot(multisets={"kept": loaded.multisets["kept"], "changed": changed}))
    first, second = tmp_path / "step-000000000001", tmp_path / "step-000000000002"
    files = json.loads((second / "values.json").read_text())["multisets"]
    kept_file, changed_file = second / files["kept"], second / files["changed"]
    assert kept_file.stat().st_ino == (first / files["kept"]).stat().st_ino
    assert changed_file.stat().st_ino != (first / files["changed"]).stat().st_ino
    again = store.load(before_step=3).multisets
    assert as_multiset(again["kept"]) == {'{"c0":1}': 2}
    assert as_multiset(again["changed"]) == {"b": 3}
